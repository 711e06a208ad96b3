import { spawn, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { MAINNET } from '../helpers/snapshot';
import { QUOTE_CASES, type QuoteCase } from './quoteCases';
import { figure } from './lib/report';

/**
 * `npm run bench -- poolChurn`: quotes while pools change, on ten copies of the mainnet snapshot
 * sharing its hubs (3,720 pools, churnServer.ts, the service in its own process).
 *  - A closed-loop load of distinct /sor quotes (8 connections; the 44-request mix, and the same
 *    with its tokens that are not hubs taken from another copy; a few wei more each round so no
 *    quote cache answers).
 *  - After one unmeasured stretch (warm-up), stretches of BENCH_SECONDS (default 10) without
 *    changes, with one pool changing every BENCH_CHURN_MS (default 250) through the pool update
 *    (the subgraph's changed pool, the store's commit, the read model's reload, the quote
 *    threads' new version), without again.
 *  - Answers/s during the changes against the stretches beside it (target >= 80 %), p50/p99,
 *    and the update's own p50/p99.
 */
const CONNECTIONS = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const COPY = 7;

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pct(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}

/** The mix, and the same with every token that is not a hub taken from copy `COPY`. */
function quoteMix(): QuoteCase[] {
  const hubs = new Set<string>(Object.values(MAINNET));
  const prefix = COPY.toString(16).padStart(2, '0');
  const map = (a: string) => (hubs.has(a) ? a : `0x${prefix}${a.slice(4)}`);
  const copied = QUOTE_CASES.filter((c) => !hubs.has(c.sellToken) || !hubs.has(c.buyToken)).map((c) => ({
    ...c,
    name: `${c.name} (copy ${COPY})`,
    sellToken: map(c.sellToken),
    buyToken: map(c.buyToken),
  }));
  return [...QUOTE_CASES, ...copied];
}

interface Answer {
  readonly ok: boolean;
  readonly ms: number;
  readonly end: number;
}

async function postSor(url: string, c: QuoteCase): Promise<Answer> {
  const t = performance.now();
  const res = await fetch(`${url}/sor/1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(c),
  });
  await res.arrayBuffer();
  const end = performance.now();
  return { ok: res.status === 200, ms: end - t, end };
}

async function startChurnServer(): Promise<{ url: string; pools: number; child: ChildProcess; lines: string[] }> {
  // BENCH_SERVICE_PROF=<dir>: the service writes a V8 CPU profile per thread there when it stops.
  const prof = process.env.BENCH_SERVICE_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVICE_PROF}`] : [];
  const child = spawn(process.execPath, [...process.execArgv, ...prof, join(__dirname, 'churnServer.ts')], {
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
        const m = /^READY (\S+) (\d+)/.exec(line);
        if (m) resolve({ url: m[1]!, pools: Number(m[2]), child, lines });
      }
    });
    child.once('exit', (code) => reject(new Error(`churn server exited with ${code}`)));
  });
}

export async function run(): Promise<void> {
  const server = await startChurnServer();
  try {
    const mix = quoteMix();
    for (const c of mix) await postSor(server.url, c);
    const answers: Answer[] = [];
    let stop = false;
    let next = 0;
    const load = Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (!stop) {
          const i = next++;
          const c = mix[i % mix.length]!;
          const round = Math.floor(i / mix.length) + 1;
          answers.push(await postSor(server.url, { ...c, amount: (BigInt(c.amount) + BigInt(round)).toString() }));
        }
      }),
    );
    const stretch = async () => {
      const start = performance.now();
      await sleep(SECONDS * 1000);
      return { start, end: performance.now() };
    };
    const of = (s: { start: number; end: number }) => {
      const inside = answers.filter((a) => a.end >= s.start && a.end < s.end);
      return {
        rate: (inside.length / (s.end - s.start)) * 1000,
        p50: pct(
          inside.map((a) => a.ms),
          50,
        ),
        p99: pct(
          inside.map((a) => a.ms),
          99,
        ),
        failed: inside.filter((a) => !a.ok).length,
        n: inside.length,
      };
    };
    // One stretch unmeasured first: a cold stretch (the threads' compilers, each pair's first
    // search) is slower than the steady rate the changes are held against.
    await stretch();
    const before = await stretch();
    server.child.stdin!.write('churn\n');
    const during = await stretch();
    server.child.stdin!.write('still\n');
    while (!server.lines.some((l) => l.startsWith('UPDATES'))) await sleep(20);
    const after = await stretch();
    stop = true;
    await load;
    const updates = server.lines
      .find((l) => l.startsWith('UPDATES'))!
      .slice('UPDATES '.length)
      .split(',')
      .filter((x) => x !== '')
      .map(Number);

    process.stdout.write(
      `service: own process, ROUTER_WORKERS=${process.env.ROUTER_WORKERS ?? 'default'}; ${server.pools} pools; load: ${CONNECTIONS} connections of distinct /sor (${mix.length} requests in the mix)\n`,
    );
    const [b, d, a] = [of(before), of(during), of(after)];
    for (const [name, s] of [
      ['without changes, before', b],
      ['one pool changing', d],
      ['without changes, after', a],
    ] as const)
      process.stdout.write(
        `/sor ${name}: ${f1(s.rate)} answers/s  p50 ${f1(s.p50)} ms  p99 ${f1(s.p99)} ms  (n=${s.n}, non-200 ${s.failed})\n`,
      );
    figure(
      `pool updates during the stretch (${updates.length})`,
      pct(updates, 50),
      `ms p50, p99 ${f1(pct(updates, 99))} ms`,
    );
    figure('/sor answers/s while one pool changes', d.rate, '/s');
    figure('  share of the rate without changes', (100 * d.rate) / ((b.rate + a.rate) / 2), '%', {
      op: '>=',
      value: 80,
    });
    process.stdout.write(
      `machine load average at the end: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} on ${cpus().length} CPUs (other processes share them)\n`,
    );
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
  }
}
