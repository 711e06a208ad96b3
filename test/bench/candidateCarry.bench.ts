import { loadavg } from 'node:os';
import { normalizePool } from '../../src/domain/normalizePool';
import { specFromStoredPool } from '../../src/domain/poolTypes/poolSpec';
import { SwapEngine } from '../../src/domain/swap/engine';
import { buildModels } from '../../src/domain/swap/models';
import type { PoolModel, PoolSpec } from '../../src/domain/swap/poolModel';
import { seededRandom } from '../e2e/helpers/randomOrders';
import { syntheticPools, syntheticTokens } from '../fakes/syntheticPools';
import { toSpec, type SnapshotPool } from '../helpers/snapshotSpecs';
import { HAS_SNAPSHOT, loadSnapshotPools, MAINNET } from '../helpers/snapshot';
import { snapshotCopies } from '../helpers/snapshotCopies';
import { figure } from './lib/report';
import { QUOTE_CASES } from './quoteCases';

/**
 * `npm run bench -- candidateCarry`: what carrying the pairs' candidates to a new pool version
 * costs one quote thread, in CPU, apart from everything else a quote does
 * (src/domain/swap/candidateUpdates.ts).
 *  - Ten copies of the mainnet snapshot sharing its hubs (as `poolChurn`), joins and exits on as on
 *    mainnet; the pairs of the `poolChurn` mix (its requests, and the same with the tokens that are
 *    not hubs taken from copy 7). BENCH_UNIVERSE=synthetic: `quoteVersions`' 1,000 two-token pools
 *    over 40 tokens and its 22 pairs instead.
 *  - BENCH_VERSIONS (default 120) versions each changing k = 1 and 10 random pools (balances moved
 *    by a trade, the models rebuilt, every other model kept): per version, the engine derived from
 *    the last one, then every pair's candidates and two-hop variants asked once (what the first
 *    quotes after a version cost the thread that carries them).
 *  - CPU per version for each part, against asking every pair of an engine built from nothing.
 */
const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 120);
const KS = (process.env.BENCH_KS ?? '1,10').split(',').map(Number);
const COPY = 7;
const TIMESTAMP = 1_700_000_000;
const SYNTHETIC_TOKENS = 40;

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The same pool after a trade: its first balance up by up to 2 %, its second down as much. */
function traded(spec: PoolSpec, random: () => number): PoolSpec {
  const up = 1000n + BigInt(Math.floor(random() * 20));
  return {
    ...spec,
    tokens: spec.tokens.map((t, k) => {
      if (k > 1) return t;
      const [whole, frac = ''] = t.balance.split('.');
      const raw = BigInt(whole! + frac.padEnd(t.decimals, '0').slice(0, t.decimals));
      const next = k === 0 ? (raw * up) / 1000n : (raw * 1000n) / up;
      const s = next.toString().padStart(t.decimals + 1, '0');
      return { ...t, balance: t.decimals > 0 ? `${s.slice(0, -t.decimals)}.${s.slice(-t.decimals)}` : s };
    }),
  };
}

function pairsOfMix(): [string, string][] {
  const hubs = new Set<string>(Object.values(MAINNET));
  const prefix = COPY.toString(16).padStart(2, '0');
  const map = (a: string) => (hubs.has(a) ? a : `0x${prefix}${a.slice(4)}`);
  const seen = new Set<string>();
  const out: [string, string][] = [];
  for (const c of QUOTE_CASES)
    for (const [a, b] of [
      [c.sellToken, c.buyToken],
      [map(c.sellToken), map(c.buyToken)],
    ] as const) {
      if (seen.has(`${a}>${b}`)) continue;
      seen.add(`${a}>${b}`);
      out.push([a, b]);
    }
  return out;
}

/** The `quoteVersions` universe: synthetic two-token pools over a few tokens, and its 22 pairs. */
function synthetic(): { specs: PoolSpec[]; pairs: [string, string][] } {
  const tokens = syntheticTokens({ tokenCount: SYNTHETIC_TOKENS });
  const specs = syntheticPools(1000, { tokenCount: SYNTHETIC_TOKENS }).flatMap((p) => {
    const n = normalizePool(p as never);
    return n.ok ? [specFromStoredPool(n.pool)] : [];
  });
  const rand = seededRandom(5);
  const pairs = Array.from({ length: 22 }, (): [string, string] => {
    const a = Math.floor(rand() * SYNTHETIC_TOKENS);
    let b = Math.floor(rand() * SYNTHETIC_TOKENS);
    while (b === a) b = Math.floor(rand() * SYNTHETIC_TOKENS);
    return [tokens[a]!.address.toLowerCase(), tokens[b]!.address.toLowerCase()];
  });
  return { specs, pairs };
}

export async function run(): Promise<void> {
  const universe = process.env.BENCH_UNIVERSE ?? 'copies';
  if (universe === 'copies' && !HAS_SNAPSHOT) {
    process.stdout.write('no mainnet snapshot beside the repository: skipped\n');
    return;
  }
  const { specs, pairs } =
    universe === 'synthetic'
      ? synthetic()
      : { specs: snapshotCopies(loadSnapshotPools() as SnapshotPool[], 10).map(toSpec), pairs: pairsOfMix() };
  const random = seededRandom(11);
  let models: PoolModel[] = buildModels(specs, { timestamp: TIMESTAMP }).models;
  const byId = new Map(models.map((m, k) => [m.id, k]));
  const current = [...specs];
  const engineOf = (ms: readonly PoolModel[], previous?: SwapEngine) =>
    new SwapEngine(ms, undefined, { joinExit: true, ...(previous ? { previous } : {}) });
  const ask = (engine: SwapEngine) => {
    for (const [a, b] of pairs) {
      engine.candidates(a, b);
      engine.variants(a, b);
    }
  };
  let engine = engineOf(models);
  ask(engine);
  const scratch = () => {
    const c0 = cpuMs();
    ask(engineOf(models));
    return cpuMs() - c0;
  };
  scratch(); // JIT warm-up, not reported
  const fromNothing = scratch();
  for (const k of KS) {
    let derive = 0;
    let carry = 0;
    for (let v = 0; v < VERSIONS; v++) {
      models = [...models];
      for (let n = 0; n < k; n++) {
        const at = Math.floor(random() * current.length);
        current[at] = traded(current[at]!, random);
        const [model] = buildModels([current[at]!], { timestamp: TIMESTAMP }).models;
        const slot = byId.get(current[at]!.id);
        if (model && slot !== undefined) models[slot] = model;
      }
      const c0 = cpuMs();
      engine = engineOf(models, engine);
      const c1 = cpuMs();
      ask(engine);
      const c2 = cpuMs();
      // The first versions warm the JIT.
      if (v < 10) continue;
      derive += c1 - c0;
      carry += c2 - c1;
    }
    const n = VERSIONS - 10;
    figure(`k=${k}: deriving the engine, CPU per version`, derive / n, 'ms');
    figure(`k=${k}: carrying ${pairs.length} pairs' candidates, CPU per version`, carry / n, 'ms');
  }
  figure(`the same pairs searched from nothing`, fromNothing, 'ms');
  process.stdout.write(
    `${universe}: ${models.length} models, ${pairs.length} pairs (candidates and two-hop variants); load average ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}\n`,
  );
}
