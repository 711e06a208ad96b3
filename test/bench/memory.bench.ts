import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqliteStore';
import { syntheticPools, syntheticTokens } from '../fakes/syntheticPools';
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
 *  - ROUTER_WORKERS (default 2) quote threads; BENCH_SECONDS (default 8) of quote load per row:
 *    distinct /sor requests (a few wei more each, so no cache answers), 8 in flight, spread over
 *    the row's chains.
 * Per row: RSS idle after start, RSS after the load, the peak, and the quotes a second. The last
 * line is a JSON object with every row. Target (three chains of 11,160 pools): at most 900 MiB
 * after the load, at the quote rate of one chain.
 */
const CHAIN_LISTS = (process.env.BENCH_MEMORY_CHAINS ?? '1;1,137,42161').split(';').map((s) => s.trim());
const POOL_COUNTS = (process.env.BENCH_MEMORY_POOLS ?? '0,3720,11160').split(',').map(Number);
const WORKERS = process.env.ROUTER_WORKERS ?? '2';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const IN_FLIGHT = 8;
const TOKENS = 64;
const TARGET_MIB = 900;
const ROOT = join(__dirname, '..', '..');

interface Row {
  readonly networks: string;
  readonly poolsPerChain: number;
  readonly idleMiB: number;
  readonly afterLoadMiB: number;
  readonly peakMiB: number;
  readonly quotesPerSecond: number;
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

/** Distinct /sor requests for `seconds`, `IN_FLIGHT` at once, chains in turn: answers a second (200s only). */
async function quoteLoad(server: ServerProcess, networks: readonly number[], seconds: number): Promise<number> {
  const rand = seededRandom(39);
  const tokens = new Map(networks.map((id) => [id, syntheticTokens({ seed: `memory-${id}`, tokenCount: TOKENS })]));
  let sent = 0;
  let answered = 0;
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        const chainId = networks[sent % networks.length]!;
        const list = tokens.get(chainId)!;
        const a = list[Math.floor(rand() * TOKENS)]!;
        let b = list[Math.floor(rand() * TOKENS)]!;
        while (b === a) b = list[Math.floor(rand() * TOKENS)]!;
        sent++;
        const res = await fetch(`${server.url}/sor/${chainId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            sellToken: a.address,
            buyToken: b.address,
            orderKind: rand() < 0.5 ? 'sell' : 'buy',
            amount: (10n ** BigInt(a.decimals) * BigInt(1 + Math.floor(rand() * 100)) + BigInt(sent)).toString(),
            gasPrice: '0',
          }),
        });
        await res.arrayBuffer();
        if (res.status === 200) answered++;
        else if (res.status >= 500) throw new Error(`/sor/${chainId} answered ${res.status}`);
      }
    }),
  );
  return (answered / (performance.now() - t0)) * 1000;
}

async function measure(networks: string, poolsPerChain: number): Promise<Row> {
  const ids = networks.split(',').map(Number);
  const dir = await seededDir(ids, poolsPerChain);
  const server = await startServerProcess(
    {
      NETWORKS: networks,
      DATA_DIR: dir,
      ROUTER_WORKERS: WORKERS,
      UPDATE_POOLS_INTERVAL_IN_MINUTES: '0',
      DECORATE_POOLS_INTERVAL_IN_MINUTES: '0',
      PRICE_INTERVAL_SECONDS: '0',
      RATE_LIMIT_READS_PER_MINUTE: '0',
      RATE_LIMIT_QUOTES_PER_MINUTE: '0',
      MIN_LIQUIDITY_USD: '0',
    },
    { compiled: true, readyTimeoutMs: 120_000 },
  );
  try {
    await sleep(2000);
    const idleMiB = server.rssMiB();
    // One unmeasured second: each thread builds its routers.
    if (poolsPerChain > 0) await quoteLoad(server, ids, 1);
    const quotesPerSecond = poolsPerChain > 0 ? await quoteLoad(server, ids, SECONDS) : 0;
    await sleep(1000);
    const row = {
      networks,
      poolsPerChain,
      idleMiB: Math.round(idleMiB),
      afterLoadMiB: Math.round(server.rssMiB()),
      peakMiB: Math.round(server.peakRssMiB()),
      quotesPerSecond: Math.round(quotesPerSecond),
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
    if (poolsPerChain > 0)
      figure(`${label}: /sor answers a second (${IN_FLIGHT} in flight)`, row.quotesPerSecond, '/s');
    return row;
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  process.stdout.write('building dist/ (npm run build) ...\n');
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join(ROOT, 'src')], { cwd: ROOT, stdio: 'inherit' });
  process.stdout.write(`${WORKERS} quote threads, ${SECONDS} s of quotes per row\n`);
  const rows: Row[] = [];
  for (const networks of CHAIN_LISTS) for (const pools of POOL_COUNTS) rows.push(await measure(networks, pools));
  process.stdout.write(`${JSON.stringify({ workers: Number(WORKERS), seconds: SECONDS, rows })}\n`);
}
