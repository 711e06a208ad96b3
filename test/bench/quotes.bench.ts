import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { SOR, SwapTypes, type SubgraphPoolBase } from '@balancer-labs/sor';
import { BigNumber } from '@ethersproject/bignumber';
import type { Provider } from '@ethersproject/providers';
import autocannon from 'autocannon';
import { chainById } from '../../src/config/chains';
import { normalizePool } from '../../src/domain/normalizePool';
import { carryDecoration, emptyMeta, type StoredPool } from '../../src/domain/pool';
import { ChainSnapshot } from '../../src/readModel/chainSnapshot';
import { V3Router } from '../../src/routing/v3/v3Router';
import { v3QuoteTime } from '../../src/routing/v3/quoteTime';
import { aboveLiquidityFloor, toRoutingPools } from '../../src/routing/v2/routingPools';
import { toSorPool } from '../../src/routing/v2/sorPools';
import { sorConfigFor } from '../../src/routing/v2/sorConfig';
import { formatUnits } from 'ethers';
import { QUOTE_CASES, TOKENS, type QuoteCase } from './quoteCases';
import { COW_QUERY, SDK_SOR_QUERY_WITH_VERSION } from '../graphql/currentApiDocuments';
import { V3_QUOTE_CASES, V3_SHARED_CASES, v3BenchChainState } from './v3QuoteUniverse';
import { SNAPSHOT_FILE as SNAPSHOT } from '../helpers/snapshot';
import { snapshotInput } from '../helpers/v3StoredUniverse';

/**
 * `npm run bench -- quotes`: the fixed 44-request mix on the mainnet snapshot, all in one run.
 *  - the deprecated API's pattern in-process (`new SOR`, `fetchPools()`, `getSwaps()` per
 *    request, one at a time), and a warm long-lived in-process SOR (one instance, path cache warm);
 *  - /sor over HTTP, 8 concurrent connections, distinct requests (quote cache defeated by a
 *    different wei amount each round): answers/s, p50/p99, CPU ms per quote, server RSS, and the
 *    ratios to both SOR patterns; the same for the service with `ROUTER_ENGINE=sor`;
 *  - repeated requests (cache hits) and `GET /healthz` latency while /sor is saturated;
 *  - GraphQL's `sorGetSwapPaths` (the current Balancer API's query) on the same mix and server,
 *    distinct requests: the SDK's document with useProtocolVersion 2 (the same V2 quote as /sor)
 *    and CoW's document (the better of both Vaults), with the ratio to /sor's distinct rate;
 *  - the V3 mix (`v3QuoteUniverse.ts`: Weighted, Stable, E-CLP, boosted paths through buffers, laid
 *    over the same snapshot): /sor protocolVersion 3 and /order without protocolVersion (better
 *    of both Vaults) beside /order protocolVersion 2 on the same pairs, distinct requests, 8
 *    connections, with ratios to the V2 /sor mix of the same run; `GET /healthz` while V3 /sor is
 *    saturated; and one V3 quote's time on the calling thread (what it blocks the event loop for).
 * Env: ROUTER_WORKERS (default: the service's default, one per core), BENCH_ROUNDS (distinct
 * rounds, default 20: 880 quotes, about two seconds; with a few rounds the window is a fraction of a
 * second and the rate swings with whatever else the machine does), BENCH_SECONDS (default 10).
 */

const CONNECTIONS = 8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(ms: number[]): { p50: number; p90: number; p99: number; n: number } {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: pct(s, 50), p90: pct(s, 90), p99: pct(s, 99), n: s.length };
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : 'n/a');

/** A case made distinct for round `r` (a few wei more), so no quote cache can answer it. */
function distinct(c: QuoteCase, r: number): QuoteCase {
  return { ...c, amount: (BigInt(c.amount) + BigInt(r)).toString() };
}

async function startServer(engine: 'own' | 'sor'): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [...process.execArgv, join(__dirname, 'quoteServer.ts')], {
    env: { ...process.env, ROUTER_ENGINE: engine },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /READY (\S+)/.exec(buf);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`quote server exited with ${code}`)));
  });
  return { url, child };
}

const slowest: { ms: number; name: string }[] = [];

