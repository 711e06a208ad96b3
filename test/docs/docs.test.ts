import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { dirname, join, normalize } from 'node:path';
import {
  curlCommands,
  docFiles,
  headingAnchors,
  isDemoCommand,
  raggedRows,
  relativeLinks,
  ROOT,
  runAgainst,
  sentences,
  shapeMismatch,
} from './docText';

/**
 * The docs as a newcomer reads them: short sentences, a README that starts with something to run,
 * and curl commands that target the demo (`test/e2e/demo.test.ts` sends each one to a running
 * demo and checks its answer against the example the docs show).
 */
const FILES = docFiles();
const README = FILES.find((f) => f.path === 'README.md')!;

test('no sentence in the README or docs/*.md runs over 60 words', () => {
  const long = FILES.flatMap((f) =>
    sentences(f.text)
      .filter((s) => s.words > 60)
      .map((s) => `${f.path}:${s.line} (${s.words} words): ${s.text.slice(0, 80)}...`),
  );
  expect(long).toEqual([]);
});

test('the README stays short and shows a curl within its first 60 lines', () => {
  const lines = README.text.split('\n');
  expect(lines.length).toBeLessThanOrEqual(350);
  const firstCurl = lines.findIndex((l) => /(^|`)\s*curl /.test(l));
  expect(firstCurl).toBeGreaterThanOrEqual(0);
  expect(firstCurl + 1).toBeLessThanOrEqual(60);
});

test('every curl of the docs targets the demo, or a placeholder host for a real deployment', () => {
  const commands = FILES.flatMap(curlCommands);
  expect(commands.length).toBeGreaterThan(30);
  const stray = commands
    .filter((c) => !isDemoCommand(c) && !/^https?:\/\/<[^>]+>/.test(c.url))
    .map((c) => `${c.file}:${c.line} ${c.url}`);
  expect(stray).toEqual([]);
  // The demo serves chain 31337 alone; a chain id in a demo command's path must be that one,
  // unless the command shows the error another chain gets.
  const otherChain = commands
    .filter((c) => isDemoCommand(c) && c.status === undefined)
    .filter((c) => /^\/(pools|tokens|sor|order)\/\d+/.test(new URL(c.url).pathname))
    .filter((c) => !/^\/(pools|tokens|sor|order)\/31337(\/|$)/.test(new URL(c.url).pathname))
    .map((c) => `${c.file}:${c.line} ${c.url}`);
  expect(otherChain).toEqual([]);
  // A JSON body must be JSON, or the demo test's 400 would say little.
  const badBodies = commands
    .filter((c) => c.body !== undefined && c.headers['content-type'] === 'application/json')
    .filter((c) => {
      try {
        JSON.parse(c.body!);
        return false;
      } catch {
        return true;
      }
    })
    .map((c) => `${c.file}:${c.line}`);
  expect(badBodies).toEqual([]);
});

test("every endpoint in the README's table has a command and an answer", () => {
  const table = curlCommands(README).filter((c) => !README.text.split('\n')[c.line - 1]!.startsWith('```'));
  const paths = new Set(table.map((c) => `${c.method} ${new URL(c.url).pathname.replace(/\/31337\b.*/, '/31337')}`));
  for (const p of [
    'GET /healthz',
    'GET /readyz',
    'GET /pools/31337',
    'GET /tokens/31337',
    'POST /pools/31337',
    'POST /tokens/update/',
    'POST /sor/31337',
    'POST /order/31337',
    'POST /graphql',
    'GET /check-wallet',
    'POST /simulator/simulate',
  ])
    expect([p, paths.has(p)]).toEqual([p, true]);
});

test('every relative link points at a file of the repository, and at a heading it has', () => {
  const broken: string[] = [];
  for (const f of FILES)
    for (const { line, target } of relativeLinks(f)) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? f.path : normalize(join(dirname(f.path), path));
      if (!existsSync(join(ROOT, file))) broken.push(`${f.path}:${line} ${target}: no file ${file}`);
      else if (anchor !== undefined) {
        const doc = FILES.find((d) => d.path === file);
        if (doc && !headingAnchors(doc.text).has(anchor)) broken.push(`${f.path}:${line} ${target}: no heading`);
      }
    }
  expect(broken).toEqual([]);
});

test('every table row has as many cells as its header', () => {
  const ragged = FILES.flatMap((f) =>
    raggedRows(f.text).map((r) => `${f.path}:${r.line}: ${r.cells} cells, header has ${r.header}`),
  );
  expect(ragged).toEqual([]);
});

describe('the doc readers themselves', () => {
  test('a documented curl whose answer differs from the docs is reported', async () => {
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/gone' ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok', chains: [] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const text = [
      '```sh',
      'curl -s http://127.0.0.1:8090/healthz',
      '# {"status":"ok"}',
      'curl -s http://127.0.0.1:8090/readyz',
      '# {"status":"ready","store":"ok"}',
      'curl -s http://127.0.0.1:8090/gone',
      '```',
    ].join('\n');
    try {
      const problems = await Promise.all(curlCommands({ path: 'x.md', text }).map((c) => runAgainst(origin, c)));
      expect(problems[0]).toBeUndefined();
      expect(problems[1]).toMatch(/^x\.md:4 GET \/readyz: \$\.store: missing/);
      expect(problems[2]).toMatch(/^x\.md:6 GET \/gone: status 404, expected 200/);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  test('anchors are as GitHub makes them', () => {
    expect([...headingAnchors('# A `b` c\n## Quotes: `POST /sor/{chainId}`\n### Request\n### Request\n')]).toEqual([
      'a-b-c',
      'quotes-post-sorchainid',
      'request',
      'request-1',
    ]);
  });

  test('sentences split at stops, list items and table cells; a code span is one word', () => {
    const md = [
      'One two three. Four `a b c d` five.',
      '- an item without a stop',
      '- another one',
      '',
      '| a | b c |',
      '|---|---|',
      '| one two | three. Four five |',
      '```sh',
      'curl -s this is code and never counted as words at all',
      '```',
    ].join('\n');
    expect(sentences(md).map((s) => s.words)).toEqual([3, 3, 5, 2, 1, 2, 2, 1, 2]);
  });

  test('a curl reads as its method, URL, headers, body and promised answer', () => {
    const text = [
      '```sh',
      "curl -s -X POST 'http://127.0.0.1:8090/sor/31337' -H 'content-type: application/json' \\",
      '  -d \'{"a":1}\'   # 400',
      '# {"code":400}',
      "curl -s -G http://127.0.0.1:8090/graphql --data-urlencode 'query={ x }'",
      '```',
      '| `GET /healthz` | `curl -s http://127.0.0.1:8090/healthz` | `{"status":"ok"}` |',
    ].join('\n');
    const [post, get, row] = curlCommands({ path: 'x.md', text });
    expect(post).toMatchObject({
      method: 'POST',
      url: 'http://127.0.0.1:8090/sor/31337',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
      status: 400,
      example: { code: 400 },
    });
    expect(get).toMatchObject({ method: 'GET', url: 'http://127.0.0.1:8090/graphql?query=%7B%20x%20%7D' });
    expect(row).toMatchObject({ method: 'GET', url: 'http://127.0.0.1:8090/healthz', example: { status: 'ok' } });
  });

  test('an answer has the example shape when it holds every member the example shows', () => {
    expect(shapeMismatch({ a: '1', b: [{ c: 2 }] }, { a: 'x', b: [{ c: 5, d: 1 }], e: 0 })).toBeUndefined();
    expect(shapeMismatch({ a: '1' }, { a: 1 })).toBe('$.a: expected a string');
    expect(shapeMismatch({ b: [{ c: 2 }] }, { b: [] })).toBe('$.b: expected a non-empty array');
    expect(shapeMismatch({ x: null }, {})).toBe('$.x: missing');
  });
});
