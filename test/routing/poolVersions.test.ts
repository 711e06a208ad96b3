import { chainById } from '../../src/config/chains';
import { normalizePool } from '../../src/domain/normalizePool';
import type { StoredPool } from '../../src/domain/pool';
import type { RouterEngine } from '../../src/config/env';
import { poolDelta, PoolVersions } from '../../src/routing/poolVersions';
import { RouterHost, type QuoteTask } from '../../src/routing/routerHost';
import { encodeShared } from '../../src/routing/sharedJson';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../helpers/snapshot';

/**
 * Pool versions travel to the quote threads as deltas on a base, and a thread's router for the
 * next version keeps the unchanged pools' models: every answer must be the one a thread that
 * decodes the whole new version and builds its router from nothing gives, byte for byte.
 */

const chain = chainById(1)!;
const TIMESTAMP = 1_651_800_000;
const PRICES = encodeShared({});

/** Deterministic pseudo-random numbers (mulberry32), so a failure replays. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function storedPools(): StoredPool[] {
  return loadSnapshotPools()
    .flatMap((p) => {
      const n = normalizePool(p as never);
      return n.ok ? [n.pool] : [];
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The pool with every balance scaled by `percent` (integer part only, so decimals stay valid). */
function rebalanced(p: StoredPool, percent: number): StoredPool {
  return {
    ...p,
    tokens: p.tokens.map((t) => {
      const [int, frac] = t.balance.split('.');
      const scaled = ((BigInt(int!) * BigInt(percent)) / 100n).toString();
      return { ...t, balance: frac === undefined ? scaled : `${scaled}.${frac}` };
    }),
  };
}

const PAIRS: [string, string][] = [
  [MAINNET.WETH, MAINNET.DAI],
  [MAINNET.USDC, MAINNET.WETH],
  [MAINNET.DAI, MAINNET.USDT],
  [MAINNET.WBTC, MAINNET.USDC],
  [MAINNET.BAL, MAINNET.WETH],
  [MAINNET.wstETH, MAINNET.WETH],
];

function task(
  pools: QuoteTask['pools'],
  sell: string,
  buy: string,
  kind: 'sell' | 'buy',
  amount: bigint,
  engine: RouterEngine = 'own',
): QuoteTask {
  return {
    chain: { id: chain.id, vault: chain.vault, wrappedNative: chain.wrappedNative },
    pools,
    pricesKey: 'prices',
    prices: PRICES,
    minLiquidityUsd: 0,
    engine,
    sellToken: sell,
    buyToken: buy,
    orderKind: kind,
    amount: amount.toString(),
    gasPrice: '0',
    timestamp: TIMESTAMP,
  };
}

