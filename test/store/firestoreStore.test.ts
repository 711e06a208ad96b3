import type { Firestore } from '@google-cloud/firestore';
import { FirestoreStore } from '../../src/store/firestoreStore';
import { Emulator, firestoreStore, startEmulator, unlimitedBudgets } from '../helpers/firestoreEmulator';
import { applyChanges, makePool, storeContract } from './storeContract';

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
    const before = Array.from({ length: 520 }, (_, i) => makePool(i + 1));
    await store.commit(1, { pools: before, bumpPoolsVersion: true });
    const held = await store.listPools(1);

    // Fault injection at the client boundary: the second batch of the next commit fails.
    const realBatch = db.batch.bind(db);
    let batches = 0;
    db.batch = () => {
      const b = realBatch();
      if (++batches === 2) b.commit = async () => Promise.reject(new Error('injected: deadline exceeded'));
      return b;
    };
    const changed = [
      ...Array.from({ length: 520 }, (_, i) => makePool(i + 1, { swapFee: '0.09' })),
      ...Array.from({ length: 10 }, (_, i) => makePool(1000 + i)),
    ];
    await expect(store.commit(1, { pools: changed, bumpPoolsVersion: true })).rejects.toThrow(/rolled back/);
    db.batch = realBatch;

    expect((await store.getMeta(1)).poolsVersion).toBe(1);
    const back = await store.listPools(1);
    expect(back).toHaveLength(520);
    expect(back.every((p) => p.swapFee === '0.003')).toBe(true);
    // A reader that saw the first batch mid-commit reads the pools put back as changes again.
    const changes = await store.listPoolChanges(1, 1);
    expect(changes?.pools.length).toBe(500);
    expect(changes?.deletedIds).toHaveLength(0);
    const seenMidCommit = applyChanges(held, { version: 1, pools: changed.slice(0, 499), deletedIds: [] });
    const sort = (p: typeof back) => [...p].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(applyChanges(seenMidCommit, changes!)).toEqual(sort(back));
    await store.close();
  });
});

describe('FirestoreStore pool changes', () => {
  test('a meta written by code that does not record changes makes readers read every pool again', async () => {
    const db: Firestore = emulator.client();
    const store = firestoreStore(db);
    await store.commit(1, { pools: [makePool(1), makePool(2)], bumpPoolsVersion: true });
    expect((await store.listPoolChanges(1, 1))?.pools).toEqual([]);
    // What an earlier version of this store writes: pools without stamps, the meta replaced whole.
    await db.doc('chains/1/pools/' + makePool(3).id).set(JSON.parse(JSON.stringify(makePool(3))));
    // (Deleted first: the emulator merges a plain set into the existing document; Firestore replaces it.)
    await db.doc('chains/1').delete();
    await db.doc('chains/1').set({ poolsVersion: 2, tokensVersion: 0, jobs: {} });
    expect(await store.listPoolChanges(1, 1)).toBeUndefined();
    expect(await store.getPool(1, makePool(3).id)).toEqual(makePool(3));
    await store.close();
  });

  test('pruned tombstones make versions from before them unanswerable, later ones still answer', async () => {
    const db: Firestore = emulator.client();
    const store = new FirestoreStore(db, unlimitedBudgets(), 1);
    await store.commit(1, { pools: [1, 2, 3].map((i) => makePool(i)), bumpPoolsVersion: true }); // 1
    await store.commit(1, { deletePoolIds: [makePool(1).id], bumpPoolsVersion: true }); // 2
    expect((await store.listPoolChanges(1, 1))?.deletedIds).toEqual([makePool(1).id]);
    await store.commit(1, { deletePoolIds: [makePool(2).id], bumpPoolsVersion: true }); // 3: drops version 2's tombstone
    expect(await store.listPoolChanges(1, 1)).toBeUndefined();
    expect(await store.listPoolChanges(1, 2)).toEqual({
      version: 3,
      pools: [],
      deletedIds: [makePool(2).id],
      total: 1,
    });
    expect((await db.collection('chains/1/poolTombstones').get()).docs.map((d) => d.id)).toEqual([makePool(2).id]);
    await store.close();
  });
});
