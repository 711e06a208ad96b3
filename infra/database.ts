import * as gcp from '@pulumi/gcp';
import * as pulumi from '@pulumi/pulumi';
import type { Accounts } from './identity';
import { member } from './identity';

/**
 * The Firestore (native mode) default database the service's Firestore store uses, the composite
 * index its history query needs (`poolSnapshots` where poolId == x and timestamp in a range,
 * see src/store/firestoreStore.ts readHistory), and data access for the runtime account.
 */
export function createDatabase(project: string, location: string, accounts: Accounts, dependsOn: pulumi.Resource[]) {
  const database = new gcp.firestore.Database(
    'firestore',
    {
      project,
      name: '(default)',
      locationId: location,
      type: 'FIRESTORE_NATIVE',
      // Pool data can be rebuilt from the subgraph, but not instantly: keep it on `pulumi destroy`.
      deletionPolicy: 'ABANDON',
      deleteProtectionState: 'DELETE_PROTECTION_ENABLED',
    },
    { dependsOn },
  );
  const historyIndex = new gcp.firestore.Index('pool-snapshots-by-pool-and-time', {
    project,
    database: database.name,
    collection: 'poolSnapshots',
    queryScope: 'COLLECTION',
    fields: [
      { fieldPath: 'poolId', order: 'ASCENDING' },
      { fieldPath: 'timestamp', order: 'ASCENDING' },
    ],
  });
  const dataAccess = new gcp.projects.IAMMember('run-datastore-user', {
    project,
    role: 'roles/datastore.user',
    member: member(accounts.runtime),
  });
  return { database, historyIndex, dataAccess, ready: pulumi.all([database.id, historyIndex.id]) };
}
