import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../e2e/helpers/randomOrders';
import { loadInThread, type LoadAnswer } from './lib/loadThread';
import { figure } from './lib/report';
import { threadsCpu, type ThreadCpu } from './lib/threadCpu';
import { QUOTE_CASES, type QuoteCase } from './quoteCases';
import { syntheticV3Universe, type SyntheticToken } from './v3SyntheticUniverse';

/**
 * `npm run bench -- v3Universe`: Balancer V3 at mainnet scale, on one server
 * (`v3UniverseServer.ts`, its own process): the V2 mainnet snapshot and beside it a synthetic V3
 * universe of 1,500 pools over 300 tokens and 80 ERC-4626 buffers, every pool a real vector's
 * state scaled and relabelled (`v3SyntheticUniverse.ts`).
 *  - universe build: from laying the V3 state over the snapshot to the first V3 answer;
 *  - distinct V3 `/sor` (48 pairs drawn once, half with a hub or a hub's ERC-4626 token on each
 *    side; a few wei more each round) and distinct V2 `/sor` (the 44-request mix), each alone at
 *    8 connections, answers/s;
 *  - V2 `/sor` and `GET /healthz` p99 probed one request at a time, unloaded and while V3 `/sor`
 *    is saturated (8 connections); the loads run on their own thread (`lib/loadThread.ts`), so a
 *    probe does not wait behind the load's answers in the bench's event loop, and the two probes
 *    ask different amounts, so the second reads nothing the first cached;
 *  - the first V3 quote after a block that changes one V3 pool, and one buffer (each a new block
 *    12 s on, so the time-dependent pools are priced again too), median of BENCH_CHANGES (10);
 *    and after one pool changed at the same block time (the change alone);
 *  - server RSS at the end;
 *  - where the cores went during the saturated probe: per thread, from `/proc` (`lib/threadCpu.ts`).
 * The last line is the figures as JSON. Env: BENCH_SECONDS (10 per load stretch, twice that per
 * probe), ROUTER_WORKERS.
 */

const CONNECTIONS = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 10);
/** The p99 probes run twice as long as a load stretch: among about 300 answers, the p99 is the 3rd slowest. */
const PROBE_SECONDS = 2 * SECONDS;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');

function pct(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

interface Server {
  readonly url: string;
  readonly pools: number;
  readonly buffers: number;
  readonly buildMs: number;
  readonly child: ChildProcess;
  readonly lines: string[];
}

async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, [...process.execArgv, join(__dirname, 'v3UniverseServer.ts')], {
    env: process.env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const parts = buf.split('\n');
      buf = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        const m = /^READY (\S+) (\d+) (\d+) (\S+)/.exec(line);
        if (m) resolve({ url: m[1]!, pools: Number(m[2]), buffers: Number(m[3]), buildMs: Number(m[4]), child, lines });
      }
    });
    child.once('exit', (code) => reject(new Error(`V3 universe server exited with ${code}`)));
  });
}

async function post(url: string, path: string, body: unknown): Promise<LoadAnswer> {
  const t = performance.now();
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return {
    ok: res.status === 200,
    routed: !text.includes('"paths":[]') && !text.includes('"swaps":[]'),
    ms: performance.now() - t,
  };
}

async function healthz(url: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(`${url}/healthz`);
  await res.arrayBuffer();
  return performance.now() - t;
}

/** 48 V3 pairs, each side a hub or a hub's ERC-4626 token half the time; a unit of the token given. */
function v3Mix(): QuoteCase[] {
  const u = syntheticV3Universe();
  const random = seededRandom(7);
  const hubs = new Set(u.tokens.slice(0, 6).map((t) => t.address));
  const hubLike = u.tokens.filter(
    (t) => hubs.has(t.address) || hubs.has(u.buffers.get(t.address)?.underlyingToken ?? ''),
  );
  const pick = (xs: readonly SyntheticToken[]) => xs[Math.floor(random() * xs.length)]!;
  const out: QuoteCase[] = [];
  while (out.length < 48) {
    const a = random() < 0.5 ? pick(hubLike) : pick(u.tokens);
    const b = random() < 0.5 ? pick(hubLike) : pick(u.tokens);
    if (a.address === b.address) continue;
    const kind = out.length % 2 === 0 ? 'sell' : 'buy';
    out.push({
      name: `V3 ${kind} ${a.address.slice(0, 8)}/${b.address.slice(0, 8)}`,
      sellToken: a.address,
      buyToken: b.address,
      orderKind: kind,
      amount: (10n ** BigInt((kind === 'sell' ? a : b).decimals)).toString(),
      gasPrice: out.length % 4 < 2 ? '0' : (20n * 10n ** 9n).toString(),
    });
  }
  return out;
}

