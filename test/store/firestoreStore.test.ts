import type { Firestore } from '@google-cloud/firestore';
import { Emulator, firestoreStore, startEmulator } from '../helpers/firestoreEmulator';
import { makePool, storeContract } from './storeContract';

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator();
});
afterAll(async () => {
  await emulator.stop();
});

storeContract('FirestoreStore (emulator over gRPC)', async () => firestoreStore(emulator.client()));

describe('FirestoreStore multi-batch commit', () => {
  test('when a later batch fails, earlier batches are rolled back and the version stays', async () => {
    const db: Firestore = emulator.client();
    const store = firestoreStore(db);
    const before = Array.from({ length: 600 }, (_, i) => makePool(i + 1));
    await store.commit(1, { pools: before, bumpPoolsVersion: true });

    // Fault injection at the client boundary: the second batch of the next commit fails.
    const realBatch = db.batch.bind(db);
    let batches = 0;
    db.batch = () => {
      const b = realBatch();
      if (++batches === 2) b.commit = async () => Promise.reject(new Error('injected: deadline exceeded'));
      return b;
    };
    const changed = [
      ...Array.from({ length: 600 }, (_, i) => makePool(i + 1, { swapFee: '0.09' })),
      ...Array.from({ length: 100 }, (_, i) => makePool(1000 + i)),
    ];
    await expect(store.commit(1, { pools: changed, bumpPoolsVersion: true })).rejects.toThrow(/rolled back/);
    db.batch = realBatch;

    expect((await store.getMeta(1)).poolsVersion).toBe(1);
    const back = await store.listPools(1);
    expect(back).toHaveLength(600);
    expect(back.every((p) => p.swapFee === '0.003')).toBe(true);
    await store.close();
  });
});
