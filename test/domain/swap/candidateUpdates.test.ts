import { SwapEngine } from '../../../src/domain/swap/engine';
import { buildModels } from '../../../src/domain/swap/models';
import type { PoolModel, PoolSpec } from '../../../src/domain/swap/poolModel';
import { MAX_CANDIDATES, type Candidate } from '../../../src/domain/swap/candidates';
import { rankedFrom, RESERVE, TouchedPairs, updateRanked } from '../../../src/domain/swap/candidateUpdates';
import { seededRandom } from '../../e2e/helpers/randomOrders';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../../helpers/snapshot';
import { snapshotCopies } from '../../helpers/snapshotCopies';
import { toSpec, type SnapshotPool } from '../../helpers/snapshotSpecs';

/**
 * A pair's candidate paths outlive a pool version that cannot change them (candidateUpdates.ts):
 * an engine derived from the last one carries each pair's list across the changed pools. A user
 * must not be able to tell: after any sequence of changes (balances moved, pools gone and back,
 * the quote timestamp moved, a pair left unasked for several versions, an older version asked
 * after a newer one, two versions derived from the same one), every pair's candidates, its
 * two-hop variants and its routes are those of an engine built from nothing over the same pools.
 */

const TIMESTAMP = 1_700_000_000;

/**
 * The same pool with each balance scaled by its own factor, 0.8 to 1.2 (trades moved it, and its
 * prices), or with `small` 0.99 to 1.01 (one trade: a crowded pair's order of pools mostly holds).
 */
function moved(spec: PoolSpec, random: () => number, small: boolean): PoolSpec {
  return {
    ...spec,
    tokens: spec.tokens.map((t) => {
      const [whole, frac = ''] = t.balance.split('.');
      const digits = frac.padEnd(t.decimals, '0').slice(0, t.decimals);
      const [factor, scale] = small
        ? [990n + BigInt(Math.floor(random() * 20)), 1000n]
        : [80n + BigInt(Math.floor(random() * 40)), 100n];
      const raw = (BigInt(whole! + digits) * factor) / scale;
      const s = raw.toString().padStart(t.decimals + 1, '0');
      return { ...t, balance: t.decimals > 0 ? `${s.slice(0, -t.decimals)}.${s.slice(-t.decimals)}` : s };
    }),
  };
}

/** What a quote reads of a candidate list: its paths (pools and token indexes) with their scores. */
function shape(list: readonly Candidate[]): string[] {
  return list.map((c) => `${c.path.map((h) => `${h.pool.id}:${h.i}:${h.j}`).join('/')} ${c.spot} ${c.depth}`);
}

interface Version {
  readonly specs: PoolSpec[];
  readonly models: PoolModel[];
  readonly timestamp: number;
}

/** How often a run's versions moved the timestamp, dropped a pool, brought one back. */
interface Events {
  timeMoved: number;
  poolGone: number;
  poolBack: number;
}

/**
 * The next version: a few pools' balances moved (their models rebuilt, every other model kept, as
 * the router does), now and then a pool gone or back, or the timestamp moved (time-dependent
 * models rebuilt).
 */
function nextVersion(
  v: Version,
  all: readonly PoolSpec[],
  random: () => number,
  gone: Set<string>,
  small: boolean,
  events: Events,
): Version {
  const specs = [...v.specs];
  const models = [...v.models];
  const byId = new Map(models.map((m, k) => [m.id, k]));
  const changes = 1 + Math.floor(random() * 4);
  for (let n = 0; n < changes; n++) {
    const k = Math.floor(random() * specs.length);
    const spec = moved(specs[k]!, random, small);
    specs[k] = spec;
    const at = byId.get(spec.id);
    const [model] = buildModels([spec], { timestamp: v.timestamp }).models;
    if (at !== undefined && model) models[at] = model;
  }
  let timestamp = v.timestamp;
  if (random() < 0.15) {
    events.timeMoved++;
    timestamp += 3600 * 24 * 30;
    const timed = buildModels(
      specs.filter((s) => s.poolType === 'Element'),
      { timestamp },
    ).models;
    const byTimedId = new Map(timed.map((m) => [m.id, m]));
    models.forEach((m, k) => (models[k] = byTimedId.get(m.id) ?? m));
  }
  let out = models;
  if (random() < 0.08) {
    const victim = models[Math.floor(random() * models.length)]!;
    gone.add(victim.id);
    events.poolGone++;
    out = models.filter((m) => m !== victim);
  } else if (gone.size > 0 && random() < 0.1) {
    const back = [...gone][0]!;
    gone.delete(back);
    events.poolBack++;
    const spec = specs.find((s) => s.id === back) ?? all.find((s) => s.id === back)!;
    out = [...models, ...buildModels([spec], { timestamp }).models];
  }
  return { specs, models: out, timestamp };
}