/**
 * One request at a time for `seconds`: V2 `/sor` and `/healthz` alternating; their latencies. Each
 * `/sor` is `offset` plus a count wei more than its case, so a later probe given another offset
 * asks nothing an earlier one cached.
 */
async function probe(url: string, seconds: number, offset: bigint): Promise<{ sor: number[]; healthz: number[] }> {
  const sor: number[] = [];
  const health: number[] = [];
  const end = performance.now() + seconds * 1000;
  for (let i = 0; performance.now() < end; i++) {
    const c = QUOTE_CASES[i % QUOTE_CASES.length]!;
    sor.push((await post(url, '/sor/1', { ...c, amount: (BigInt(c.amount) + offset + BigInt(i)).toString() })).ms);
    health.push(await healthz(url));
    await sleep(20);
  }
  return { sor, healthz: health };
}

/** CPU used per second of `seconds`, in % of one core, by the threads of `pid` that `pick` keeps. */
function cpuPercent(
  before: Map<number, ThreadCpu>,
  after: Map<number, ThreadCpu>,
  seconds: number,
  pick: (tid: number, t: ThreadCpu) => boolean,
): number {
  let used = 0;
  for (const [tid, t] of after) if (pick(tid, t)) used += t.seconds - (before.get(tid)?.seconds ?? 0);
  return (used / seconds) * 100;
}

/**
 * Where the two cores go while V3 is saturated: the service's request thread, its quote threads
 * (the nice ones), its other threads (V8's collector helpers, libuv), and the bench's own client.
 */
function cpuShares(pid: number): () => string {
  const start = performance.now();
  const service = threadsCpu(pid);
  const bench = threadsCpu(process.pid);
  return () => {
    const seconds = (performance.now() - start) / 1000;
    const now = threadsCpu(pid);
    const share = (pick: (tid: number, t: ThreadCpu) => boolean) => cpuPercent(service, now, seconds, pick).toFixed(0);
    const client = cpuPercent(bench, threadsCpu(process.pid), seconds, () => true).toFixed(0);
    return `request thread ${share((tid) => tid === pid)}, quote threads ${share((tid, t) => tid !== pid && t.nice > 0)}, other service threads ${share((tid, t) => tid !== pid && t.nice <= 0)}, bench client ${client} (% of one core)`;
  };
}

function rssMiB(child: ChildProcess): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function changes(server: Server, command: 'pool' | 'buffer' | 'samePool'): Promise<number[]> {
  const out: number[] = [];
  for (let k = 0; k < CHANGES; k++) {
    const seen = server.lines.length;
    server.child.stdin!.write(`${command} ${k * 37}\n`);
    while (!server.lines.slice(seen).some((l) => l.startsWith('NEXT'))) await sleep(2);
    const [, ms, status] = server.lines
      .slice(seen)
      .find((l) => l.startsWith('NEXT'))!
      .split(' ');
    if (status !== '200') throw new Error(`the V3 quote after a changed ${command} answered ${status}`);
    out.push(Number(ms));
    await sleep(500);
  }
  return out;
}