async function postSor(url: string, c: QuoteCase): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}/sor/1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(c),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`/sor answered ${res.status}`);
  const ms = performance.now() - t;
  slowest.push({ ms, name: c.name });
  slowest.sort((a, b) => b.ms - a.ms).splice(3);
  return ms;
}

/** A V3-mix request to `path` (`/sor` or `/order`); throws unless 200. */
async function postV3Mix(url: string, path: string, body: Record<string, unknown>): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}${path}/1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return performance.now() - t;
}

const SENDER = '0x1111111111111111111111111111111111111111';

const DECIMALS = new Map<string, number>(Object.values(TOKENS).map((t) => [t.address, t.decimals]));

/** A mix case as `sorGetSwapPaths` variables: the amount in human units of its token, exactly. */
function sorVariables(c: QuoteCase): Record<string, unknown> {
  const token = c.orderKind === 'sell' ? c.sellToken : c.buyToken;
  return {
    chain: 'MAINNET',
    tokenIn: c.sellToken,
    tokenOut: c.buyToken,
    swapType: c.orderKind === 'sell' ? 'EXACT_IN' : 'EXACT_OUT',
    swapAmount: formatUnits(BigInt(c.amount), DECIMALS.get(token)!).replace(/\.0$/, ''),
  };
}

/** One `sorGetSwapPaths` request; throws unless it answers without errors. */
async function postGraphql(url: string, query: string, variables: Record<string, unknown>): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  if (res.status !== 200 || text.includes('"errors"'))
    throw new Error(`/graphql answered ${res.status}: ${text.slice(0, 300)}`);
  return performance.now() - t;
}

/** Distinct `sorGetSwapPaths` requests over the V2 mix (ROUNDS rounds, one unmeasured), `CONNECTIONS` in flight. */
async function graphqlRun(
  url: string,
  pid: number,
  query: string,
  extra: Record<string, unknown>,
  offset: number,
): Promise<DistinctRun> {
  const ask = (c: QuoteCase) => postGraphql(url, query, { ...sorVariables(c), ...extra });
  await concurrently(
    QUOTE_CASES.map((c) => distinct(c, offset + 1_000_000)),
    CONNECTIONS,
    ask,
  );
  const before = processUsage(pid);
  const cases = Array.from({ length: ROUNDS }, (_, r) => QUOTE_CASES.map((c) => distinct(c, offset + r))).flat();
  const run = await concurrently(cases, CONNECTIONS, ask);
  const after = processUsage(pid);
  const s = summary(run.ms);
  return {
    n: s.n,
    p50: s.p50,
    p99: s.p99,
    perSecond: (run.ms.length / run.wallMs) * 1000,
    cpuMsPerQuote: ((after.cpuS - before.cpuS) * 1000) / run.ms.length,
    rssMiB: after.rssMiB,
  };
}

interface MixRun {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly n: number;
}

/** Distinct V3-mix requests (ROUNDS rounds, one unmeasured), `CONNECTIONS` in flight. */
async function v3MixRun(
  url: string,
  path: string,
  extra: Record<string, unknown>,
  offset: number,
  mix: readonly QuoteCase[] = V3_QUOTE_CASES,
): Promise<MixRun> {
  const ask = (c: QuoteCase) => postV3Mix(url, path, { ...c, ...extra });
  await concurrently(
    mix.map((c) => distinct(c, offset + 1_000_000)),
    CONNECTIONS,
    ask,
  );
  const cases = Array.from({ length: ROUNDS * 2 }, (_, r) => mix.map((c) => distinct(c, offset + r))).flat();
  const run = await concurrently(cases, CONNECTIONS, ask);
  const s = summary(run.ms);
  return { perSecond: (run.ms.length / run.wallMs) * 1000, p50: s.p50, p99: s.p99, n: s.n };
}

/**
 * One V3 quote on this thread, as the request thread runs it (`V3Router.quote`), over the bench's V3
 * state: the event loop is blocked for this long per quote. Warm (the universe built once).
 */
