import { spawn, type ChildProcess } from 'node:child_process';
import { seededRandom } from '../e2e/helpers/randomOrders';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Interface, MaxInt256, MaxUint256 } from 'ethers';
import { devAccount, traderAccounts } from '../../src/devnet/accounts';
import { deployDevnet } from '../../src/devnet/deploy';
import type { Devnet, DevnetPool, DevnetToken } from '../../src/devnet/devnet';
import { deployExtraPools } from '../../src/devnet/extraPools';
import { serveChain } from '../../src/devnet/localChain';
import { startDevnetUpstreams } from '../../src/devnet/upstreams';
import { countsBetween, startCountingRpcProxy, type RpcCounts, type RpcExchange } from './lib/countingRpcProxy';
import { figure } from './lib/report';
import { cpuSeconds } from './lib/threadCpu';

/**
 * `npm run bench -- follow`: the service following a real devnet's head under quote load.
 *  - The devnet (src/devnet/deploy.ts, 16 pools) plus BENCH_EXTRA_POOLS (default 1,000) two-token
 *    weighted pools from the real factory over 40 extra tokens, some paired with WETH
 *    (src/devnet/extraPools.ts), served on loopback; the devnet subgraph indexes them all.
 *  - The service in its own process (followServer.ts): one pool update for the catalogue, then the
 *    head follower every FOLLOW_INTERVAL_MS (default 50 here) through a counting JSON-RPC proxy
 *    (lib/countingRpcProxy.ts), and /sor. No pool update runs after the start.
 *  - A block every 250 ms, each holding third-party swaps on k = 1, 10, 100 distinct random extra
 *    pools (one batchSwap transaction, then one evm_mine), BENCH_BLOCKS (default 48) blocks per k.
 *  - Block-to-quotable latency: from the end of evm_mine until a /sor answer for a pair through a
 *    pool the block changed carries that blockNumber (a probe asks every 5 ms, all phases alike).
 *  - RPC requests, calls and bytes per block, by kind (head polls, logs, eth_call batches).
 *  - A closed-loop load of distinct /sor quotes (8 connections, varied pairs and amounts) all
 *    along, after one unmeasured stretch with blocks to warm up: answers/s and p50/p99 during each k, against
 *    the same load without blocks in the stretches just before and after it (targets: >= 80 % of
 *    that rate, p99 < 50 ms).
 *  - CPU from /proc: the service's main thread and its other threads (quote threads, V8's GC
 *    helpers), the bench process, and what a block costs the service beyond the answers it gave.
 */
const EXTRA_POOLS = Number(process.env.BENCH_EXTRA_POOLS ?? 1000);
const EXTRA_TOKENS = 40;
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 48);
const BLOCK_MS = 250;
const KS = (process.env.BENCH_KS ?? '1,10,100').split(',').map(Number);
const CONNECTIONS = 8;
const BASELINE_MS = Number(process.env.BENCH_BASELINE_SECONDS ?? 12) * 1000;
const FOLLOW_MS = process.env.FOLLOW_INTERVAL_MS ?? '50';
/** `subscription`: the service gets the proxy's ws:// URL and learns blocks from newHeads (polling only backs it up). */
const HEADS = process.env.BENCH_HEADS === 'subscription' ? 'subscription' : 'polling';
const PROBE_PAUSE_MS = 5;
/**
 * `BENCH_WITHOUT_SWAPS=1`: each block holds one ether transfer instead of the swaps (a control:
 * what following the head costs when no pool changes; the probe's latency then means nothing).
 */
const WITHOUT_SWAPS = process.env.BENCH_WITHOUT_SWAPS === '1';
/** The account that swaps in the measured blocks (a third party: not the pools' owner). */
const SWAPPER_INDEX = 11;
const CHAIN_ID = 31337;

const VAULT = new Interface([
  'function batchSwap(uint8 kind, (bytes32 poolId, uint256 assetInIndex, uint256 assetOutIndex, uint256 amount, bytes userData)[] swaps, address[] assets, (address sender, bool fromInternalBalance, address recipient, bool toInternalBalance) funds, int256[] limits, uint256 deadline) returns (int256[])',
]);