function check(
  label: string,
  derived: SwapEngine,
  fresh: SwapEngine,
  pairs: readonly (readonly [string, string])[],
  routes: boolean,
): number {
  let routed = 0;
  for (const [tokenIn, tokenOut] of pairs) {
    expect([label, shape(derived.candidates(tokenIn, tokenOut))]).toEqual([
      label,
      shape(fresh.candidates(tokenIn, tokenOut)),
    ]);
    expect([label, shape(derived.variants(tokenIn, tokenOut))]).toEqual([
      label,
      shape(fresh.variants(tokenIn, tokenOut)),
    ]);
    if (!routes) continue;
    for (const kind of ['sell', 'buy'] as const) {
      const decimals = fresh.graph.decimals.get(kind === 'sell' ? tokenIn : tokenOut) ?? 18;
      const req = { tokenIn, tokenOut, kind, amount: 3n * 10n ** BigInt(decimals), gasPerSwap: () => 0n };
      const a = derived.route(req);
      const b = fresh.route(req);
      expect([label, a?.returnAmount, a?.paths.map((p) => [p.given, p.path.map((h) => h.pool.id)])]).toEqual([
        label,
        b?.returnAmount,
        b?.paths.map((p) => [p.given, p.path.map((h) => h.pool.id)]),
      ]);
      if (a) routed++;
    }
  }
  return routed;
}

/**
 * `versions` versions of `copies` copies of the snapshot from `seed`; returns the events the run
 * crossed, which each test asserts so a new seed or count cannot silently drop one.
 */
function suite(copies: number, versions: number, seed: number, joinExit: boolean, small = false): Events {
  const raw = snapshotCopies(loadSnapshotPools() as SnapshotPool[], copies);
  const all = raw.map(toSpec);
  const hubs: string[] = Object.values(MAINNET);
  const random = seededRandom(seed);
  const events: Events = { timeMoved: 0, poolGone: 0, poolBack: 0 };
  // Hub pairs, a hub and a copied token, copied tokens (one pool apart or further), BPTs.
  const tokens = [...new Set(all.flatMap((s) => s.tokens.map((t) => t.address.toLowerCase())))].sort();
  const bpts = all.map((s) => s.address.toLowerCase()).filter((a) => tokens.includes(a));
  const pick = (xs: readonly string[]) => xs[Math.floor(random() * xs.length)]!;
  const pairs: [string, string][] = [];
  for (const a of hubs) for (const b of hubs) if (a !== b) pairs.push([a, b]);
  for (let n = 0; n < 16; n++) pairs.push([pick(tokens), pick(hubs)], [pick(hubs), pick(tokens)]);
  for (let n = 0; n < 12; n++) pairs.push([pick(tokens), pick(tokens)]);
  for (let n = 0; n < 6; n++) pairs.push([pick(bpts), pick(hubs)], [pick(hubs), pick(bpts)]);
  const engineOf = (models: readonly PoolModel[], previous?: SwapEngine) =>
    new SwapEngine(models, undefined, { joinExit, ...(previous ? { previous } : {}) });

  let version: Version = {
    specs: all,
    models: buildModels(all, { timestamp: TIMESTAMP }).models,
    timestamp: TIMESTAMP,
  };
  let derived = engineOf(version.models);
  check('first version', derived, derived, pairs, false);
  const gone = new Set<string>();
  let routed = 0;
  for (let v = 1; v <= versions; v++) {
    const before = { version, derived };
    version = nextVersion(version, all, random, gone, small, events);
    derived = engineOf(version.models, derived);
    const fresh = engineOf(version.models);
    // Some pairs are asked at every version, the others now and then (carried across several).
    const asked = pairs.filter((_, k) => k < 20 || random() < 0.3);
    routed += check(`version ${v}`, derived, fresh, asked, v % 3 === 0);
    if (v % 4 === 0) {
      // A quote on the version before arrives after the new one was asked.
      check(`version ${v - 1} after ${v}`, before.derived, engineOf(before.version.models), asked.slice(0, 12), false);
    }
    if (v % 8 === 2) {
      // Built ahead (V3's next block): an engine of a later version carries the pairs asked on
      // this one, whose own quotes stay its answers; the versions after derive from that engine.
      const ahead = nextVersion(version, all, random, gone, small, events);
      const aheadEngine = engineOf(ahead.models, derived);
      let slices = 0;
      while (!aheadEngine.carryFrom(derived, () => true)) slices++;
      expect(slices).toBeGreaterThan(0);
      check(`version ${v} after carrying ahead`, derived, fresh, asked.slice(0, 12), false);
      check(`carried ahead of version ${v}`, aheadEngine, engineOf(ahead.models), asked.slice(0, 12), false);
      version = ahead;
      derived = aheadEngine;
    }
    if (v % 5 === 0) {
      // Two versions derived from the same one: each carries its own changes.
      const other = nextVersion(before.version, all, random, new Set(), small, events);
      check(
        `branch beside version ${v}`,
        engineOf(other.models, before.derived),
        engineOf(other.models),
        asked.slice(0, 12),
        false,
      );
    }
  }
  expect(routed).toBeGreaterThan(20);
  return events;
}

