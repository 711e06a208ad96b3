import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devAccount } from '../../src/devnet/accounts';
import { DEVNET_CHAIN_ID, tokenBySymbol, type Devnet } from '../../src/devnet/devnet';
import { ensureDevnet } from '../../src/devnet/ensure';
import { serveChain } from '../../src/devnet/localChain';
import { startDevnetUpstreams } from '../../src/devnet/upstreams';
import { seededRandom } from '../e2e/helpers/randomOrders';
import type { E2eEnvironment } from '../e2e/helpers/e2eEnvironment';
import { approveAll, thirdPartyTrade } from '../e2e/helpers/follow';
import { figure } from './lib/report';
import { startServerProcess, type ServerProcess } from './lib/serverProcess';

/**
 * `npm run bench -- soak`: does the service's memory stay bounded while it follows a chain?
 *  - The demo chain (the devnet with Balancer V2 and V3, src/devnet/) served on loopback, its
 *    subgraphs and price endpoint (src/devnet/upstreams.ts), and the compiled service in its own
 *    process (`node dist/src/main.js`, built first) following the head over the node's WebSocket,
 *    with the pool update and the decoration every minute, as `npm run demo` runs it.
 *  - A third party's trade every 0.5 s (a Vault swap on a random V2 pool: one block each).
 *  - A mixed load from 6 clients all along: V2 `/sor`, V3 `/sor`, `/order` (either Vault),
 *    the GraphQL `pools` query and `GET /pools`, each request distinct (a few wei more).
 *  - BENCH_SERVICE_NODE_OPTIONS: the service's NODE_OPTIONS (a heap cap, say).
 *  - BENCH_SOAK_SNAPSHOT_MINUTES (e.g. `3,6`): a heap snapshot of the service's main thread at
 *    each of those minutes, written to a directory the run prints, with the command that compares
 *    them (`lib/heapCounts.ts`). Writing one costs RSS: the figures are then not the soak's.
 *  - BENCH_SOAK_MINUTES (default 10): the service's RSS every 30 s, then the slope of a
 *    least-squares line through the samples from minute 2 on (target: under 1 MiB a minute) and
 *    the RSS at the end against the RSS at minute 2 (target: within 10 %).
 * The last line is a JSON object `{slopeMiBPerMin, rssAt2MinMiB, rssEndMiB, ...}`.
 */
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
const SAMPLE_MS = Number(process.env.BENCH_SOAK_SAMPLE_SECONDS ?? 30) * 1000;
const TRADE_MS = 500;
const CLIENTS = 6;
const SETTLE_MINUTES = 2;
const ROOT = join(__dirname, '..', '..');
/** The third party that trades (a funded trader; the quote load's `/order` sender is another). */
const TRADER = 3;
const SENDER = 1;
const SNAPSHOT_MINUTES = (process.env.BENCH_SOAK_SNAPSHOT_MINUTES ?? '')
  .split(',')
  .filter((m) => m.trim() !== '')
  .map(Number);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The load's requests: [path, body or undefined for a GET], made distinct by `n`. */
type Ask = (n: number) => readonly [string, unknown];

function mix(devnet: Devnet): Ask[] {
  const t = (s: string) => tokenBySymbol(devnet, s);
  const units = (s: string, whole: bigint) => whole * 10n ** BigInt(t(s).decimals);
  const sor = (sell: string, buy: string, whole: bigint, extra: Record<string, unknown> = {}): Ask => {
    return (n) => [
      `/sor/${DEVNET_CHAIN_ID}`,
      {
        sellToken: t(sell).address,
        buyToken: t(buy).address,
        orderKind: n % 2 === 0 ? 'sell' : 'buy',
        amount: (units(n % 2 === 0 ? sell : buy, whole) + BigInt(n)).toString(),
        gasPrice: '0',
        ...extra,
      },
    ];
  };
  const order = (sell: string, buy: string, whole: bigint): Ask => {
    return (n) => [
      `/order/${DEVNET_CHAIN_ID}`,
      {
        sellToken: t(sell).address,
        buyToken: t(buy).address,
        orderKind: 'sell',
        amount: (units(sell, whole) + BigInt(n)).toString(),
        gasPrice: '0',
        sender: devAccount(SENDER).address,
        slippagePercentage: '0.01',
      },
    ];
  };
  const graphql: Ask = (n) => [
    '/graphql',
    {
      query: `query { pools(chainId: ${DEVNET_CHAIN_ID}, first: ${5 + (n % 10)}, orderBy: "totalLiquidity", orderDirection: "desc") { pools { id address poolType totalLiquidity tokens { address balance } } nextToken } }`,
    },
  ];
  return [
    sor('WETH', 'USDC', 1n),
    sor('USDC', 'DAI', 1_000n),
    sor('BAL', 'WETH', 100n),
    sor('WBTC', 'DAI', 1n),
    sor('WETH', 'USDC', 1n, { protocolVersion: 3 }),
    sor('USDC', 'DAI', 500n, { protocolVersion: 3 }),
    order('WETH', 'USDC', 1n),
    order('DAI', 'WETH', 2_000n),
    graphql,
    () => [`/pools/${DEVNET_CHAIN_ID}`, undefined],
  ];
}

