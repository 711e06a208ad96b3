import { SwapEngine } from '../../../src/domain/swap/engine';
import { PoolGraph } from '../../../src/domain/swap/graph';
import { buildModels } from '../../../src/domain/swap/models';
import type { PoolModel, PoolSpec } from '../../../src/domain/swap/poolModel';
import { describeWithSnapshot, MAINNET } from '../../helpers/snapshot';
import { snapshotPools, toSpec } from '../../helpers/snapshotSpecs';

/**
 * A pool version that changes a few pools derives its graph from the last one (graph.ts
 * `withChanges`) instead of building it over the whole universe. A user must not be able to tell:
 * the derived graph ranks every pair exactly as a graph built from nothing over the same pools,
 * the graph it came from is left as it was (a quote still running on the old version sees the old
 * pools), and the engine over it quotes the same routes to the wei.
 */

/** Every pair's ranked pools, as the path search reads them. */
function shape(graph: PoolGraph, tokens: readonly string[]): string[] {
  const out: string[] = [];
  for (const from of tokens) {
    if (!graph.has(from)) continue;
    out.push(`${from} has`);
    for (const [kind, next] of [
      ['through', graph.next(from)],
      ['ends', graph.lbpNext(from)],
    ] as const) {
      for (const to of [...next.keys()].sort()) {
        const hops = next.get(to)!.map((e) => `${e.hop.pool.id}:${e.hop.i}:${e.hop.j}:${e.depth}`);
        out.push(`${kind} ${from}>${to} ${hops.join(',')}`);
      }
    }
  }
  return out;
}

/** The same pool with every balance scaled by `num / den` (a trade moved it). */
function moved(spec: PoolSpec, num: bigint, den: bigint): PoolSpec {
  return {
    ...spec,
    tokens: spec.tokens.map((t) => {
      const [whole, frac = ''] = t.balance.split('.');
      const digits = frac.padEnd(t.decimals, '0').slice(0, t.decimals);
      const raw = (BigInt(whole! + digits) * num) / den;
      const s = raw.toString().padStart(t.decimals + 1, '0');
      return { ...t, balance: t.decimals > 0 ? `${s.slice(0, -t.decimals)}.${s.slice(-t.decimals)}` : s };
    }),
  };
}

function modelsOf(specs: readonly PoolSpec[]): PoolModel[] {
  return buildModels(specs, { timestamp: 1_700_000_000 }).models;
}

describeWithSnapshot('graph of a new pool version derived from the last', () => {
  const specs = snapshotPools(() => true).map(toSpec);
  const before = modelsOf(specs);
  const tokens = [...new Set(before.flatMap((m) => [...m.tokens, m.address]))].sort();

  /** Changes a few pools (every 37th), removes a few (every 53rd) and adds back one removed earlier. */
  function nextVersion(models: readonly PoolModel[]): {
    models: PoolModel[];
    removed: PoolModel[];
    added: PoolModel[];
  } {
    const removed: PoolModel[] = [];
    const added: PoolModel[] = [];
    const out: PoolModel[] = [];
    models.forEach((m, k) => {
      if (k % 53 === 7) {
        removed.push(m);
        return;
      }
      if (k % 37 === 3) {
        const spec = specs.find((s) => s.id === m.id)!;
        const [again] = modelsOf([moved(spec, 97n + BigInt(k % 7), 100n)]);
        removed.push(m);
        if (again) {
          added.push(again);
          out.push(again);
        }
        return;
      }
      out.push(m);
    });
    return { models: out, removed, added };
  }

  test('ranks every pair as a graph built from nothing, and leaves the graph it came from as it was', () => {
    const old = PoolGraph.build(before);
    const oldShape = shape(old, tokens);
    expect(old.bptTokens.length).toBeGreaterThan(0);
    const change = nextVersion(before);
    expect(change.removed.length).toBeGreaterThan(10);
    const derived = old.withChanges(change.removed, change.added);
    const fresh = PoolGraph.build(change.models);
    expect(shape(derived, tokens)).toEqual(shape(fresh, tokens));
    expect([...derived.bpts].sort()).toEqual([...fresh.bpts].sort());
    // The BPTs a path leaves from (a four-hop path's middle), derived from the old graph's.
    expect([...derived.bptTokens].sort()).toEqual([...fresh.bptTokens].sort());
    // Something did change, and the old graph still shows the old pools.
    expect(shape(derived, tokens)).not.toEqual(oldShape);
    expect(shape(old, tokens)).toEqual(oldShape);
    // And back: the removed pools return, the changed ones revert.
    const back = derived.withChanges(change.added, change.removed);
    expect(shape(back, tokens)).toEqual(oldShape);
    expect([...back.bptTokens].sort()).toEqual([...old.bptTokens].sort());
  });

  test('an engine derived from the last version quotes what an engine built from nothing quotes', () => {
    const change = nextVersion(before);
    const previous = new SwapEngine(before);
    const derived = new SwapEngine(change.models, undefined, { previous });
    const fresh = new SwapEngine(change.models);
    const addresses: string[] = Object.values(MAINNET);
    let routed = 0;
    for (const tokenIn of addresses) {
      for (const tokenOut of addresses) {
        if (tokenIn === tokenOut) continue;
        const req = {
          tokenIn,
          tokenOut,
          kind: 'sell' as const,
          amount: 10n ** BigInt(fresh.graph.decimals.get(tokenIn) ?? 18),
          gasPerSwap: () => 0n,
        };
        const a = derived.route(req);
        const b = fresh.route(req);
        expect(a?.returnAmount).toEqual(b?.returnAmount);
        expect(a?.paths.map((p) => p.path.map((h) => h.pool.id))).toEqual(
          b?.paths.map((p) => p.path.map((h) => h.pool.id)),
        );
        if (a) routed++;
      }
    }
    expect(routed).toBeGreaterThan(20);
  });
});