describeWithSnapshot('pool versions as deltas on the mainnet snapshot', () => {
  test('a thread fed deltas routes exactly like one that builds each version from nothing', async () => {
    const random = rng(7);
    let pools = storedPools();
    const all = pools;
    const versions = new PoolVersions();
    const host = new RouterHost();
    const first = versions.input(1, 1, pools);
    expect(first.deltas).toHaveLength(0);
    await host.quote({ ...task(first, MAINNET.WETH, MAINNET.DAI, 'sell', 10n ** 18n), warmOnly: true });
    let deltas = 0;
    for (let version = 2; version <= 3; version++) {
      // A block: a few pools rebalanced (the busiest tokens' pools among them), now and then one
      // gone and one come back.
      const next = [...pools];
      for (let k = 0; k < 4; k++) {
        const at = Math.floor(random() * next.length);
        next[at] = rebalanced(next[at]!, 90 + Math.floor(random() * 20));
      }
      const weth = next.findIndex((p) => p.tokensList.includes(MAINNET.WETH) && random() < 0.2);
      if (weth >= 0) next[weth] = rebalanced(next[weth]!, 90 + Math.floor(random() * 20));
      if (version % 2 === 0) next.splice(Math.floor(random() * next.length), 1);
      else {
        const missing = all.find((p) => !next.some((q) => q.id === p.id));
        if (missing)
          next.splice(
            next.findIndex((q) => q.id > missing.id),
            0,
            missing,
          );
      }
      pools = next;
      const input = versions.input(1, version, pools);
      deltas = input.deltas.length;
      const fresh = new RouterHost();
      const full = new PoolVersions().input(1, version, pools);
      for (const [a, b] of PAIRS) {
        for (const [kind, amount] of [['sell', 10n ** 18n]] as const) {
          const ours = await host.quote(task(input, a, b, kind, amount));
          const theirs = await fresh.quote(task(full, a, b, kind, amount));
          expect(JSON.stringify(ours.info)).toBe(JSON.stringify(theirs.info));
        }
      }
    }
    // Every version after the first travelled as a delta.
    expect(deltas).toBe(2);
  }, 120_000);

  test('a thread that joins late decodes the base and applies every delta since', async () => {
    let pools = storedPools();
    const versions = new PoolVersions();
    versions.input(1, 1, pools);
    pools = pools.map((p, k) => (k % 500 === 0 ? rebalanced(p, 80) : p));
    const input = versions.input(1, 2, pools);
    expect(input.deltas).toHaveLength(1);
    const late = await new RouterHost().quote(task(input, MAINNET.WETH, MAINNET.USDC, 'sell', 10n ** 19n));
    const fresh = await new RouterHost().quote(
      task(new PoolVersions().input(1, 2, pools), MAINNET.WETH, MAINNET.USDC, 'sell', 10n ** 19n),
    );
    expect(late.info.returnAmount).not.toBe('0');
    expect(JSON.stringify(late.info)).toBe(JSON.stringify(fresh.info));
  }, 60_000);

  test('a thread holding the last version crosses to a new base by its bridge and answers as a fresh thread', async () => {
    let pools = storedPools();
    const versions = new PoolVersions();
    const host = new RouterHost();
    const first = versions.input(1, 1, pools);
    await host.quote({ ...task(first, MAINNET.WETH, MAINNET.DAI, 'sell', 10n ** 18n), warmOnly: true });
    // A third of the pools move: too much for a delta, so the version is a new base.
    pools = pools.map((p, k) => (k % 3 === 0 ? rebalanced(p, 95) : p));
    const input = versions.input(1, 2, pools);
    expect(input.deltas).toHaveLength(0);
    expect(input.bridge?.from).toBe(first.key);
    const fresh = new PoolVersions().input(1, 2, pools);
    expect(fresh.bridge).toBeUndefined();
    // The new base, made of the routing forms kept for the pools that did not move, is byte for
    // byte what a service seeing these pools first encodes.
    expect(Buffer.from(new Uint8Array(input.base.data)).equals(Buffer.from(new Uint8Array(fresh.base.data)))).toBe(
      true,
    );
    for (const [a, b] of PAIRS) {
      const ours = await host.quote(task(input, a, b, 'sell', 10n ** 18n));
      const theirs = await new RouterHost().quote(task(fresh, a, b, 'sell', 10n ** 18n));
      expect(JSON.stringify(ours.info)).toBe(JSON.stringify(theirs.info));
    }
    // A thread that held the first version and got no task for the new base crosses by the bridge
    // the deltas on that base still carry.
    const skipper = new RouterHost();
    await skipper.quote({ ...task(first, MAINNET.WETH, MAINNET.DAI, 'sell', 10n ** 18n), warmOnly: true });
    pools = pools.map((p, k) => (k % 50 === 1 ? rebalanced(p, 98) : p));
    const third = versions.input(1, 3, pools);
    expect(third.deltas).toHaveLength(1);
    expect(third.bridge?.from).toBe(first.key);
    const freshThird = new PoolVersions().input(1, 3, pools);
    for (const [a, b] of PAIRS) {
      const ours = await skipper.quote(task(third, a, b, 'sell', 10n ** 18n));
      const theirs = await new RouterHost().quote(task(freshThird, a, b, 'sell', 10n ** 18n));
      expect(JSON.stringify(ours.info)).toBe(JSON.stringify(theirs.info));
    }
  }, 60_000);

  test('a version that changes most pools is sent whole', () => {
    const pools = storedPools();
    const versions = new PoolVersions();
    versions.input(1, 1, pools);
    const input = versions.input(
      1,
      2,
      pools.map((p) => rebalanced(p, 90)),
    );
    expect(input.deltas).toHaveLength(0);
    expect(input.base.key).toBe(input.key);
  });

  test("a V3 pool's change is no part of the V2 engine's delta (a V2 route never names a V3 pool)", () => {
    const pools = storedPools();
    const v3 = { ...pools[0]!, protocolVersion: 3 as const };
    const changed = rebalanced(v3, 90);
    expect(poolDelta([v3, pools[1]!], [changed, pools[1]!])).toEqual({ upserts: [], removed: [] });
    const v2Changed = rebalanced(pools[1]!, 90);
    expect(poolDelta([v3, pools[1]!], [changed, v2Changed]).upserts.map((p) => p.spec.id)).toEqual([pools[1]!.id]);
  });
});
