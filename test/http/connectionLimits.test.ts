import { connect } from 'node:net';
import { JSON_BODY_LIMIT_BYTES } from '../../src/http/app';
import { startTestServer, TestServer } from '../helpers/testServer';

/**
 * What a client that sends too much, too slowly or not HTTP at all gets: a JSON error at once (or
 * at the configured timeout), on a connection the server then closes. Spoken over raw sockets,
 * since an HTTP client would not send these requests.
 */
interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** When the answer's first byte arrived, from the connection's start. */
  readonly answeredMs: number;
  /** Whether the server closed the connection (within `waitMs`). */
  readonly closed: boolean;
}

function rawExchange(url: string, request: string | Buffer, waitMs = 5_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let answeredMs = -1;
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0)
        return reject(new Error(`no HTTP answer within ${waitMs} ms (got ${JSON.stringify(text.slice(0, 200))})`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine?.split(' ')[1]), headers, body: text.slice(split + 4), answeredMs, closed });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (d: Buffer) => {
      if (answeredMs < 0) answeredMs = Date.now() - started;
      chunks.push(d);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    socket.write(request);
  });
}

const post = (path: string, headers: string, body = '') =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n${body}`;

describe('connection limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      ROUTER_WORKERS: '0',
      HTTP_REQUEST_TIMEOUT_SECONDS: '1',
      HTTP_HEADERS_TIMEOUT_SECONDS: '0.5',
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each([
    ['just over the JSON limit', String(JSON_BODY_LIMIT_BYTES + 1)],
    ['40000', '40000'],
    ['99999999999', '99999999999'],
  ])(
    'answers a declared Content-Length %s with 413 JSON at once, without waiting for the body, and closes the connection',
    async (_what, declared) => {
      const answer = await rawExchange(
        server.url,
        post('/sor/1', `Content-Type: application/json\r\nContent-Length: ${declared}\r\n`, '{"sellToken":'),
        3_000,
      );
      expect(answer.status).toBe(413);
      expect(answer.headers['content-type']).toMatch(/application\/json/);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toEqual({
        error: `request body too large (Content-Length ${declared}, limit ${JSON_BODY_LIMIT_BYTES} bytes); send a smaller JSON body`,
        code: 413,
        reason: 'BODY_TOO_LARGE',
        details: { limitBytes: JSON_BODY_LIMIT_BYTES },
      });
      expect(answer.answeredMs).toBeLessThan(500);
      expect(answer.closed).toBe(true);
    },
  );

  it('still takes a body of exactly the limit', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(JSON_BODY_LIMIT_BYTES - 10) });
    expect(Buffer.byteLength(body)).toBe(JSON_BODY_LIMIT_BYTES);
    const answer = await rawExchange(
      server.url,
      post('/sor/1', `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n`, body),
    );
    // Read and judged by the route: a 400 about the fields, not a 413.
    expect(answer.status).toBe(400);
  });

  it('answers a body that stalls with 408 JSON at the request timeout (HTTP_REQUEST_TIMEOUT_SECONDS) and closes the connection', async () => {
    const answer = await rawExchange(
      server.url,
      post('/sor/1', 'Content-Type: application/json\r\nContent-Length: 100\r\n', '{"sellToken":'),
      4_000,
    );
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual({
      error: expect.stringMatching(/not received in full in time/),
      code: 408,
      reason: 'REQUEST_TIMEOUT',
    });
    expect(answer.headers.connection).toBe('close');
    expect(answer.answeredMs).toBeGreaterThanOrEqual(900);
    expect(answer.answeredMs).toBeLessThan(2_500);
    expect(answer.closed).toBe(true);
  });

  it('answers headers that stall with 408 JSON at the headers timeout (HTTP_HEADERS_TIMEOUT_SECONDS)', async () => {
    const answer = await rawExchange(server.url, 'GET /pools/1 HTTP/1.1\r\nHost: localhost\r\nX-Slow: ', 4_000);
    expect(answer.status).toBe(408);
    expect(answer.answeredMs).toBeGreaterThanOrEqual(400);
    expect(answer.answeredMs).toBeLessThan(1_500);
    expect(answer.closed).toBe(true);
  });

  it('answers 100 KB of headers with 431 JSON naming the limit', async () => {
    const answer = await rawExchange(
      server.url,
      `GET /pools/1 HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`,
    );
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    expect(answer.headers.connection).toBe('close');
    expect(JSON.parse(answer.body)).toEqual({
      error: expect.stringMatching(
        /^request headers too large \(limit \d+ bytes in all\); send fewer or shorter headers/,
      ),
      code: 431,
      reason: 'HEADERS_TOO_LARGE',
    });
    expect(answer.closed).toBe(true);
  });

  it.each([
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
    ['a header without a colon', 'GET /pools/1 HTTP/1.1\r\nHost: localhost\r\nbroken header\r\n\r\n'],
    ['both Content-Length and chunked', post('/sor/1', 'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n', '{}')],
  ])('answers %s with 400 JSON', async (_what, request) => {
    const answer = await rawExchange(server.url, request);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error: expect.stringMatching(/^malformed HTTP request \(HPE_\w+\); send a valid HTTP\/1.1 request/),
      code: 400,
      reason: 'BAD_REQUEST',
    });
    expect(answer.closed).toBe(true);
  });

  it('answers a request without a Host header with 400 JSON naming the header', async () => {
    const answer = await rawExchange(server.url, 'GET /pools/1 HTTP/1.1\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(answer.body)).toEqual({
      error: expect.stringMatching(/^missing Host header; HTTP\/1.1 requests must send one/),
      code: 400,
      reason: 'BAD_REQUEST',
    });
    expect(answer.closed).toBe(true);
    // HTTP/1.0 has no Host requirement.
    const old = await rawExchange(server.url, 'GET /healthz HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);
  });

  it('answers an Expect header other than 100-continue with 417 JSON naming it', async () => {
    const answer = await rawExchange(
      server.url,
      'GET /pools/1 HTTP/1.1\r\nHost: localhost\r\nExpect: 999-nope\r\n\r\n',
    );
    expect(answer.status).toBe(417);
    expect(answer.headers['content-type']).toMatch(/application\/json/);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'Expect: 999-nope is not supported (only Expect: 100-continue is); send the request without that header',
      code: 417,
      reason: 'EXPECTATION_FAILED',
    });
  });

  it('still serves the next client', async () => {
    const res = await fetch(`${server.url}/pools/1`);
    expect(res.status).toBe(200);
  });
});

describe('JSON bodies sent as something else', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ROUTER_WORKERS: '0' });
  });
  afterAll(async () => {
    await server.close();
  });

  const quote = JSON.stringify({
    sellToken: `0x${'1'.repeat(40)}`,
    buyToken: `0x${'2'.repeat(40)}`,
    orderKind: 'sell',
    amount: '1',
    gasPrice: '1',
  });

  it.each([
    ['/sor/1', 'text/plain;charset=UTF-8'],
    ['/order/1', 'text/plain'],
    ['/sor/1', 'application/x-www-form-urlencoded'],
    ['/simulator/simulate', 'text/plain'],
  ])('POST %s with %s answers 415 naming Content-Type: application/json', async (path, type) => {
    const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': type }, body: quote });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({
      error: `POST ${path} takes a JSON body with Content-Type: application/json (got Content-Type: ${type}); send that header`,
      code: 415,
      reason: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });

  it('answers 415 to a body without Content-Type', async () => {
    const answer = await rawExchange(
      server.url,
      post('/order/1', `Content-Length: ${quote.length}\r\nConnection: close\r\n`, quote),
    );
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body)).toEqual({
      error:
        'POST /order/1 takes a JSON body with Content-Type: application/json (got no Content-Type); send that header',
      code: 415,
      reason: 'UNSUPPORTED_MEDIA_TYPE',
    });
  });

  it('leaves requests without a body and JSON bodies to the routes', async () => {
    const empty = await fetch(`${server.url}/sor/1`, { method: 'POST' });
    expect(empty.status).toBe(400);
    const json = await fetch(`${server.url}/sor/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '[]',
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as { error: string }).error).not.toMatch(/Content-Type/);
  });
});