const crossed = (events: Events) =>
  Object.entries(events)
    .filter(([, n]) => n > 0)
    .map(([e]) => e);

describeWithSnapshot('candidate paths carried across pool versions', () => {
  // Seeds chosen so each run crosses its events within its versions (checked below).
  test('the mainnet snapshot: every pair as an engine from nothing, over 10 versions', () => {
    expect(crossed(suite(1, 10, 14, false))).toEqual(['timeMoved', 'poolGone', 'poolBack']);
  });

  test('the mainnet snapshot, one trade a pool (most change no best pool, many none of the best few): as from nothing over 10 versions', () => {
    expect(crossed(suite(1, 10, 12, false, true))).toEqual(['timeMoved', 'poolGone', 'poolBack']);
  });

  test('four copies sharing the hubs (1,488 pools), joins and exits on: as from nothing over 5 versions', () => {
    expect(crossed(suite(4, 5, 34, true))).toEqual(['timeMoved', 'poolGone']);
  });
});

describe('a cut ranking carried across a change', () => {
  /** A one-hop candidate through pool `k` (its own token pair) at `spot`. */
  const pools = Array.from({ length: 1500 }, (_, k) => ({ id: `p${k}`, tokens: [`a${k}`, `b${k}`] }));
  const candidate = (k: number, spot: number): Candidate =>
    ({ path: [{ pool: pools[k]!, i: 0, j: 1 }], spot, depth: 1 }) as unknown as Candidate;

  test("keeps the new ranking's start exactly, or asks for a search when too little of it is known", () => {
    const random = seededRandom(17);
    let carried = 0;
    let searched = 0;
    for (let trial = 0; trial < 200; trial++) {
      const spots = pools.map(() => random());
      const before = rankedFrom(pools.map((_, k) => candidate(k, spots[k]!)));
      expect(before.complete).toBe(false);
      expect(before.ranked).toHaveLength(MAX_CANDIDATES + RESERVE);
      // Some pools move: any of them to any price, or (odd trials) leaders to prices behind every other pool.
      const moved = new Set<number>();
      const count = 1 + Math.floor(random() * (trial % 2 === 0 ? 20 : 400));
      const leaders = before.ranked.map((c) => Number(c.path[0]!.pool.id.slice(1)));
      while (moved.size < count)
        moved.add(
          trial % 2 === 0 ? Math.floor(random() * pools.length) : leaders[Math.floor(random() * leaders.length)]!,
        );
      for (const k of moved) spots[k] = trial % 2 === 0 ? random() : 1 + random();
      const touched = new TouchedPairs([...moved].map((k) => pools[k]! as never));
      const fresh = [...moved].map((k) => candidate(k, spots[k]!));
      const after = updateRanked(before, touched.pathFate, fresh);
      const expected = rankedFrom(pools.map((_, k) => candidate(k, spots[k]!)));
      if (after === undefined) {
        searched++;
        continue;
      }
      carried++;
      const ids = (list: readonly Candidate[]) => list.map((c) => `${c.path[0]!.pool.id} ${c.spot}`);
      expect(ids(after.list)).toEqual(ids(expected.list));
      expect(ids(after.ranked)).toEqual(ids(expected.ranked.slice(0, after.ranked.length)));
    }
    expect(carried).toBeGreaterThan(20);
    expect(searched).toBeGreaterThan(5);
  });
});
