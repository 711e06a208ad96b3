import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqliteStore';
import { syntheticPools, syntheticTokens, type SyntheticToken } from '../fakes/syntheticPools';
import { seedStore } from '../helpers/testServer';
import { seededRandom } from '../e2e/helpers/randomOrders';
import { figure } from './lib/report';
import { startServerProcess, type ServerProcess } from './lib/serverProcess';

/**
 * `npm run bench -- memory`: the compiled service's resident memory by chains x pools, as the
 * image runs it (`node dist/src/main.js`, built first), on a SQLite store seeded with synthetic
 * pools (test/fakes/syntheticPools.ts; subgraph state only, no node followed), after a quote load.
 *  - BENCH_MEMORY_CHAINS: the `NETWORKS` lists to measure (default `1;1,137,42161`, `;`-separated);
 *  - BENCH_MEMORY_POOLS: pools per chain (default `0,3720,11160`);
 *  - BENCH_SERVICE_NODE_OPTIONS: the service's NODE_OPTIONS (a `--require` probe, say);
 *  - ROUTER_WORKERS (default 2) quote threads, and ROUTER_THREAD_HEAP_MB when set: passed to the
 *    service;
 *  - BENCH_SECONDS (default 30) per load. Each load sends distinct /sor requests (a few wei more
 *    each, so no cache answers), 8 in flight, walking its pairs in chain turn, none twice before
 *    it wraps. A row runs two loads after `WARM_SECONDS` of the first, unmeasured:
 *    1. the rate: `RATE_PAIRS` pairs in all, an equal share from each of the row's chains. Every
 *       row asks as many distinct pairs; rows differ in the chains the service holds (each chain's
 *       catalogue has its own seed, of the same shape);
 *    2. the spread: every pair of every chain, as far as the load reaches, so that three chains
 *       leave three chains' candidate paths in the threads, as three chains' clients would.
 *    At least 30 s: the answer cache fills for 30 s (an answer's life, src/routing/quoteService.ts)
 *    and the main thread's heap grows between full collections, so a shorter load measures less
 *    than a service under steady load holds.
 * Per row: RSS idle after start, RSS after the loads, the peak, and both loads' quotes a second.
 * The last line is a JSON object with every row. Targets: three chains of 11,160 pools at most
 * 900 MiB after the loads; every row of several chains within 5 % of the rate of one chain at the
 * same pools per chain (the mean of the one-chain rows, as a list may hold one twice,
 * `1;1,137,42161;1`, to bracket the other in time on a VM whose speed drifts).
 */
const CHAIN_LISTS = (process.env.BENCH_MEMORY_CHAINS ?? '1;1,137,42161').split(';').map((s) => s.trim());
const POOL_COUNTS = (process.env.BENCH_MEMORY_POOLS ?? '0,3720,11160').split(',').map(Number);
const WORKERS = process.env.ROUTER_WORKERS ?? '2';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const IN_FLIGHT = 8;
const TOKENS = 64;
/** Distinct ordered pairs of the rate load, over all of a row's chains (a multiple of 1, 2 and 3). */
const RATE_PAIRS = 960;
/** Unmeasured load before the rate's: a thread's first quotes on a chain build its routers. */
const WARM_SECONDS = 10;
const TARGET_MIB = 900;
const ROOT = join(__dirname, '..', '..');