const hex = (n: number) => `0x${n.toString(16)}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');

function pct(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

interface Quote {
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: 'sell' | 'buy';
  readonly amount: bigint;
  readonly gasPrice: string;
}

/** Whole units worth roughly 100 USD of each token, for amounts. */
function hundredUsd(t: DevnetToken): bigint {
  const units: Record<string, string> = { WETH: '0.03', WBTC: '0.002', BAL: '20', LINK: '7' };
  const [whole, frac = ''] = (units[t.symbol] ?? '100').split('.');
  return BigInt(whole! + frac.padEnd(t.decimals, '0').slice(0, t.decimals));
}

/**
 * The load's mix: pairs inside the standard universe, between extra tokens (one or two pools
 * away), and between extra tokens and the universe (through the WETH pools), sold and bought.
 */
function quoteMix(devnet: Devnet, extra: readonly DevnetToken[]): Quote[] {
  const by = (s: string) => devnet.tokens.find((t) => t.symbol === s)!;
  const main = ['WETH', 'USDC', 'DAI', 'WBTC', 'BAL', 'LINK'].map(by);
  const rand = seededRandom(7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const pairs: [DevnetToken, DevnetToken][] = [];
  for (let i = 0; i < 8; i++) {
    const a = pick(main);
    let b = pick(main);
    while (b === a) b = pick(main);
    pairs.push([a, b]);
  }
  for (let i = 0; i < 10; i++) {
    const a = pick(extra);
    let b = pick(extra);
    while (b === a) b = pick(extra);
    pairs.push([a, b]);
  }
  for (let i = 0; i < 4; i++) pairs.push(i % 2 === 0 ? [pick(extra), pick(main)] : [pick(main), pick(extra)]);
  return pairs.flatMap(([a, b], i) => [
    { sellToken: a.address, buyToken: b.address, orderKind: 'sell' as const, amount: hundredUsd(a), gasPrice: '0' },
    {
      sellToken: a.address,
      buyToken: b.address,
      orderKind: 'buy' as const,
      amount: hundredUsd(b),
      gasPrice: i % 2 === 0 ? '0' : '30000000000',
    },
  ]);
}

async function startFollowServer(
  env: Record<string, string>,
  onPublished: (block: number, at: number, ms: number) => void,
): Promise<{ url: string; child: ChildProcess; catalogueMs: number }> {
  // BENCH_SERVICE_PROF=<dir>: the service writes a V8 CPU profile there when it stops.
  const prof = process.env.BENCH_SERVICE_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVICE_PROF}`] : [];
  const child = spawn(process.execPath, [...process.execArgv, ...prof, join(__dirname, 'followServer.ts')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      for (const line of lines) {
        const ready = /^READY (\S+) (\d+)/.exec(line);
        if (ready) resolve({ url: ready[1]!, child, catalogueMs: Number(ready[2]) });
        const published = /^PUBLISHED (\d+) ([\d.]+) ([\d.]+)/.exec(line);
        if (published)
          onPublished(Number(published[1]), Number(published[2]) - performance.timeOrigin, Number(published[3]));
      }
    });
    child.once('exit', (code) => reject(new Error(`follow server exited with ${code}`)));
  });
}

interface Answer {
  readonly ok: boolean;
  readonly ms: number;
  readonly end: number;
  readonly block: number | undefined;
}

