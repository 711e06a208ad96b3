import { FirestoreServer } from '@firestore-emulator/server';
import { Firestore } from '@google-cloud/firestore';
import { TokenBucket } from '../../src/store/rateBudget';
import { FirestoreStore } from '../../src/store/firestoreStore';
import { freePort } from './freePort';

/**
 * An in-process Firestore emulator speaking the real gRPC protocol (`@firestore-emulator/server`).
 * Its transactions do not isolate, but it enforces `create()` on existing documents, which is what
 * our leases rely on.
 */

export interface Emulator {
  readonly host: string;
  readonly server: FirestoreServer;
  /** A Firestore client on a project of its own, so tests do not see each other's data. */
  client(projectId?: string): Firestore;
  stop(): Promise<void>;
}

let projectCounter = 0;

export async function startEmulator(): Promise<Emulator> {
  const server = new FirestoreServer();
  const port = await freePort();
  await server.start(port);
  const host = `127.0.0.1:${port}`;
  const clients: Firestore[] = [];
  return {
    host,
    server,
    client(projectId = `demo-test-${process.pid}-${++projectCounter}`) {
      const db = new Firestore({
        projectId,
        host,
        ssl: false,
        customHeaders: { Authorization: 'Bearer owner' },
        ignoreUndefinedProperties: true,
      });
      clients.push(db);
      return db;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.terminate().catch(() => undefined)));
      // Let closed listen streams drain before the server goes away, so no gRPC status arrives
      // after Jest has torn the test environment down.
      await new Promise((r) => setTimeout(r, 200));
      server.stop();
      // Stopping the server ends any stream the client still had; its status must be decoded
      // (google-gax lazily requires a proto file for that) before Jest tears the module system down.
      await new Promise((r) => setTimeout(r, 300));
    },
  };
}

export function unlimitedBudgets() {
  const big = () => new TokenBucket(1_000_000, 10);
  return { poolsRead: big(), poolsWrite: big(), tokensRead: big(), tokensWrite: big() };
}

export function firestoreStore(db: Firestore): FirestoreStore {
  return new FirestoreStore(db, unlimitedBudgets());
}