function v3QuoteOnThread(): {
  coldMs: number;
  cpuMs: number;
  p50: number;
  p99: number;
  max: number;
  n: number;
  nextBlock: { p50: number; max: number; n: number };
} {
  const chain = chainById(1)!;
  const state = v3BenchChainState();
  const snap = new ChainSnapshot({
    chainId: 1,
    meta: emptyMeta(1),
    pools: [...snapshotPools(), ...state.registered!.values()],
    tokens: [],
    loadedAt: 0,
    block: state.block,
    buffers: state.buffers!,
  });
  const router = new V3Router();
  const time = v3QuoteTime(chain, snap, Date.now());
  const quote = (c: QuoteCase, on = snap, at = time) => {
    const t = performance.now();
    router.quote(
      chain,
      on,
      {
        sellToken: c.sellToken,
        buyToken: c.buyToken,
        orderKind: c.orderKind,
        amount: BigInt(c.amount),
        gasPrice: BigInt(c.gasPrice),
        minLiquidityUsd: 0,
      },
      at,
    );
    return performance.now() - t;
  };
  // The first quote on a snapshot builds its V3 universe (every new pool version does, on this thread).
  const coldMs = quote(distinct(V3_QUOTE_CASES[0]!, 2_000_000));
  for (const c of V3_QUOTE_CASES) quote(distinct(c, 1_000_000));
  const cpu = process.cpuUsage();
  const ms = Array.from({ length: ROUNDS * 2 }, (_, r) => V3_QUOTE_CASES.map((c) => quote(distinct(c, r)))).flat();
  const used = process.cpuUsage(cpu);
  const s = summary(ms);
  const cpuMs = (used.user + used.system) / 1000 / ms.length;
  // A new block that changed no V3 pool: a new snapshot (the same pool objects, as the read model
  // keeps them) priced 12 s later. Its first V3 quote builds that snapshot's universe.
  const next = Array.from({ length: 40 }, (_, b) => {
    const block = new ChainSnapshot({
      ...snapshotInput(snap),
      pools: [...snap.pools],
      block: { ...state.block, number: state.block.number + b + 1 },
    });
    return quote(distinct(V3_QUOTE_CASES[0]!, 3_000_000 + b), block, time + 12 * (b + 1));
  });
  const n = summary(next);
  return {
    coldMs,
    cpuMs,
    p50: s.p50,
    p99: s.p99,
    max: Math.max(...ms),
    n: s.n,
    nextBlock: { p50: n.p50, max: Math.max(...next), n: n.n },
  };
}

async function healthLatencies(url: string, seconds: number): Promise<number[]> {
  const out: number[] = [];
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const t = performance.now();
    const res = await fetch(`${url}/healthz`);
    await res.arrayBuffer();
    out.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  return out;
}

/** Runs `tasks` with `concurrency` in flight; returns each latency (ms) and the wall time. */
async function concurrently<T>(
  items: readonly T[],
  concurrency: number,
  fn: (item: T) => Promise<number>,
): Promise<{ ms: number[]; wallMs: number }> {
  const ms: number[] = [];
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) ms.push(await fn(items[next++]!));
    }),
  );
  return { ms, wallMs: performance.now() - t };
}

function snapshotPools(): StoredPool[] {
  const raw = JSON.parse(readFileSync(SNAPSHOT, 'utf8')) as unknown[];
  return raw.flatMap((p) => {
    const n = normalizePool(p);
    return n.ok ? [carryDecoration(n.pool, undefined)] : [];
  });
}

function naivePools(): SubgraphPoolBase[] {
  return aboveLiquidityFloor(toRoutingPools(snapshotPools()), 100).map(toSorPool);
}

/** CPU seconds (user + system, every thread) and RSS (MiB) of a process, from /proc. */
function processUsage(pid: number): { cpuS: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return { cpuS: ticks / 100, rssMiB: rss ? Number(rss[1]) / 1024 : NaN };
}

/** One SOR kept across requests (pools fetched once, path cache warm): the best a library user gets. */
async function warmSorRate(pools: ReturnType<typeof naivePools>): Promise<{ perSecond: number; p50: number }> {
  const sor = new SOR(
    {} as Provider,
    sorConfigFor(chainById(1)!),
    { getPools: async () => pools },
    { getNativeAssetPriceInToken: async () => '0' },
  );
  await sor.fetchPools();
  const timestamp = Math.floor(Date.now() / 1000);
  const quote = async (c: QuoteCase) => {
    const t = performance.now();
    await sor.getSwaps(
      c.sellToken,
      c.buyToken,
      c.orderKind === 'sell' ? SwapTypes.SwapExactIn : SwapTypes.SwapExactOut,
      BigNumber.from(c.amount),
      { gasPrice: BigNumber.from(c.gasPrice), timestamp },
    );
    return performance.now() - t;
  };
  for (const c of QUOTE_CASES) await quote(distinct(c, 1_000_000));
  const run = await concurrently(
    QUOTE_CASES.map((c) => distinct(c, 7)),
    1,
    quote,
  );
  return { perSecond: (run.ms.length / run.wallMs) * 1000, p50: summary(run.ms).p50 };
}

