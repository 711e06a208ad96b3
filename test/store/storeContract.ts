import type { Address } from '../../src/domain/address';
import type { PoolHistoryPoint, StoredPool, StoredToken } from '../../src/domain/pool';
import { MAX_DOCUMENT_BYTES, PoolChanges, Store } from '../../src/store/Store';
import { storedPool } from '../helpers/poolFixtures';

/**
 * The one contract every Store adapter must pass (docs/ARCHITECTURE.md, "The store contract"). Each adapter's test file
 * calls `storeContract(name, makeStore)`; `makeStore` returns a fresh, empty store.
 */

export function makePool(i: number, overrides: Partial<StoredPool> = {}): StoredPool {
  const hex = i.toString(16).padStart(40, '0');
  return storedPool({
    id: `0x${hex}0002000000000000000000${i.toString(16).padStart(2, '0').slice(-2)}`,
    address: `0x${hex}` as Address,
    poolTypeVersion: 4,
    symbol: `P${i}`,
    name: `Pool ${i}`,
    totalShares: '1000.5',
    totalSwapVolume: String(i * 10),
    totalSwapFee: String(i),
    createTime: 1_650_000_000 + i,
    tokens: [
      {
        address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' as Address,
        symbol: 'WETH',
        name: null,
        decimals: 18,
        balance: `${i}.123456789012345678`,
        weight: '0.5',
        priceRate: '1',
      },
      {
        address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' as Address,
        symbol: 'USDC',
        name: null,
        decimals: 6,
        balance: `${i * 3000}.5`,
        weight: '0.5',
        priceRate: '1',
      },
    ],
    ...overrides,
  });
}

export function makeToken(address: string, overrides: Partial<StoredToken> = {}): StoredToken {
  return {
    address: address as Address,
    symbol: 'TKN',
    name: 'Token',
    decimals: 18,
    price: null,
    priceUsd: null,
    lastUpdate: null,
    noPriceData: false,
    ...overrides,
  };
}

const byId = (a: StoredPool, b: StoredPool): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** What a reader holding `held` has once it applies `changes` (the read model does the same). */
export function applyChanges(held: readonly StoredPool[], changes: PoolChanges): StoredPool[] {
  const written = new Map(changes.pools.map((p) => [p.id, p]));
  const gone = new Set(changes.deletedIds);
  const kept = held.filter((p) => !written.has(p.id) && !gone.has(p.id));
  return [...kept, ...written.values()].sort(byId);
}

function point(poolId: string, timestamp: number, volume: string): PoolHistoryPoint {
  return {
    poolId,
    timestamp,
    totalSwapVolume: volume,
    totalSwapFee: '1',
    totalShares: '100',
    priceRates: { '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2': '1.01' },
  };
}

