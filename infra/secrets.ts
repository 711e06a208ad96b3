import * as gcp from '@pulumi/gcp';
import type * as pulumi from '@pulumi/pulumi';
import { SECRET_NAMES } from './config';
import type { Accounts } from './identity';
import { member } from './identity';

/**
 * One Secret Manager secret per sensitive variable: the service's keys (SECRET_NAMES) and the
 * stack's `secretEnv` variables. The stack creates the secrets but never their
 * values (those stay out of the Pulumi state): add versions with `gcloud secrets versions add`.
 * The runtime account may read these secrets and no others.
 */
export interface Secrets {
  readonly byName: Readonly<Record<string, gcp.secretmanager.Secret>>;
  /** The runtime account's access; the service waits for it so its first revision can start. */
  readonly grants: readonly gcp.secretmanager.SecretIamMember[];
}

export function createSecrets(
  project: string,
  serviceName: string,
  secretEnv: readonly string[],
  accounts: Accounts,
  dependsOn: pulumi.Resource[],
): Secrets {
  const byName: Record<string, gcp.secretmanager.Secret> = {};
  const grants: gcp.secretmanager.SecretIamMember[] = [];
  for (const name of [...SECRET_NAMES, ...secretEnv]) {
    const slug = name.toLowerCase().replace(/_/g, '-');
    const secret = new gcp.secretmanager.Secret(
      `secret-${slug}`,
      { project, secretId: `${serviceName}-${slug}`, replication: { auto: {} } },
      { dependsOn },
    );
    grants.push(
      new gcp.secretmanager.SecretIamMember(`secret-${slug}-run-access`, {
        project,
        secretId: secret.secretId,
        role: 'roles/secretmanager.secretAccessor',
        member: member(accounts.runtime),
      }),
    );
    byName[name] = secret;
  }
  return { byName, grants };
}