interface DistinctRun {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly cpuMsPerQuote: number;
  readonly rssMiB: number;
  readonly n: number;
}

/** Distinct /sor requests, 8 connections, against a fresh server process of the given engine. */
async function distinctRun(
  engine: 'own' | 'sor',
  rounds: number,
): Promise<DistinctRun & { url: string; child: ChildProcess }> {
  const { url, child } = await startServer(engine);
  // One unmeasured round: the first touch of each pair in this pool version.
  await concurrently(
    QUOTE_CASES.map((c) => distinct(c, 1_000_000)),
    CONNECTIONS,
    (c) => postSor(url, c),
  );
  const before = processUsage(child.pid!);
  const cases = Array.from({ length: rounds }, (_, r) => QUOTE_CASES.map((c) => distinct(c, r + 1))).flat();
  const run = await concurrently(cases, CONNECTIONS, (c) => postSor(url, c));
  const after = processUsage(child.pid!);
  const s = summary(run.ms);
  return {
    url,
    child,
    n: s.n,
    p50: s.p50,
    p99: s.p99,
    perSecond: (run.ms.length / run.wallMs) * 1000,
    cpuMsPerQuote: ((after.cpuS - before.cpuS) * 1000) / run.ms.length,
    rssMiB: after.rssMiB,
  };
}

/** The deprecated API per request: a fresh SOR, a pool fetch, one getSwaps. */
async function naiveQuote(pools: ReturnType<typeof naivePools>, c: QuoteCase): Promise<number> {
  const t = performance.now();
  const sor = new SOR(
    {} as Provider,
    sorConfigFor(chainById(1)!),
    { getPools: async () => pools },
    { getNativeAssetPriceInToken: async () => '0' },
  );
  await sor.fetchPools();
  await sor.getSwaps(
    c.sellToken,
    c.buyToken,
    c.orderKind === 'sell' ? SwapTypes.SwapExactIn : SwapTypes.SwapExactOut,
    BigNumber.from(c.amount),
    {
      gasPrice: BigNumber.from(c.gasPrice),
      timestamp: Math.floor(Date.now() / 1000),
    },
  );
  return performance.now() - t;
}

