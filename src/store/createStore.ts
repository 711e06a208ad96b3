import { join } from 'node:path';
import type { Config } from '../config/env';
import { TokenBucket } from './rateBudget';
import { FirestoreStore } from './firestoreStore';
import { SqliteStore } from './sqliteStore';
import type { Store } from './Store';

export const SQLITE_FILE_NAME = 'balancer-pools.sqlite';

/** Builds the store the configuration asks for. The Firestore client is loaded only when used. */
export async function createStore(config: Config): Promise<Store> {
  if (config.store === 'sqlite') {
    const file = config.dataDir === ':memory:' ? ':memory:' : join(config.dataDir, SQLITE_FILE_NAME);
    return new SqliteStore(file);
  }
  // Loaded on demand: the embedded mode should not pay for the gRPC client at start-up.
  const { Firestore } = require('@google-cloud/firestore') as typeof import('@google-cloud/firestore');
  const db = new Firestore({
    ...(config.googleCloudProject ? { projectId: config.googleCloudProject } : {}),
    ignoreUndefinedProperties: true,
  });
  const m = config.database.autoscaleMaxMultiplier;
  const { pools, tokens } = config.database;
  return new FirestoreStore(db, {
    poolsRead: new TokenBucket(pools.readsPerSecond, m),
    poolsWrite: new TokenBucket(pools.writesPerSecond, m),
    tokensRead: new TokenBucket(tokens.readsPerSecond, m),
    tokensWrite: new TokenBucket(tokens.writesPerSecond, m),
  });
}
