import { Writable } from 'node:stream';
import request from 'supertest';
import { loadConfig } from '../../src/config/env';
import { createLogger } from '../../src/log/logger';
import { createContext, startServer } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return {
    stream,
    lines: () =>
      text
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

async function serve(debug: boolean) {
  const out = capture();
  const logger = createLogger({ debug, destination: out.stream });
  const ctx = await createContext(loadConfig({ NETWORKS: '1' }), { logger, store: new SqliteStore(':memory:', 0) });
  const srv = await startServer(ctx, 0, { host: '127.0.0.1', features: [] });
  return { srv, out };
}

describe('logs', () => {
  test('one JSON line per request with severity, request id and latency', async () => {
    const { srv, out } = await serve(false);
    try {
      const res = await request(srv.url).get('/pools/1').set('X-Request-Id', 'req-123').expect(200);
      expect(res.headers['x-request-id']).toBe('req-123');
      await request(srv.url).get('/pools/abc').expect(400);
      await new Promise((r) => setTimeout(r, 20));
      const access = out.lines().filter((l) => l.message === 'request');
      expect(access[0]).toMatchObject({
        severity: 'INFO',
        requestId: 'req-123',
        method: 'GET',
        path: '/pools/1',
        status: 200,
      });
      expect(typeof access[0]!.latencyMs).toBe('number');
      expect(access[1]).toMatchObject({ severity: 'WARNING', status: 400 });
      expect(typeof access[1]!.requestId).toBe('string');
      expect(out.lines().some((l) => l.severity === 'DEBUG')).toBe(false);
    } finally {
      await srv.close();
    }
  });

  test('DEBUG turns on debug lines', async () => {
    const { srv, out } = await serve(true);
    try {
      await request(srv.url).get('/healthz').expect(200);
      expect(out.lines().some((l) => l.severity === 'DEBUG' && l.message === 'read model loaded')).toBe(true);
    } finally {
      await srv.close();
    }
  });
});