export async function run(): Promise<void> {
  const mix = v3Mix();
  const server = await startServer();
  try {
    const url = server.url;
    // Every pair once (its candidates found on its thread), the V2 mix too.
    const first = await Promise.all(mix.map((c) => post(url, '/sor/1', { ...c, protocolVersion: 3 })));
    for (const c of QUOTE_CASES) await post(url, '/sor/1', c);
    const routed = first.filter((a) => a.routed).length;

    const unloaded = await probe(url, PROBE_SECONDS, 1_000_000n);
    const v2 = loadInThread(url, '/sor/1', QUOTE_CASES, {}, CONNECTIONS);
    await sleep(SECONDS * 1000);
    const v2Run = await v2.stop();
    const v3 = loadInThread(url, '/sor/1', mix, { protocolVersion: 3 }, CONNECTIONS);
    await sleep(SECONDS * 1000);
    const v3Run = await v3.stop();
    const saturated = loadInThread(url, '/sor/1', mix, { protocolVersion: 3 }, CONNECTIONS);
    const shares = cpuShares(server.child.pid!);
    const under = await probe(url, PROBE_SECONDS, 2_000_000n);
    const cpuUnder = shares();
    await saturated.stop();

    const poolChanges = await changes(server, 'pool');
    const bufferChanges = await changes(server, 'buffer');
    const sameTime = await changes(server, 'samePool');
    const rss = rssMiB(server.child);

    const rate = (r: { answers: LoadAnswer[]; seconds: number }) => r.answers.filter((a) => a.ok).length / r.seconds;
    const v2PerSec = rate(v2Run);
    const v3PerSec = rate(v3Run);
    const v2Unloaded = pct(unloaded.sor, 99);
    const v2Under = pct(under.sor, 99);
    const healthzUnder = pct(under.healthz, 99);
    process.stdout.write(
      `service: own process, ROUTER_WORKERS=${process.env.ROUTER_WORKERS ?? 'default'}; V2 mainnet snapshot + ${server.pools} V3 pools and ${server.buffers} buffers; V3 mix ${mix.length} pairs (${routed} route), V2 mix ${QUOTE_CASES.length} requests; ${CONNECTIONS} connections, ${SECONDS} s stretches\n`,
    );
    figure('V3 universe build (laid -> first V3 answer)', server.buildMs, 'ms');
    figure(
      'V2 /sor distinct, alone',
      v2PerSec,
      `answers/s, p50 ${f1(
        pct(
          v2Run.answers.map((a) => a.ms),
          50,
        ),
      )} ms`,
    );
    figure(
      'V3 /sor distinct, alone',
      v3PerSec,
      `answers/s, p50 ${f1(
        pct(
          v3Run.answers.map((a) => a.ms),
          50,
        ),
      )} ms`,
    );
    figure('  ratio V3 / V2', v3PerSec / v2PerSec, 'x', { op: '>=', value: 1 });
    figure('GET /healthz p99 unloaded', pct(unloaded.healthz, 99), 'ms');
    figure('GET /healthz p99 while V3 /sor is saturated', healthzUnder, 'ms', { op: '<', value: 20 });
    const spread = (xs: readonly number[]) =>
      `ms (p50 ${f1(pct(xs, 50))}, p90 ${f1(pct(xs, 90))}, ${xs.length} answers)`;
    figure('V2 /sor p99 one at a time, unloaded', v2Unloaded, spread(unloaded.sor));
    figure('V2 /sor p99 one at a time, V3 saturated', v2Under, spread(under.sor));
    figure('  ratio to unloaded', v2Under / v2Unloaded, 'x', { op: '<', value: 1.5 });
    figure(
      'next V3 quote after one changed pool',
      pct(poolChanges, 50),
      `ms median, max ${f1(Math.max(...poolChanges))} ms`,
      {
        op: '<',
        value: 50,
      },
    );
    figure(
      'next V3 quote after one changed buffer',
      pct(bufferChanges, 50),
      `ms median, max ${f1(Math.max(...bufferChanges))} ms`,
      { op: '<', value: 50 },
    );
    figure(
      '  the changed pool alone (same block time)',
      pct(sameTime, 50),
      `ms median, max ${f1(Math.max(...sameTime))} ms`,
    );
    figure('server RSS at the end', rss, 'MiB');
    process.stdout.write(`CPU while V3 is saturated: ${cpuUnder}\n`);
    process.stdout.write(
      `machine load average at the end: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} on ${cpus().length} CPUs (other processes share them)\n`,
    );
    const round = (n: number) => Math.round(n * 10) / 10;
    process.stdout.write(
      `${JSON.stringify({
        pools: server.pools,
        buffers: server.buffers,
        v3PerSec: round(v3PerSec),
        v2PerSec: round(v2PerSec),
        healthzP99Ms: round(healthzUnder),
        v2SorP99MsUnderV3: round(v2Under),
        nextV3QuoteMs: round(pct(poolChanges, 50)),
        nextV3QuoteAfterBufferMs: round(pct(bufferChanges, 50)),
        buildMs: round(server.buildMs),
        rssMiB: round(rss),
      })}\n`,
    );
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  }
}