async function postSor(url: string, q: Quote): Promise<Answer> {
  const t = performance.now();
  const res = await fetch(`${url}/sor/${CHAIN_ID}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...q, amount: q.amount.toString() }),
  });
  const body = (await res.json()) as { blockNumber?: number };
  const end = performance.now();
  return { ok: res.status === 200, ms: end - t, end, block: body.blockNumber };
}

async function readyz(
  url: string,
): Promise<{ pools: number; follow: { serving: string; stateBlock: number | null } | null }> {
  const r = (await (await fetch(`${url}/readyz`)).json()) as {
    chains: { pools: number; follow: { serving: string; stateBlock: number | null } | null }[];
  };
  return r.chains[0]!;
}

/** When the service learnt what of which block, from its RPC traffic (performance.now()). */
interface Sighting {
  readonly stage: 'head' | 'logs' | 'reads' | 'published';
  readonly block: number;
  readonly at: number;
}

/**
 * What an exchange tells about the follower's progress: a head poll's answer names the newest
 * block; a logs query names its last block; an eth_call batch, the block it is pinned to.
 */
function sightings(x: RpcExchange): Sighting[] {
  const first = x.calls[0] as { method?: unknown; params?: unknown[] } | undefined;
  const num = (h: unknown) => (typeof h === 'string' && h.startsWith('0x') ? Number(BigInt(h)) : undefined);
  if (first?.method === 'eth_getBlockByNumber' && first.params?.[0] === 'latest') {
    try {
      const answers = JSON.parse(x.answer) as { result?: { number?: string } }[];
      const block = num(answers.find((a) => a.result)?.result?.number);
      return block === undefined ? [] : [{ stage: 'head', block, at: x.answeredAt }];
    } catch {
      return [];
    }
  }
  if (first?.method === 'eth_getLogs') {
    const block = num((first.params?.[0] as { toBlock?: unknown } | undefined)?.toBlock);
    return block === undefined ? [] : [{ stage: 'logs', block, at: x.answeredAt }];
  }
  if (first?.method === 'eth_call') {
    const block = num(first.params?.[1]);
    return block === undefined ? [] : [{ stage: 'reads', block, at: x.answeredAt }];
  }
  return [];
}

/** CPU seconds (user + system) from a /proc stat file: a process's (all threads) or one thread's. */
interface Cpu {
  readonly service: number;
  /** The service's main thread (the event loop: HTTP, the follower, the read model). */
  readonly main: number;
  readonly bench: number;
}

interface Phase {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

function loadOf(
  answers: readonly Answer[],
  phase: Phase,
): { rate: number; p50: number; p99: number; n: number; failed: number } {
  const inside = answers.filter((a) => a.end >= phase.start && a.end < phase.end);
  const ms = inside.map((a) => a.ms);
  return {
    rate: (inside.length / (phase.end - phase.start)) * 1000,
    p50: pct(ms, 50),
    p99: pct(ms, 99),
    n: inside.length,
    failed: inside.filter((a) => !a.ok).length,
  };
}

function perBlock(c: RpcCounts, blocks: number): string {
  const kinds = [...c.byRequest]
    .sort((a, b) => b[1].calls - a[1].calls)
    .map(
      ([m, t]) =>
        `${m}: ${f1(t.requests / blocks)} req, ${f1(t.calls / blocks)} calls, ${f1(t.bytesOut / blocks / 1024)} KiB out, ${f1(t.bytesIn / blocks / 1024)} KiB in, node ${f1(t.nodeMs / Math.max(1, t.requests))} ms per request`,
    );
  return kinds.join('; ');
}

export async function run(): Promise<void> {
  const closers: (() => Promise<unknown>)[] = [];
  try {
    // 1. The devnet with its extra pools, served on loopback.
    let t = performance.now();
    const chain = await serveChain('127.0.0.1', 0);
    closers.push(() => chain.close());
    const devnet = await deployDevnet(devAccount(0, chain.provider), { traders: traderAccounts(chain.provider) });
    figure(`standard devnet deploy (${devnet.pools.length} pools)`, performance.now() - t, 'ms');
    t = performance.now();
    const swapper = devAccount(SWAPPER_INDEX).address.toLowerCase();
    const extra = await deployExtraPools(chain.provider, devnet, {
      pools: EXTRA_POOLS,
      tokens: EXTRA_TOKENS,
      traders: [swapper],
    });
    figure(
      `+ ${extra.pools.length} weighted pools, ${extra.tokens.length} tokens (${extra.transactions} txs, ${extra.blocks} blocks)`,
      performance.now() - t,
      'ms',
    );
    const all: Devnet = {
      ...devnet,
      tokens: [...devnet.tokens, ...extra.tokens],
      pools: [...devnet.pools, ...extra.pools],
    };
    const upstreams = await startDevnetUpstreams({ provider: chain.provider, devnet: all });
    closers.push(() => upstreams.close());
    const seen: Sighting[] = [];
    const proxy = await startCountingRpcProxy(chain.rpcUrl!, (x) => seen.push(...sightings(x)));
    closers.push(() => proxy.close());

    // 2. The service: catalogue from the subgraph, then the first full read of every pool.
    t = performance.now();
    const publishMs = new Map<number, number>();
    const server = await startFollowServer(
      {
        BENCH_SUBGRAPH_URL: upstreams.subgraphUrl,
        BENCH_RPC_URL: HEADS === 'subscription' ? proxy.url.replace(/^http/, 'ws') : proxy.url,
        FOLLOW_INTERVAL_MS: FOLLOW_MS,
      },
      (block, at, ms) => {
        seen.push({ stage: 'published', block, at });
        publishMs.set(block, ms);
      },
    );
    closers.push(async () => {
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
    });
    for (;;) {
      const s = await readyz(server.url);
      if (s.follow?.serving === 'chain' && s.pools >= all.pools.length) break;
      if (performance.now() - t > 300_000)
        throw new Error(`the service did not serve the chain state: ${JSON.stringify(s)}`);
      await sleep(100);
    }
    const start = proxy.snapshot();
    figure(`service start: catalogue of ${all.pools.length} pools (one pool update)`, server.catalogueMs, 'ms');
    figure(`service start to chain state served (first full read)`, performance.now() - t, 'ms');
    process.stdout.write(
      `  RPC until then: ${start.requests} requests, ${start.calls} calls (${[...start.byMethod].map(([m, n]) => `${m} ${n}`).join(', ')})\n`,
    );

    // 3. Load and probe, all along.
    const mix = quoteMix(all, extra.tokens);
    for (const q of mix) await postSor(server.url, { ...q, amount: q.amount + 999_999n });
    const answers: Answer[] = [];
    let stop = false;
    let round = 0;
    let next = 0;
    const load = Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (!stop) {
          const i = next++;
          if (i % mix.length === 0) round++;
          const q = mix[i % mix.length]!;
          // A few wei more each round: no quote cache answers it.
          answers.push(await postSor(server.url, { ...q, amount: q.amount * BigInt(1 + (round % 5)) + BigInt(round) }));
        }
      }),
    );
    let probePool: DevnetPool = extra.pools[0]!;
    const waiting: { number: number; minedAt: number; latencies: number[] }[] = [];
    const mined: { k: number; number: number; minedAt: number }[] = [];
    let probeFailures = 0;
    let probeN = 0;
    const probe = (async () => {
      while (!stop) {
        const pool = probePool;
        const a = await postSor(server.url, {
          sellToken: pool.tokens[0]!,
          buyToken: pool.tokens[1]!,
          orderKind: 'sell',
          amount: 10n ** 18n + BigInt(probeN++),
          gasPrice: '0',
        });
        if (!a.ok) probeFailures++;
        while (waiting.length > 0 && a.block !== undefined && a.block >= waiting[0]!.number) {
          const w = waiting.shift()!;
          w.latencies.push(a.end - w.minedAt);
        }
        await sleep(PROBE_PAUSE_MS);
      }
    })();

    const phases: Phase[] = [];
    const cpu = new Map<string, Cpu>();
    const pid = server.child.pid!;
    const cpuNow = (): Cpu => ({
      service: cpuSeconds(`/proc/${pid}/stat`),
      main: cpuSeconds(`/proc/${pid}/task/${pid}/stat`),
      bench: cpuSeconds(`/proc/${process.pid}/stat`),
    });
    const cpuSince = (name: string, before: Cpu) => {
      const after = cpuNow();
      cpu.set(name, {
        service: after.service - before.service,
        main: after.main - before.main,
        bench: after.bench - before.bench,
      });
    };
    const idle = async (name: string) => {
      const s = performance.now();
      const before = proxy.snapshot();
      const cpuBefore = cpuNow();
      await sleep(BASELINE_MS);
      phases.push({ name, start: s, end: performance.now() });
      cpuSince(name, cpuBefore);
      return countsBetween(before, proxy.snapshot());
    };
    // The service has read every block before a stretch without blocks starts.
    const catchUp = async () => {
      const head = Number(await chain.provider.send('eth_blockNumber', []));
      const since = performance.now();
      while ((await readyz(server.url)).follow?.stateBlock !== head && performance.now() - since < 60_000)
        await sleep(50);
    };
    // A stretch without blocks before and after every k: the machine's other load drifts over a
    // run, so each k is compared with the stretches next to it.
    const idles: Phase[] = [];
    // The load runs one stretch unmeasured first, with blocks as the first k makes them: the
    // threads' compilers, each pair's first search and the first versions' code make a cold
    // stretch slower than the steady state every k is held against (a service following a chain
    // has handled blocks all along).
    const rand = seededRandom(11);
    /** One block: a batchSwap over k distinct random extra pools, then evm_mine. */
    const sendBlock = async (k: number): Promise<{ pools: DevnetPool[]; hash: string }> => {
      const chosen = new Set<number>();
      while (chosen.size < k) chosen.add(Math.floor(rand() * extra.pools.length));
      const pools = [...chosen].map((i) => extra.pools[i]!);
      // One batchSwap over the k pools (one transaction, one Swap log per pool): the chain's
      // own cost per block stays small next to what the service does with it.
      const assets = [...new Set(pools.flatMap((p) => p.tokens))];
      const swaps = pools.map((p) => {
        const inFirst = rand() < 0.5;
        const assetIn = inFirst ? p.tokens[0]! : p.tokens[1]!;
        const assetOut = inFirst ? p.tokens[1]! : p.tokens[0]!;
        const units = assetIn === all.addresses.weth ? 10n ** 16n : 10n ** 19n;
        return {
          poolId: p.id,
          assetInIndex: assets.indexOf(assetIn),
          assetOutIndex: assets.indexOf(assetOut),
          amount: units * BigInt(1 + Math.floor(rand() * 100)),
          userData: '0x',
        };
      });
      const data = VAULT.encodeFunctionData('batchSwap', [
        0,
        swaps,
        assets,
        { sender: swapper, fromInternalBalance: false, recipient: swapper, toInternalBalance: false },
        assets.map(() => MaxInt256),
        MaxUint256,
      ]);
      const hash = (await chain.provider.send('eth_sendTransaction', [
        WITHOUT_SWAPS
          ? { from: swapper, to: devAccount(SWAPPER_INDEX + 1).address, value: '0x1' }
          : { from: swapper, to: all.addresses.vault, data, gas: hex(200_000 + 120_000 * k) },
      ])) as string;
      await chain.provider.send('evm_mine', []);
      return { pools, hash };
    };
    await chain.provider.send('evm_setAutomine', [false]);
    const warmStart = performance.now();
    for (let b = 0; b * BLOCK_MS < BASELINE_MS; b++) {
      const due = warmStart + b * BLOCK_MS;
      if (due > performance.now()) await sleep(due - performance.now());
      await sendBlock(KS[0]!);
    }
    await catchUp();
    const idleBefore = await idle('no blocks 1');
    idles.push(phases[phases.length - 1]!);

    // 4. Blocks every 250 ms, each with swaps on k distinct pools.
    const results: {
      k: number;
      phase: Phase;
      around: [Phase, Phase];
      latencies: number[];
      mineMs: number[];
      rpc: RpcCounts;
      failedSwaps: number;
      missed: number;
    }[] = [];
    for (const k of KS) {
      const latencies: number[] = [];
      const mineMs: number[] = [];
      const hashes: string[] = [];
      const phaseStart = performance.now();
      const before = proxy.snapshot();
      const cpuBefore = cpuNow();
      let number = Number(await chain.provider.send('eth_blockNumber', []));
      for (let b = 0; b < BLOCKS; b++) {
        const due = phaseStart + b * BLOCK_MS;
        if (due > performance.now()) await sleep(due - performance.now());
        const sendStart = performance.now();
        const { pools, hash } = await sendBlock(k);
        hashes.push(hash);
        const minedAt = performance.now();
        mineMs.push(minedAt - sendStart);
        number++;
        probePool = pools[0]!;
        waiting.push({ number, minedAt, latencies });
        mined.push({ k, number, minedAt });
      }
      // The last block's answer, then the phase ends.
      const until = performance.now() + 5_000;
      while (waiting.length > 0 && performance.now() < until) await sleep(10);
      const missed = waiting.splice(0).length;
      const phase = { name: `k=${k}`, start: phaseStart, end: performance.now() };
      cpuSince(phase.name, cpuBefore);
      const rpc = countsBetween(before, proxy.snapshot());
      phases.push(phase);
      const receipts = (await Promise.all(
        hashes.map((h) => chain.provider.send('eth_getTransactionReceipt', [h])),
      )) as ({ status: string } | null)[];
      await catchUp();
      await idle(`no blocks ${idles.length + 1}`);
      idles.push(phases[phases.length - 1]!);
      results.push({
        k,
        phase,
        around: [idles[idles.length - 2]!, idles[idles.length - 1]!],
        latencies,
        mineMs,
        rpc,
        failedSwaps: receipts.filter((r) => r?.status !== '0x1').length,
        missed,
      });
    }
    await chain.provider.send('evm_setAutomine', [true]);
    stop = true;
    await Promise.all([load, probe]);

    // 5. Figures.
    process.stdout.write(
      `\nservice: own process, FOLLOW_INTERVAL_MS=${FOLLOW_MS}, heads by ${HEADS}, ROUTER_WORKERS=${process.env.ROUTER_WORKERS ?? 'default'}; ${all.pools.length} pools; load: ${CONNECTIONS} connections of distinct /sor (${mix.length} requests in the mix) + a /sor probe every ${PROBE_PAUSE_MS} ms\n`,
    );
    const cpuLine = (name: string, seconds: number, answered: number) => {
      const c = cpu.get(name)!;
      return `CPU: service ${f1((100 * c.service) / seconds)} % (main thread ${f1((100 * c.main) / seconds)} %, its other threads ${f1((100 * (c.service - c.main)) / seconds)} %), bench process (chain, load, proxy) ${f1((100 * c.bench) / seconds)} % of one core; service ${f1((1000 * c.service) / Math.max(1, answered))} ms per answer`;
    };
    /**
     * What a block costs the service beyond the answers it gave: its CPU in the stretch with blocks
     * less its answers at the CPU per answer of the stretches without blocks around it, per block.
     */
    const perBlockLine = (r: (typeof results)[number], answered: number) => {
      const c = cpu.get(r.phase.name)!;
      const around = r.around.map((p) => ({ c: cpu.get(p.name)!, n: loadOf(answers, p).n }));
      const idleN = around.reduce((sum, a) => sum + a.n, 0);
      const per = (f: (c: Cpu) => number) => around.reduce((sum, a) => sum + f(a.c), 0) / Math.max(1, idleN);
      const beyond = (f: (c: Cpu) => number) => (1000 * (f(c) - answered * per(f))) / BLOCKS;
      return `service CPU per block beyond its answers: main thread ${f1(beyond((x) => x.main))} ms, other threads (quote threads, GC) ${f1(beyond((x) => x.service - x.main))} ms`;
    };
    for (const p of idles) {
      const b = loadOf(answers, p);
      process.stdout.write(
        `/sor without blocks, stretch ${p.name.slice(-1)} of ${idles.length}: ${f1(b.rate)} answers/s  p50 ${f1(b.p50)} ms  p99 ${f1(b.p99)} ms  (n=${b.n}, non-200 ${b.failed})\n  ${cpuLine(p.name, (p.end - p.start) / 1000, b.n)}\n`,
      );
    }
    const idleSeconds = (phases[0]!.end - phases[0]!.start) / 1000;
    process.stdout.write(
      `RPC with no new block (head polls only, in the first stretch without blocks): ${f1(idleBefore.requests / idleSeconds)} requests/s, ${f1(idleBefore.calls / idleSeconds)} calls/s, ${f1(idleBefore.bytesIn / idleSeconds / 1024)} KiB/s received\n`,
    );
    for (const r of results) {
      const l = loadOf(answers, r.phase);
      const n = r.latencies.length;
      process.stdout.write(
        `\n-- k = ${r.k} pools changed per block: ${n} blocks seen, ${r.missed} not seen within 5 s, ${r.failedSwaps} batchSwaps failed --\n`,
      );
      figure(`block-to-quotable p50 (k=${r.k})`, pct(r.latencies, 50), 'ms');
      figure(`block-to-quotable p99 (k=${r.k})`, pct(r.latencies, 99), 'ms');
      figure(`sending the batchSwap + evm_mine p50 (k=${r.k})`, pct(r.mineMs, 50), 'ms');
      figure(`RPC requests per block (k=${r.k})`, r.rpc.requests / BLOCKS, 'req');
      figure(`RPC calls per block (k=${r.k})`, r.rpc.calls / BLOCKS, 'calls');
      figure(
        `RPC bytes per block, sent / received (k=${r.k})`,
        r.rpc.bytesOut / BLOCKS / 1024,
        `KiB / ${f1(r.rpc.bytesIn / BLOCKS / 1024)} KiB`,
      );
      process.stdout.write(`  by request: ${perBlock(r.rpc, BLOCKS)}\n`);
      // Where the time goes: the first sighting of the block (or a later one) in each stage.
      const stageMs = (stage: Sighting['stage']) =>
        mined
          .filter((m) => m.k === r.k)
          .map((m) => {
            const first = seen.find((s) => s.stage === stage && s.block >= m.number && s.at >= m.minedAt);
            // A block's reads come in several batches: the last one answered completes them.
            if (stage !== 'reads') return first;
            return first && seen.findLast((s) => s.stage === stage && s.block === first.block);
          })
          .map((s, i) => (s ? s.at - mined.filter((m) => m.k === r.k)[i]!.minedAt : NaN))
          .filter(Number.isFinite);
      process.stdout.write(
        `  after the block, p50 / p99 ms: head poll answered ${f1(pct(stageMs('head'), 50))} / ${f1(pct(stageMs('head'), 99))}, logs answered ${f1(pct(stageMs('logs'), 50))} / ${f1(pct(stageMs('logs'), 99))}, pool reads answered ${f1(pct(stageMs('reads'), 50))} / ${f1(pct(stageMs('reads'), 99))}, published to the read model ${f1(pct(stageMs('published'), 50))} / ${f1(pct(stageMs('published'), 99))}, quotable ${f1(pct(r.latencies, 50))} / ${f1(pct(r.latencies, 99))}\n`,
      );
      const snapshotMs = mined
        .filter((m) => m.k === r.k && publishMs.has(m.number))
        .map((m) => publishMs.get(m.number)!);
      process.stdout.write(
        `  new read-model snapshot and its listeners (setChainState, synchronous on the request thread): p50 ${f1(pct(snapshotMs, 50))} ms, p99 ${f1(pct(snapshotMs, 99))} ms\n`,
      );
      process.stdout.write(`  ${cpuLine(r.phase.name, (r.phase.end - r.phase.start) / 1000, l.n)}\n`);
      process.stdout.write(`  ${perBlockLine(r, l.n)}\n`);
      figure(
        `/sor answers/s during blocks (k=${r.k})`,
        l.rate,
        `/s (p50 ${f1(l.p50)} ms, n=${l.n}, non-200 ${l.failed})`,
      );
      const baseRate = (loadOf(answers, r.around[0]).rate + loadOf(answers, r.around[1]).rate) / 2;
      figure(`  share of the rate without blocks (k=${r.k})`, (100 * l.rate) / baseRate, '%', { op: '>=', value: 80 });
      process.stdout.write(
        `    (against ${f1(baseRate)} answers/s: the stretches without blocks just before and after)\n`,
      );
      figure(`  /sor p99 during blocks (k=${r.k})`, l.p99, 'ms', { op: '<', value: 50 });
    }
    process.stdout.write(
      `\nprobe /sor answers that failed: ${probeFailures}\nmachine load average at the end: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} on ${cpus().length} CPUs (other processes share them)\n`,
    );
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  }
}
