import { curlCommands, docFiles, isDemoCommand, sentences, shapeMismatch } from './docText';

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

describe('the doc readers themselves', () => {
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