interface Row {
  readonly networks: string;
  readonly poolsPerChain: number;
  readonly idleMiB: number;
  readonly afterLoadMiB: number;
  readonly peakMiB: number;
  /** The rate load's answers a second (`RATE_PAIRS` pairs over the row's chains). */
  readonly quotesPerSecond: number;
  /** The spread load's answers a second, and the distinct pairs it reached. */
  readonly spreadQuotesPerSecond: number;
  readonly spreadPairs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seeds every chain of `networks` with `count` synthetic pools (each chain its own seed, as catalogues differ). */
async function seededDir(networks: readonly number[], count: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bps-bench-memory-'));
  const store = new SqliteStore(join(dir, 'balancer-pools.sqlite'), 0);
  for (const chainId of networks)
    if (count > 0) await seedStore(store, chainId, syntheticPools(count, { seed: `memory-${chainId}` }) as unknown[]);
  await store.close();
  return dir;
}

interface Pair {
  readonly chainId: number;
  readonly sell: SyntheticToken;
  readonly buy: SyntheticToken;
}

/** One chain's ordered token pairs, shuffled (seeded, so every run asks the same). */
function chainPairs(chainId: number): Pair[] {
  const list = syntheticTokens({ seed: `memory-${chainId}`, tokenCount: TOKENS });
  const pairs = list.flatMap((sell) => list.filter((buy) => buy !== sell).map((buy) => ({ chainId, sell, buy })));
  const rand = seededRandom(chainId);
  for (let i = pairs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
  }
  return pairs;
}

/**
 * Distinct pairs in chain turn: `perChain` from each chain (all of them when undefined), so a load
 * walking the list from its start asks every chain equally and no pair twice until it wraps.
 */
function pairsInTurn(networks: readonly number[], perChain?: number): Pair[] {
  const lists = networks.map((id) => chainPairs(id).slice(0, perChain));
  const length = Math.min(...lists.map((l) => l.length));
  if (perChain !== undefined && length < perChain)
    throw new Error(`${perChain} pairs per chain asked, but a chain of ${TOKENS} tokens has ${length}`);
  return Array.from(
    { length: length * networks.length },
    (_, i) => lists[i % networks.length]![Math.floor(i / networks.length)]!,
  );
}

/** Requests sent by every load of the run: each amount adds it, so no two loads ask alike. */
let requestSeq = 0;

/**
 * Distinct /sor requests walking `pairs` in order for `seconds`, `IN_FLIGHT` at once: answers a
 * second (200s only), and the pairs asked.
 */
async function quoteLoad(
  server: ServerProcess,
  pairs: readonly Pair[],
  seconds: number,
): Promise<{ perSecond: number; pairsAsked: number }> {
  const rand = seededRandom(39);
  let sent = 0;
  let answered = 0;
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        const { chainId, sell, buy } = pairs[sent % pairs.length]!;
        sent++;
        const res = await fetch(`${server.url}/sor/${chainId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            sellToken: sell.address,
            buyToken: buy.address,
            orderKind: rand() < 0.5 ? 'sell' : 'buy',
            amount: (
              10n ** BigInt(sell.decimals) * BigInt(1 + Math.floor(rand() * 100)) +
              BigInt(++requestSeq)
            ).toString(),
            gasPrice: '0',
          }),
        });
        await res.arrayBuffer();
        if (res.status === 200) answered++;
        else if (res.status >= 500) throw new Error(`/sor/${chainId} answered ${res.status}`);
      }
    }),
  );
  return { perSecond: (answered / (performance.now() - t0)) * 1000, pairsAsked: Math.min(sent, pairs.length) };
}

async function measure(networks: string, poolsPerChain: number): Promise<Row> {
  const ids = networks.split(',').map(Number);
  const dir = await seededDir(ids, poolsPerChain);
  const server = await startServerProcess(
    {
      NETWORKS: networks,
      DATA_DIR: dir,
      ROUTER_WORKERS: WORKERS,
      ...(process.env.ROUTER_THREAD_HEAP_MB ? { ROUTER_THREAD_HEAP_MB: process.env.ROUTER_THREAD_HEAP_MB } : {}),
      UPDATE_POOLS_INTERVAL_IN_MINUTES: '0',
      DECORATE_POOLS_INTERVAL_IN_MINUTES: '0',
      PRICE_INTERVAL_SECONDS: '0',
      RATE_LIMIT_READS_PER_MINUTE: '0',
      RATE_LIMIT_QUOTES_PER_MINUTE: '0',
      MIN_LIQUIDITY_USD: '0',
      ...(process.env.BENCH_SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVICE_NODE_OPTIONS } : {}),
    },
    { compiled: true, readyTimeoutMs: 120_000 },
  );
  try {
    await sleep(2000);
    const idleMiB = server.rssMiB();
    const all = pairsInTurn(ids);
    const ratePairs = pairsInTurn(ids, Math.floor(RATE_PAIRS / ids.length));
    const none = { perSecond: 0, pairsAsked: 0 };
    // Unmeasured: each thread builds each chain's routers, seconds per chain at 11,160 pools.
    if (poolsPerChain > 0) await quoteLoad(server, ratePairs, WARM_SECONDS);
    const rate = poolsPerChain > 0 ? await quoteLoad(server, ratePairs, SECONDS) : none;
    const spread = poolsPerChain > 0 ? await quoteLoad(server, all, SECONDS) : none;
    await sleep(1000);
    const row = {
      networks,
      poolsPerChain,
      idleMiB: Math.round(idleMiB),
      afterLoadMiB: Math.round(server.rssMiB()),
      peakMiB: Math.round(server.peakRssMiB()),
      quotesPerSecond: Math.round(rate.perSecond),
      spreadQuotesPerSecond: Math.round(spread.perSecond),
      spreadPairs: spread.pairsAsked,
    };
    const label = `${ids.length} x ${poolsPerChain.toLocaleString('en')}`;
    const big = ids.length === 3 && poolsPerChain >= 11_160;
    figure(`${label}: RSS idle`, row.idleMiB, 'MiB');
    figure(
      `${label}: RSS after the quote load`,
      row.afterLoadMiB,
      'MiB',
      big ? { op: '<', value: TARGET_MIB + 1 } : undefined,
    );
    figure(`${label}: peak RSS`, row.peakMiB, 'MiB');
    if (poolsPerChain > 0) {
      figure(`${label}: /sor answers a second, ${RATE_PAIRS} pairs in all`, row.quotesPerSecond, '/s');
      figure(`${label}: /sor answers a second, ${row.spreadPairs} pairs in all`, row.spreadQuotesPerSecond, '/s');
    }
    return row;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  process.stdout.write('building dist/ (npm run build) ...\n');
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join(ROOT, 'src')], { cwd: ROOT, stdio: 'inherit' });
  process.stdout.write(`${WORKERS} quote threads, two loads of ${SECONDS} s per row\n`);
  const rows: Row[] = [];
  for (const networks of CHAIN_LISTS) for (const pools of POOL_COUNTS) rows.push(await measure(networks, pools));
  for (const row of rows) {
    const ones = rows.filter((r) => !r.networks.includes(',') && r.poolsPerChain === row.poolsPerChain);
    const one = ones.reduce((sum, r) => sum + r.quotesPerSecond, 0) / Math.max(1, ones.length);
    if (!row.networks.includes(',') || one === 0) continue;
    figure(
      `${row.networks} / 1 chain x ${row.poolsPerChain.toLocaleString('en')}: answers a second`,
      row.quotesPerSecond / one,
      'x',
      { op: '>=', value: 0.95 },
    );
  }
  process.stdout.write(`${JSON.stringify({ workers: Number(WORKERS), seconds: SECONDS, rows })}\n`);
}