export async function run(): Promise<void> {
  if (!existsSync(SNAPSHOT)) {
    process.stdout.write(`skipped: ${SNAPSHOT} is absent (clone the project with ../shared beside it)\n`);
    return;
  }
  const workers = process.env.ROUTER_WORKERS ?? `the default (${cpus().length}, one per core)`;
  process.stdout.write(
    `${QUOTE_CASES.length} requests in the mix; ${CONNECTIONS} connections; ROUTER_WORKERS=${workers}\n`,
  );

  // 1. The SOR patterns, in this process, while no server is running.
  const pools = naivePools();
  await naiveQuote(pools, QUOTE_CASES[0]!); // load the SOR code paths once
  const naiveRun = await concurrently(QUOTE_CASES, 1, (c) => naiveQuote(pools, c));
  const naiveSeq = summary(naiveRun.ms);
  const naiveRate = (naiveRun.ms.length / naiveRun.wallMs) * 1000;
  const warm = await warmSorRate(pools);

  // 2. The service with ROUTER_ENGINE=sor, distinct requests (fewer rounds: it is slow).
  const viaSor = await distinctRun('sor', 1);
  viaSor.child.kill('SIGTERM');

  // 3. The service with its own engine.
  const own = await distinctRun('own', ROUNDS);
  const { url, child } = own;
  try {
    // GraphQL's sorGetSwapPaths on the same server and mix, right after /sor's distinct run.
    const gqlV2 = await graphqlRun(url, child.pid!, SDK_SOR_QUERY_WITH_VERSION, { useProtocolVersion: 2 }, 200_000);
    const gqlCow = await graphqlRun(url, child.pid!, COW_QUERY, {}, 300_000);
    const idleHealth = summary(await healthLatencies(url, 3));
    slowest.length = 0;
    const dist = await concurrently(
      QUOTE_CASES.map((c) => distinct(c, ROUNDS + 2)),
      CONNECTIONS,
      (c) => postSor(url, c),
    );
    const slowDistinct = slowest.map((x) => `${x.name} ${f(x.ms)} ms`).join('; ');
    void dist;
    // The same, one request at a time: the latency a single client sees.
    const single = summary(
      (
        await concurrently(
          QUOTE_CASES.map((c) => distinct(c, ROUNDS + 3)),
          1,
          (c) => postSor(url, c),
        )
      ).ms,
    );

    // 4. Repeated requests: every case is cached now; autocannon cycles through them.
    const cached = QUOTE_CASES.map((c) => distinct(c, 1));
    const ac = await autocannon({
      url,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: cached.map((c) => ({
        method: 'POST' as const,
        path: '/sor/1',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(c),
      })),
    });

    // 5. /healthz while /sor is saturated with distinct requests.
    let stop = false;
    let r = 10;
    const load = Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (!stop) await postSor(url, distinct(QUOTE_CASES[r++ % QUOTE_CASES.length]!, 100 + r));
      }),
    );
    await new Promise((res) => setTimeout(res, 500));
    const health = await healthLatencies(url, SECONDS);
    stop = true;
    await load;
    const healthS = summary(health);

    // 6. The V3 mix on the same server: /sor protocolVersion 3, /order better of both, /order V2 only.
    const v3Sor = await v3MixRun(url, '/sor', { protocolVersion: 3 }, 10_000);
    const bothOrder = await v3MixRun(url, '/order', { sender: SENDER }, 20_000, V3_SHARED_CASES);
    const v2Order = await v3MixRun(url, '/order', { sender: SENDER, protocolVersion: 2 }, 30_000, V3_SHARED_CASES);
    const v2SorSamePairs = await v3MixRun(url, '/sor', {}, 40_000, V3_SHARED_CASES);
    stop = false;
    let k = 0;
    const v3Load = Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (!stop) {
          const c = distinct(V3_QUOTE_CASES[k++ % V3_QUOTE_CASES.length]!, 50_000 + k);
          await postV3Mix(url, '/sor', { ...c, protocolVersion: 3 });
        }
      }),
    );
    await new Promise((res) => setTimeout(res, 500));
    const v3Health = summary(await healthLatencies(url, SECONDS));
    stop = true;
    await v3Load;
    const onThread = v3QuoteOnThread();

    const out = [
      '',
      `naive in-process (new SOR + fetchPools + getSwaps per request), one at a time: ${f(naiveRate)} answers/s  p50 ${f(naiveSeq.p50)} ms  p90 ${f(naiveSeq.p90)} ms  (n=${naiveSeq.n})`,
      `warm long-lived in-process SOR (one instance, path cache warm), one at a time: ${f(warm.perSecond)} answers/s  p50 ${f(warm.p50)} ms`,
      `/sor distinct, ${CONNECTIONS} connections, ROUTER_ENGINE=sor: ${f(viaSor.perSecond)} answers/s  p50 ${f(viaSor.p50)} ms  p99 ${f(viaSor.p99)} ms  CPU ${f(viaSor.cpuMsPerQuote)} ms/quote  (n=${viaSor.n})`,
      `/sor distinct, ${CONNECTIONS} connections, own engine: ${f(own.perSecond)} answers/s  p50 ${f(own.p50)} ms  p99 ${f(own.p99)} ms  CPU ${f(own.cpuMsPerQuote)} ms/quote  server RSS ${f(own.rssMiB)} MiB  (n=${own.n})`,
      `  ratio to the naive one-at-a-time rate: ${f(own.perSecond / naiveRate)}x   (target >= 20x)`,
      `  ratio to the warm long-lived SOR: ${f(own.perSecond / warm.perSecond)}x   (target >= 2x)`,
      `  ratio to the same service on ROUTER_ENGINE=sor: ${f(own.perSecond / viaSor.perSecond)}x`,
      `  slowest distinct requests: ${slowDistinct}`,
      `sorGetSwapPaths distinct (GraphQL), the SDK's document with useProtocolVersion 2, ${CONNECTIONS} connections: ${f(gqlV2.perSecond)} answers/s  p50 ${f(gqlV2.p50)} ms  p99 ${f(gqlV2.p99)} ms  CPU ${f(gqlV2.cpuMsPerQuote)} ms/quote  (n=${gqlV2.n})  ratio to /sor distinct: ${f2(gqlV2.perSecond / own.perSecond)}x   (target >= 0.8x)`,
      `sorGetSwapPaths distinct (GraphQL), CoW's document (the better of both Vaults), ${CONNECTIONS} connections: ${f(gqlCow.perSecond)} answers/s  p50 ${f(gqlCow.p50)} ms  p99 ${f(gqlCow.p99)} ms  CPU ${f(gqlCow.cpuMsPerQuote)} ms/quote  (n=${gqlCow.n})  ratio to /sor distinct: ${f2(gqlCow.perSecond / own.perSecond)}x`,
      `/sor distinct, 1 connection: p50 ${f(single.p50)} ms  p90 ${f(single.p90)} ms  p99 ${f(single.p99)} ms`,
      `/sor repeated (cache hits), ${CONNECTIONS} connections, ${SECONDS} s: ${f(ac.requests.average)} req/s  p50 ${f(ac.latency.p50)} ms  p99 ${f(ac.latency.p99)} ms  non-2xx ${ac.non2xx}   (target >= 2000 req/s)`,
      `GET /healthz while /sor is saturated: p50 ${f(healthS.p50)} ms  p99 ${f(healthS.p99)} ms  (n=${healthS.n})   (target p99 < 20 ms)`,
      `GET /healthz with the server idle (machine noise floor): p50 ${f(idleHealth.p50)} ms  p99 ${f(idleHealth.p99)} ms  (n=${idleHealth.n})`,
      '',
      `V3 mix (${V3_QUOTE_CASES.length} requests: Weighted, Stable, E-CLP, boosted paths through buffers; distinct, ${CONNECTIONS} connections):`,
      `/sor protocolVersion 3: ${f(v3Sor.perSecond)} answers/s  p50 ${f(v3Sor.p50)} ms  p99 ${f(v3Sor.p99)} ms  (n=${v3Sor.n})  ratio to the V2 /sor mix: ${f2(v3Sor.perSecond / own.perSecond)}x`,
      `/sor V2 on the ${V3_SHARED_CASES.length} of them both Vaults route (USDC, DAI, USDT): ${f(v2SorSamePairs.perSecond)} answers/s  p50 ${f(v2SorSamePairs.p50)} ms  p99 ${f(v2SorSamePairs.p99)} ms  (n=${v2SorSamePairs.n})`,
      `/order better of both (no protocolVersion), those ${V3_SHARED_CASES.length}: ${f(bothOrder.perSecond)} answers/s  p50 ${f(bothOrder.p50)} ms  p99 ${f(bothOrder.p99)} ms  (n=${bothOrder.n})  ratio to the V2 /sor mix: ${f2(bothOrder.perSecond / own.perSecond)}x  to /order protocolVersion 2 on them: ${f2(bothOrder.perSecond / v2Order.perSecond)}x`,
      `/order protocolVersion 2, those ${V3_SHARED_CASES.length}: ${f(v2Order.perSecond)} answers/s  p50 ${f(v2Order.p50)} ms  p99 ${f(v2Order.p99)} ms  (n=${v2Order.n})`,
      `GET /healthz while V3 /sor is saturated: p50 ${f(v3Health.p50)} ms  p99 ${f(v3Health.p99)} ms  (n=${v3Health.n})`,
      `one V3 quote on the calling thread (event loop blocked per quote, warm): p50 ${f2(onThread.p50)} ms  p99 ${f2(onThread.p99)} ms  max ${f2(onThread.max)} ms  CPU ${f2(onThread.cpuMs)} ms/quote  (n=${onThread.n}); the first on a snapshot (builds the V3 universe): ${f2(onThread.coldMs)} ms`,
      `the first V3 quote of each new block that changed no V3 pool (a new snapshot and timestamp): p50 ${f2(onThread.nextBlock.p50)} ms  max ${f2(onThread.nextBlock.max)} ms  (n=${onThread.nextBlock.n})`,
      `machine load average at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} CPUs (other processes share them)`,
    ];
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    child.kill('SIGTERM');
  }
}