export function storeContract(name: string, makeStore: () => Promise<Store>, afterEach_?: () => Promise<void>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await makeStore();
    });
    afterEach(async () => {
      await store.close();
      await afterEach_?.();
    });

    test('an unknown chain has empty data and version 0', async () => {
      expect(await store.listPools(1)).toEqual([]);
      expect(await store.listTokens(1)).toEqual([]);
      expect(await store.getMeta(1)).toEqual({ chainId: 1, poolsVersion: 0, tokensVersion: 0, jobs: {} });
      expect(await store.getPool(1, makePool(1).id)).toBeUndefined();
    });

    test('1,001 pools (more than two 500-write batches) are written and read back exactly', async () => {
      const pools = Array.from({ length: 1001 }, (_, i) => makePool(i + 1));
      const meta = await store.commit(1, { pools, bumpPoolsVersion: true });
      expect(meta.poolsVersion).toBe(1);
      const back = await store.listPools(1);
      expect(back).toHaveLength(1001);
      const byId = new Map(back.map((p) => [p.id, p]));
      for (const p of pools) expect(byId.get(p.id)).toEqual(p);
      expect(await store.getPool(1, pools[700]!.id.toUpperCase().replace('0X', '0x'))).toEqual(pools[700]);
      // Chains are separate.
      expect(await store.listPools(137)).toEqual([]);
    });

    test('updating a subset changes only those pools and bumps the version once', async () => {
      const pools = Array.from({ length: 20 }, (_, i) => makePool(i + 1));
      await store.commit(1, { pools, bumpPoolsVersion: true });
      const changed = [makePool(3, { swapFee: '0.01' }), makePool(7, { totalShares: '5' })];
      const meta = await store.commit(1, { pools: changed, deletePoolIds: [pools[0]!.id], bumpPoolsVersion: true });
      expect(meta.poolsVersion).toBe(2);
      const back = new Map((await store.listPools(1)).map((p) => [p.id, p]));
      expect(back.size).toBe(19);
      expect(back.has(pools[0]!.id)).toBe(false);
      expect(back.get(changed[0]!.id)!.swapFee).toBe('0.01');
      expect(back.get(changed[1]!.id)!.totalShares).toBe('5');
      expect(back.get(pools[10]!.id)).toEqual(pools[10]);
    });

    test('pool changes since a version: writes, deletions and writes that do not bump the version', async () => {
      const ids = (changes: PoolChanges | undefined) => ({
        version: changes?.version,
        pools: changes?.pools.map((p) => p.symbol).sort(),
        deletedIds: [...(changes?.deletedIds ?? [])].sort(),
      });
      expect(await store.listPoolChanges(1, 0)).toEqual({ version: 0, pools: [], deletedIds: [], total: 0 });
      await store.commit(1, { pools: Array.from({ length: 10 }, (_, i) => makePool(i + 1)), bumpPoolsVersion: true });
      const first = await store.listPoolChanges(1, 0);
      expect(first).toMatchObject({ version: 1, deletedIds: [], total: 10 });
      expect([...first!.pools].sort(byId)).toEqual(await store.listPools(1).then((p) => p.sort(byId)));
      expect(await store.listPoolChanges(1, 1)).toEqual({ version: 1, pools: [], deletedIds: [], total: 10 });

      await store.commit(1, {
        pools: [makePool(3, { swapFee: '0.01' }), makePool(11)],
        deletePoolIds: [makePool(5).id],
        bumpPoolsVersion: true,
      });
      const second = await store.listPoolChanges(1, 1);
      expect(ids(second)).toEqual({ version: 2, pools: ['P11', 'P3'], deletedIds: [makePool(5).id] });
      expect(second!.pools.find((p) => p.symbol === 'P3')).toEqual(makePool(3, { swapFee: '0.01' }));
      expect(second!.total).toBe(10);
      // Job bookkeeping (no pools) changes nothing.
      await store.commit(1, { jobs: { 'update-pools': { lastRunAt: 1, lastSuccessAt: 1, lastError: null } } });
      expect(ids(await store.listPoolChanges(1, 2))).toEqual({ version: 2, pools: [], deletedIds: [] });

      // A write that does not bump reaches a reader already at the current version, then and at the next bump.
      await store.commit(1, { pools: [makePool(4, { name: 'renamed' })] });
      expect(ids(await store.listPoolChanges(1, 2))).toEqual({ version: 2, pools: ['P4'], deletedIds: [] });
      await store.commit(1, { pools: [makePool(6, { swapFee: '0.2' })], bumpPoolsVersion: true });
      expect(ids(await store.listPoolChanges(1, 2))).toEqual({ version: 3, pools: ['P4', 'P6'], deletedIds: [] });
      expect(ids(await store.listPoolChanges(1, 3))).toEqual({ version: 3, pools: [], deletedIds: [] });

      // Deleted, then written again: a written pool, not a deletion.
      await store.commit(1, { deletePoolIds: [makePool(7).id], bumpPoolsVersion: true });
      await store.commit(1, { pools: [makePool(7, { swapFee: '0.07' })], bumpPoolsVersion: true });
      expect(ids(await store.listPoolChanges(1, 3))).toEqual({ version: 5, pools: ['P7'], deletedIds: [] });
      expect(ids(await store.listPoolChanges(1, 1))).toEqual({
        version: 5,
        pools: ['P11', 'P3', 'P4', 'P6', 'P7'],
        deletedIds: [makePool(5).id],
      });
      // A version the chain never reached: the store cannot say.
      expect(await store.listPoolChanges(1, 6)).toBeUndefined();
      expect(await store.listPoolChanges(137, 1)).toBeUndefined();
    });

    test('a reader that applies the changes since its version to what it held has exactly the store pools', async () => {
      await store.commit(1, { pools: Array.from({ length: 30 }, (_, i) => makePool(i + 1)), bumpPoolsVersion: true });
      let held = (await store.listPools(1)).sort(byId);
      let version = (await store.getMeta(1)).poolsVersion;
      const steps: Parameters<Store['commit']>[1][] = [
        { pools: [makePool(2, { swapFee: '0.02' })], bumpPoolsVersion: true },
        { deletePoolIds: [makePool(9).id, makePool(10).id], pools: [makePool(40)], bumpPoolsVersion: true },
        { pools: [makePool(12, { isPaused: true })] },
        { pools: [makePool(9), makePool(2, { swapFee: '0.03' })], deletePoolIds: [makePool(40).id] },
        { jobs: { 'update-pools': { lastRunAt: 2, lastSuccessAt: 2, lastError: null } }, bumpPoolsVersion: true },
        { pools: Array.from({ length: 5 }, (_, i) => makePool(20 + i, { totalShares: '7' })), bumpPoolsVersion: true },
      ];
      for (const step of steps) {
        await store.commit(1, step);
        const changes = await store.listPoolChanges(1, version);
        expect(changes).toBeDefined();
        held = applyChanges(held, changes!);
        version = changes!.version;
        const current = (await store.listPools(1)).sort(byId);
        expect(held).toEqual(current);
        expect(changes!.total ?? current.length).toBe(current.length);
      }
      expect(version).toBe((await store.getMeta(1)).poolsVersion);
    });

    test('tokens and the token version are independent of pools', async () => {
      const a = makeToken('0x00000000000000000000000000000000000000aa', {
        price: '0.0005',
        priceUsd: '1.0001',
        lastUpdate: 1700000000000,
      });
      const meta = await store.commit(1, {
        tokens: [a, makeToken('0x00000000000000000000000000000000000000bb')],
        bumpTokensVersion: true,
      });
      expect(meta).toMatchObject({ poolsVersion: 0, tokensVersion: 1 });
      const tokens = await store.listTokens(1);
      expect(tokens.map((t) => t.address)).toEqual([
        '0x00000000000000000000000000000000000000aa',
        '0x00000000000000000000000000000000000000bb',
      ]);
      expect(tokens[0]).toEqual(a);
    });

    test('job records merge into the chain meta without bumping versions', async () => {
      await store.commit(1, { jobs: { 'update-pools': { lastRunAt: 1, lastSuccessAt: 1, lastError: null } } });
      const meta = await store.commit(1, {
        jobs: { 'update-prices': { lastRunAt: 2, lastSuccessAt: null, lastError: 'x' } },
      });
      expect(meta.poolsVersion).toBe(0);
      expect((await store.getMeta(1)).jobs).toEqual({
        'update-pools': { lastRunAt: 1, lastSuccessAt: 1, lastError: null },
        'update-prices': { lastRunAt: 2, lastSuccessAt: null, lastError: 'x' },
      });
    });

    test('history points append per hour bucket and read back by range and pool', async () => {
      const a = makePool(1).id;
      const b = makePool(2).id;
      const t0 = 1_700_000_000 - (1_700_000_000 % 3600);
      await store.commit(1, { history: [point(a, t0, '10'), point(b, t0, '20')] });
      await store.commit(1, { history: [point(a, t0 + 1800, '11')] }); // same hour: replaces
      await store.commit(1, { history: [point(a, t0 + 3600, '12'), point(a, t0 + 7200, '13')] });
      const all = await store.readHistory(1, { from: t0, to: t0 + 7200 });
      expect(all.map((p) => [p.poolId === a ? 'a' : 'b', p.totalSwapVolume])).toEqual(
        expect.arrayContaining([
          ['a', '11'],
          ['b', '20'],
          ['a', '12'],
          ['a', '13'],
        ]),
      );
      expect(all).toHaveLength(4);
      const onlyA = await store.readHistory(1, { poolId: a, from: t0 + 3600, to: t0 + 7200 });
      expect(onlyA.map((p) => p.totalSwapVolume)).toEqual(['12', '13']);
      expect(onlyA[0]).toEqual(point(a, t0 + 3600, '12'));
      expect(await store.pruneHistory(1, t0 + 3600)).toBe(2);
      expect(await store.readHistory(1, { from: 0, to: t0 + 10_000 })).toHaveLength(2);
    });

    test('leases: acquire, second owner refused, release, renew, takeover only after expiry', async () => {
      const base = { scope: '1', job: 'update-pools', ttlMs: 60_000 };
      let now = 1_000_000;
      expect(await store.acquireLease({ ...base, owner: 'A', nowMs: now })).toBe(true);
      expect(await store.acquireLease({ ...base, owner: 'B', nowMs: now + 1 })).toBe(false);
      // Another job or chain is a different lease.
      expect(await store.acquireLease({ ...base, scope: '137', owner: 'B', nowMs: now })).toBe(true);
      // A renews: the expiry moves, so B is still refused past the first expiry.
      now += 50_000;
      expect(await store.renewLease({ ...base, owner: 'A', nowMs: now })).toBe(true);
      expect(await store.renewLease({ ...base, owner: 'B', nowMs: now })).toBe(false);
      expect(await store.acquireLease({ ...base, owner: 'B', nowMs: now + 20_000 })).toBe(false);
      // A dies without releasing: B takes over once the renewed lease has expired.
      expect(await store.acquireLease({ ...base, owner: 'B', nowMs: now + 60_001 })).toBe(true);
      expect(await store.renewLease({ ...base, owner: 'A', nowMs: now + 60_002 })).toBe(false);
      // Releasing someone else's lease does nothing; releasing your own frees it.
      await store.releaseLease('1', 'update-pools', 'A');
      expect(await store.acquireLease({ ...base, owner: 'C', nowMs: now + 60_003 })).toBe(false);
      await store.releaseLease('1', 'update-pools', 'B');
      expect(await store.acquireLease({ ...base, owner: 'C', nowMs: now + 60_004 })).toBe(true);
    });

    test('a lease shows its holder, since when it is held and when it expires; a crashed holder frees it one TTL after its last renewal', async () => {
      const base = { scope: '1', job: 'update-pools', ttlMs: 15_000 };
      const t0 = 2_000_000;
      expect(await store.readLease('1', 'update-pools')).toBeUndefined();
      expect(await store.acquireLease({ ...base, owner: 'host-a:7:run1', nowMs: t0 })).toBe(true);
      expect(await store.readLease('1', 'update-pools')).toEqual({
        owner: 'host-a:7:run1',
        acquiredAtMs: t0,
        expiresAtMs: t0 + 15_000,
      });
      // Heartbeats move the expiry, never the start.
      for (const beat of [5_000, 10_000, 15_000])
        expect(await store.renewLease({ ...base, owner: 'host-a:7:run1', nowMs: t0 + beat })).toBe(true);
      expect(await store.readLease('1', 'update-pools')).toEqual({
        owner: 'host-a:7:run1',
        acquiredAtMs: t0,
        expiresAtMs: t0 + 30_000,
      });
      // The holder crashes after its last heartbeat: refused until 15 s after it, free right after.
      expect(await store.acquireLease({ ...base, owner: 'host-b:9:run1', nowMs: t0 + 29_999 })).toBe(false);
      expect(await store.acquireLease({ ...base, owner: 'host-b:9:run1', nowMs: t0 + 30_000 })).toBe(true);
      expect(await store.readLease('1', 'update-pools')).toEqual({
        owner: 'host-b:9:run1',
        acquiredAtMs: t0 + 30_000,
        expiresAtMs: t0 + 45_000,
      });
      await store.releaseLease('1', 'update-pools', 'host-b:9:run1');
      expect(await store.readLease('1', 'update-pools')).toBeUndefined();
    });

    test('concurrent acquisitions of a free lease: exactly one wins', async () => {
      const results = await Promise.all(
        ['A', 'B', 'C', 'D'].map((owner) =>
          store.acquireLease({ scope: 'global', job: 'update-prices', owner, ttlMs: 60_000, nowMs: 5 }),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    test('a failed change leaves nothing half-written, not even earlier batches', async () => {
      const before = Array.from({ length: 10 }, (_, i) => makePool(i + 1));
      await store.commit(1, { pools: before, bumpPoolsVersion: true });
      const huge = makePool(900, { name: 'x'.repeat(MAX_DOCUMENT_BYTES + 10) });
      // 700 good pools (a full first batch) and one that no store can take.
      const change = [...Array.from({ length: 700 }, (_, i) => makePool(i + 1, { swapFee: '0.05' })), huge];
      await expect(
        store.commit(1, {
          pools: change,
          tokens: [makeToken('0x00000000000000000000000000000000000000cc')],
          bumpPoolsVersion: true,
        }),
      ).rejects.toThrow(/document limit/);
      expect(await store.getMeta(1)).toMatchObject({ poolsVersion: 1, tokensVersion: 0 });
      const back = await store.listPools(1);
      expect(back).toHaveLength(10);
      expect(back.every((p) => p.swapFee === '0.003')).toBe(true);
      expect(await store.listTokens(1)).toEqual([]);
    });

    test('a change conditional on a pools version applies only while that version holds', async () => {
      const v1 = await store.commit(1, { pools: [makePool(1)], bumpPoolsVersion: true });
      await store.commit(1, { pools: [makePool(2)], bumpPoolsVersion: true }); // someone else moves the chain
      await expect(
        store.commit(1, {
          pools: [makePool(1, { swapFee: '0.5' })],
          tokens: [makeToken('0x00000000000000000000000000000000000000dd')],
          ifPoolsVersion: v1.poolsVersion,
          bumpPoolsVersion: true,
        }),
      ).rejects.toThrow(/changed meanwhile \(version 2, expected 1\)/);
      expect((await store.getPool(1, makePool(1).id))!.swapFee).toBe('0.003');
      expect(await store.listTokens(1)).toEqual([]);
      expect((await store.getMeta(1)).poolsVersion).toBe(2);
      const ok = await store.commit(1, {
        pools: [makePool(1, { swapFee: '0.5' })],
        ifPoolsVersion: 2,
        bumpPoolsVersion: true,
      });
      expect(ok.poolsVersion).toBe(3);
      expect((await store.getPool(1, makePool(1).id))!.swapFee).toBe('0.5');
      // Also from an empty chain (version 0, no meta document yet).
      expect(
        (await store.commit(137, { pools: [makePool(5)], ifPoolsVersion: 0, bumpPoolsVersion: true })).poolsVersion,
      ).toBe(1);
    });

    test('meta listeners hear version bumps', async () => {
      const seen: number[] = [];
      const unsubscribe = store.onMetaChange(1, (m) => seen.push(m.poolsVersion));
      await store.commit(1, { pools: [makePool(1)], bumpPoolsVersion: true });
      await store.commit(1, { pools: [makePool(2)], bumpPoolsVersion: true });
      const deadline = Date.now() + 5000;
      while (!seen.includes(2) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      unsubscribe();
      // Let the closed listen stream (Firestore) deliver its final status while the test still runs.
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toContain(2);
    });

    test('ping answers', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
