import { cpus, loadavg } from 'node:os';
import { chainById } from '../../src/config/chains';
import { normalizePool } from '../../src/domain/normalizePool';
import type { StoredPool } from '../../src/domain/pool';
import { silentLogger } from '../../src/log/logger';
import type { ChainSnapshot } from '../../src/readModel/chainSnapshot';
import { createExecutor } from '../../src/routing/quoteExecutor';
import { QuoteService } from '../../src/routing/quoteService';
import { syntheticPools, syntheticTokens } from '../fakes/syntheticPools';
import { seededRandom } from '../e2e/helpers/randomOrders';
import { figure } from './lib/report';

/**
 * `npm run bench -- quoteVersions`: what new pool versions cost the quote threads, in CPU, apart
 * from the node, HTTP and the follower (the `follow` benchmark has them all, and on a shared
 * machine its rates mostly measure the CPU the other processes leave).
 *  - BENCH_POOLS (1,000) synthetic pools over BENCH_TOKENS (40) tokens; the quote service and its
 *    worker threads (ROUTER_WORKERS, default 2) as the service runs them, quote cache off.
 *  - A closed-loop load of distinct quotes (8 in flight, 22 pairs sold and bought, a few wei more
 *    each round) all along; stretches of BENCH_SECONDS (6) without new versions, then with a
 *    version every 250 ms changing k = 1 and 10 random pools (each warmed, as the service warms
 *    a new snapshot), each between stretches without.
 *  - The process's CPU per answer in each stretch (all threads: what the load costs, whatever
 *    share of the cores the machine leaves), and the answers/s the stretch with versions would
 *    keep at the CPU of the stretches beside it (target >= 80 %).
 */
const POOLS = Number(process.env.BENCH_POOLS ?? 1000);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 40);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WORKERS = Number(process.env.ROUTER_WORKERS ?? 2);
const KS = (process.env.BENCH_KS ?? '1,10').split(',').map(Number);
const IN_FLIGHT = 8;
const VERSION_MS = 250;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f1 = (n: number) => n.toFixed(1);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export async function run(): Promise<void> {
  const chain = chainById(1)!;
  const tokens = syntheticTokens({ tokenCount: TOKENS });
  let pools: StoredPool[] = syntheticPools(POOLS, { tokenCount: TOKENS })
    .flatMap((p) => {
      const n = normalizePool(p as never);
      return n.ok ? [n.pool] : [];
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let version = 1;
  const snapshot = () =>
    ({ chainId: chain.id, poolsVersion: version, pools, tokens: [], tokensVersion: 1 }) as unknown as ChainSnapshot;
  let snap = snapshot();
  const executor = createExecutor(WORKERS);
  const quotes = new QuoteService({ executor, logger: silentLogger(), now: () => 1_700_000_000_000, cacheSize: 0 });
  const rand = seededRandom(5);
  const pairs = Array.from({ length: 22 }, () => {
    const a = Math.floor(rand() * TOKENS);
    let b = Math.floor(rand() * TOKENS);
    while (b === a) b = Math.floor(rand() * TOKENS);
    return [tokens[a]!, tokens[b]!] as const;
  });
  const mix = pairs.flatMap(([a, b]) => [
    { sellToken: a.address, buyToken: b.address, orderKind: 'sell' as const, unit: 10n ** BigInt(a.decimals) },
    { sellToken: a.address, buyToken: b.address, orderKind: 'buy' as const, unit: 10n ** BigInt(b.decimals) },
  ]);
  const ask = (i: number) => {
    const q = mix[i % mix.length]!;
    const round = BigInt(Math.floor(i / mix.length));
    return quotes.quote(chain, snap, {
      sellToken: q.sellToken,
      buyToken: q.buyToken,
      orderKind: q.orderKind,
      amount: q.unit * (1n + (round % 5n)) + round,
      gasPrice: 0n,
      minLiquidityUsd: 0,
    });
  };
  await quotes.warm(chain, snap, 0);
  for (let i = 0; i < mix.length * WORKERS; i++) await ask(i);

  let answered = 0;
  let next = 0;
  let stop = false;
  const load = Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (!stop) {
        await ask(next++);
        answered++;
      }
    }),
  );
  const stretch = async (k: number | undefined) => {
    const a0 = answered;
    const c0 = cpuMs();
    const t0 = performance.now();
    while (performance.now() - t0 < SECONDS * 1000) {
      if (k === undefined) {
        await sleep(100);
        continue;
      }
      const due = performance.now() + VERSION_MS;
      pools = [...pools];
      for (let c = 0; c < k; c++) {
        const at = Math.floor(rand() * pools.length);
        const p = pools[at]!;
        // The leading digit of every balance moves (a trade's size does not matter to what a version costs).
        pools[at] = {
          ...p,
          tokens: p.tokens.map((t) => ({
            ...t,
            balance: t.balance.replace(/^(\d)/, (d) => String((Number(d) % 9) + 1)),
          })),
        } as StoredPool;
      }
      version++;
      snap = snapshot();
      void quotes.warm(chain, snap, 0);
      await sleep(Math.max(0, due - performance.now()));
    }
    const seconds = (performance.now() - t0) / 1000;
    const n = answered - a0;
    return { rate: n / seconds, cpuPerAnswer: (cpuMs() - c0) / Math.max(1, n), cores: (cpuMs() - c0) / 1000 / seconds };
  };
  const report = (name: string, s: { rate: number; cpuPerAnswer: number; cores: number }) =>
    process.stdout.write(
      `${name}: ${f1(s.rate)} answers/s, CPU ${f1(s.cpuPerAnswer)} ms per answer (${f1(100 * s.cores)} % of one core)\n`,
    );
  await stretch(undefined); // JIT warm-up, not reported
  let before = await stretch(undefined);
  report('no versions', before);
  for (const k of KS) {
    const during = await stretch(k);
    report(`a version every ${VERSION_MS} ms changing ${k} pools`, during);
    const after = await stretch(undefined);
    report('no versions', after);
    const idle = (before.cpuPerAnswer + after.cpuPerAnswer) / 2;
    figure(`k=${k}: CPU per answer with versions / without`, during.cpuPerAnswer / idle, 'x');
    figure(`k=${k}: rate kept at equal CPU`, (100 * idle) / during.cpuPerAnswer, '%', { op: '>=', value: 80 });
    before = after;
  }
  stop = true;
  await load;
  await executor.close();
  process.stdout.write(
    `${pools.length} pools, ${TOKENS} tokens, ${WORKERS} quote threads; load average at the end ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${cpus().length} CPUs\n`,
  );
}