interface Sample {
  readonly minute: number;
  readonly rssMiB: number;
}

/** Least-squares slope of RSS over minutes. */
function slope(samples: readonly Sample[]): number {
  const n = samples.length;
  if (n < 2) return NaN;
  const mx = samples.reduce((s, x) => s + x.minute, 0) / n;
  const my = samples.reduce((s, x) => s + x.rssMiB, 0) / n;
  let num = 0;
  let den = 0;
  for (const x of samples) {
    num += (x.minute - mx) * (x.rssMiB - my);
    den += (x.minute - mx) ** 2;
  }
  return num / den;
}

export async function run(): Promise<void> {
  process.stdout.write('building dist/ (npm run build) ...\n');
  execFileSync(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', join(ROOT, 'src')], { cwd: ROOT, stdio: 'inherit' });
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const chain = await serveChain('127.0.0.1', 0);
    closers.push(() => chain.close());
    const { devnet } = await ensureDevnet(chain.provider);
    const upstreams = await startDevnetUpstreams({ provider: chain.provider, devnet });
    closers.push(() => upstreams.close());
    const env = { chain, devnet } as unknown as E2eEnvironment;
    const wallet = devAccount(TRADER, chain.provider);
    await approveAll(
      env,
      wallet,
      devnet.tokens.map((x) => x.address),
    );

    const dataDir = mkdtempSync(join(tmpdir(), 'bps-bench-soak-'));
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    // Kept after the run: the snapshots are what it is for.
    const snapshotDir = SNAPSHOT_MINUTES.length > 0 ? mkdtempSync(join(tmpdir(), 'bps-soak-heap-')) : undefined;
    const nodeOptions = [
      process.env.BENCH_SERVICE_NODE_OPTIONS ?? '',
      snapshotDir ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${snapshotDir}` : '',
    ]
      .join(' ')
      .trim();
    const server: ServerProcess = await startServerProcess(
      {
        NETWORKS: String(DEVNET_CHAIN_ID),
        DATA_DIR: dataDir,
        STORE: 'sqlite',
        [`SUBGRAPH_URL_${DEVNET_CHAIN_ID}`]: upstreams.subgraphUrl,
        [`GAUGES_SUBGRAPH_URL_${DEVNET_CHAIN_ID}`]: upstreams.gaugesSubgraphUrl,
        [`SUBGRAPH_V3_URL_${DEVNET_CHAIN_ID}`]: upstreams.v3VaultSubgraphUrl,
        [`SUBGRAPH_V3_POOLS_URL_${DEVNET_CHAIN_ID}`]: upstreams.v3PoolsSubgraphUrl,
        [`RPC_URL_${DEVNET_CHAIN_ID}`]: chain.rpcUrl!.replace(/^http/, 'ws'),
        PRICE_API_URL: upstreams.priceApiUrl,
        FOLLOW_INTERVAL_MS: '250',
        UPDATE_POOLS_INTERVAL_IN_MINUTES: '1',
        DECORATE_POOLS_INTERVAL_IN_MINUTES: '1',
        RATE_LIMIT_READS_PER_MINUTE: '0',
        RATE_LIMIT_QUOTES_PER_MINUTE: '0',
        ...(process.env.ROUTER_WORKERS ? { ROUTER_WORKERS: process.env.ROUTER_WORKERS } : {}),
        ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      },
      { compiled: true, readyTimeoutMs: 180_000 },
    );
    closers.push(() => server.stop());
    // The first pool update fills the catalogue; the follower then serves the chain's state.
    const since = performance.now();
    for (;;) {
      const r = (await (await fetch(`${server.url}/readyz`)).json()) as {
        chains: { pools: number; follow: { serving?: string } | null }[];
      };
      if (r.chains[0]!.pools > 0 && r.chains[0]!.follow?.serving === 'chain') break;
      if (performance.now() - since > 180_000)
        throw new Error(`the service never served the chain: ${JSON.stringify(r)}`);
      await sleep(250);
    }

    const asks = mix(devnet);
    const status = new Map<string, number>();
    let stop = false;
    let n = 0;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (!stop) {
        const k = n++;
        const [path, body] = asks[k % asks.length]!(Math.floor(k / asks.length));
        const res = await fetch(
          `${server.url}${path}`,
          body === undefined
            ? {}
            : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        ).catch(() => undefined);
        await res?.arrayBuffer();
        const key = `${path.split('/')[1]} ${res?.status ?? 'error'}`;
        status.set(key, (status.get(key) ?? 0) + 1);
      }
    });
    const rand = seededRandom(42);
    let trades = 0;
    let failedTrades = 0;
    const trading = (async () => {
      while (!stop) {
        const due = performance.now() + TRADE_MS;
        try {
          await thirdPartyTrade(env, wallet, rand);
          trades++;
        } catch {
          failedTrades++;
        }
        if (due > performance.now()) await sleep(due - performance.now());
      }
    })();

    const start = performance.now();
    const samples: Sample[] = [];
    const sampleNow = () => {
      const s = { minute: (performance.now() - start) / 60_000, rssMiB: server.rssMiB() };
      samples.push(s);
      process.stdout.write(
        `${s.minute.toFixed(1).padStart(5)} min  RSS ${s.rssMiB.toFixed(0).padStart(5)} MiB  (${n} requests, ${trades} trades)\n`,
      );
    };
    const snapshots = SNAPSHOT_MINUTES.map((m) => {
      const t = setTimeout(() => {
        process.stdout.write(`${m.toFixed(1).padStart(5)} min  heap snapshot of the main thread asked\n`);
        server.child.kill('SIGUSR2');
      }, m * 60_000);
      closers.push(async () => clearTimeout(t));
      return t;
    });
    sampleNow();
    while (performance.now() - start < MINUTES * 60_000) {
      await sleep(Math.min(SAMPLE_MS, start + MINUTES * 60_000 - performance.now()));
      sampleNow();
    }
    stop = true;
    await Promise.all([...clients, trading]);
    for (const t of snapshots) clearTimeout(t);
    if (snapshotDir) {
      const files = readdirSync(snapshotDir)
        .filter((f) => f.endsWith('.heapsnapshot'))
        .sort()
        .map((f) => join(snapshotDir, f));
      process.stdout.write(
        `heap snapshots (the RSS after each is not the soak's): NODE_OPTIONS=--max-old-space-size=4096 npx tsx test/bench/lib/heapCounts.ts ${files.join(' ')}\n`,
      );
    }

    const settled = samples.filter((s) => s.minute >= SETTLE_MINUTES - 0.01);
    const at2 = settled[0] ?? samples[samples.length - 1]!;
    const end = samples[samples.length - 1]!;
    const slopeMiBPerMin = slope(settled);
    process.stdout.write(
      `requests by path and status: ${[...status]
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ')}\n`,
    );
    figure(`trades (one a ${TRADE_MS} ms, ${failedTrades} failed)`, trades, '');
    figure(`RSS slope from minute ${SETTLE_MINUTES} on`, slopeMiBPerMin, 'MiB/min', { op: '<', value: 1 });
    figure(`RSS at minute ${at2.minute.toFixed(1)}`, at2.rssMiB, 'MiB');
    figure('RSS at the end', end.rssMiB, 'MiB', { op: '<', value: Math.round(at2.rssMiB * 1.1) });
    figure('peak RSS', server.peakRssMiB(), 'MiB');
    process.stdout.write(
      `${JSON.stringify({
        slopeMiBPerMin: Number(slopeMiBPerMin.toFixed(2)),
        rssAt2MinMiB: Math.round(at2.rssMiB),
        rssEndMiB: Math.round(end.rssMiB),
        minutes: MINUTES,
        requests: n,
        trades,
      })}\n`,
    );
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
}
