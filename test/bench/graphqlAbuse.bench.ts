import { getIntrospectionQuery, parse, specifiedRules, validate } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { maxDepthRule } from '../../src/graphql/depthLimit';
import { DEFAULT_DOCUMENT_LIMITS, documentShapeErrors } from '../../src/graphql/documentShape';
import { estimateQueryCost } from '../../src/graphql/queryCost';
import { schemaSdl } from '../../src/graphql/schemaSdl';
import { SqliteStore } from '../../src/store/sqliteStore';
import { syntheticPools } from '../fakes/syntheticPools';
import { seedStore } from '../helpers/testServer';
import { figure } from './lib/report';
import { startServerProcess } from './lib/serverProcess';

/**
 * GraphQL documents built to exhaust the service, each sent while `/healthz` is polled every
 * 5 ms: how long the service takes to refuse (or answer) the document, and the slowest `/healthz`
 * answer meanwhile. Targets: refused within 1 s, `/healthz` under 100 ms. Yoga caches the parse
 * and validation of a document text it has seen, so each request carries a fresh comment to be
 * parsed and validated anew, as an attacker's would. On a shared machine the `/healthz` figure
 * includes the scheduler's noise, printed first as the baseline (trivial queries). So, in process
 * first: how long the main thread is held by parsing and checking each document (the fastest of
 * 20 runs: the cost without other processes competing for the CPU).
 */

function fanOut(levels: number): string {
  const fragments = ['fragment F0 on Query { __typename }'];
  for (let i = 1; i <= levels; i++) fragments.push(`fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`);
  return `{ ...F${levels} } ${fragments.join(' ')}`;
}

/** The widest selection the limits let through: 250 fields side by side, all the same. */
function widestSelection(): string {
  return `{ ${'__typename '.repeat(250)}}`;
}

/** 5 fragments of 50 fields spread side by side: 250 fields the overlap rule compares pairwise. */
function fragmentsSideBySide(count: number, fields: number): string {
  const names = Array.from({ length: count }, (_, i) => `W${i}`);
  const body = Array.from({ length: fields }, () => '__typename').join(' ');
  return `{ ${names.map((n) => `...${n}`).join(' ')} } ${names.map((n) => `fragment ${n} on Query { ${body} }`).join(' ')}`;
}

const CASES: readonly [string, string][] = [
  ['fragment fan-out, 24 levels (1 KB)', fanOut(24)],
  ['fragment fan-out, 60 levels (2.7 KB)', fanOut(60)],
  [
    '1,000 aliases of __schema (30 KB)',
    `{ ${Array.from({ length: 1000 }, (_, i) => `s${i}: __schema { types { name fields { name } } }`).join(' ')} }`,
  ],
  [
    '100 aliases of __schema (3.4 KB)',
    `{ ${Array.from({ length: 100 }, (_, i) => `s${i}: __schema { types { name } }`).join(' ')} }`,
  ],
  ['__typename 740 times side by side (8 KB)', `{ ${'__typename '.repeat(740)}}`],
  ['7 fragments of 100 fields side by side (7.9 KB)', fragmentsSideBySide(7, 100)],
  ['__typename 250 times side by side (accepted)', widestSelection()],
  ['5 fragments of 50 fields side by side (accepted)', fragmentsSideBySide(5, 50)],
  ['full introspection query (accepted)', getIntrospectionQuery()],
];

async function timed(url: string, init?: RequestInit): Promise<{ ms: number; status: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(url, init);
  const bytes = (await res.arrayBuffer()).byteLength;
  return { ms: performance.now() - t0, status: res.status, bytes };
}

/** Parse, the shape check, then (if it passes) graphql's rules with the depth limit, and the cost. */
function checkInProcess(): void {
  const schema = createSchema({ typeDefs: schemaSdl() });
  const rules = [...specifiedRules, maxDepthRule(10)];
  for (const [label, query] of CASES) {
    if (query.length > DEFAULT_DOCUMENT_LIMITS.maxLength) {
      process.stdout.write(`${label}: refused on its length before parsing\n`);
      continue;
    }
    const times: number[] = [];
    let refused = false;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const doc = parse(query);
      refused = documentShapeErrors(doc, DEFAULT_DOCUMENT_LIMITS).length > 0;
      if (!refused) {
        validate(schema, doc, rules);
        estimateQueryCost(schema, doc, null, {});
      }
      times.push(performance.now() - t0);
    }
    figure(`${label}: ${refused ? 'refused' : 'checked'} in (fastest)`, Math.min(...times), 'ms', {
      op: '<',
      value: 50,
    });
  }
}

export async function run(): Promise<void> {
  checkInProcess();
  const dir = mkdtempSync(join(tmpdir(), 'bps-bench-graphql-abuse-'));
  const store = new SqliteStore(join(dir, 'balancer-pools.sqlite'), 0);
  await seedStore(store, 1, syntheticPools(100, { seed: 'graphql-abuse-bench' }) as unknown[]);
  await store.close();
  const server = await startServerProcess({
    NETWORKS: '1',
    DATA_DIR: dir,
    UPDATE_POOLS_INTERVAL_IN_MINUTES: '0',
    DECORATE_POOLS_INTERVAL_IN_MINUTES: '0',
    PRICE_INTERVAL_SECONDS: '0',
    RATE_LIMIT_READS_PER_MINUTE: '0',
    RATE_LIMIT_QUOTES_PER_MINUTE: '0',
  });
  let sent = 0;
  const post = (query: string) =>
    timed(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `# ${sent++}\n${query}` }),
    });
  try {
    // Warm-up: the first requests of a process compile the code paths they take.
    for (let i = 0; i < 5; i++) for (const [, query] of CASES) await post(query);
    for (const [label, query] of [['baseline: { __typename }', '{ __typename }'], ...CASES] as const) {
      let polling = true;
      let slowestHealth = 0;
      const poll = (async () => {
        while (polling) {
          slowestHealth = Math.max(slowestHealth, (await timed(`${server.url}/healthz`)).ms);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const answers: number[] = [];
      let last = { status: 0, bytes: 0 };
      for (let i = 0; i < 5; i++) {
        const a = await post(query);
        answers.push(a.ms);
        last = a;
      }
      polling = false;
      await poll;
      answers.sort((x, y) => x - y);
      process.stdout.write(`${label}: HTTP ${last.status}, ${last.bytes} bytes\n`);
      figure(`  answer, median of 5`, answers[2] as number, 'ms', { op: '<', value: 1000 });
      figure(`  slowest /healthz meanwhile`, slowestHealth, 'ms', { op: '<', value: 100 });
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
