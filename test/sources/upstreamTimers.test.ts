import { createHook } from 'node:async_hooks';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestJson, UpstreamError } from '../../src/sources/upstream';

/**
 * An upstream's answer leaves nothing waiting for the rest of its timeout: a followed chain makes
 * several calls a second, and timers kept for each call's whole timeout filled the main heap.
 * The timeout itself still holds.
 */
describe('requestJson timers', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/slow') return void setTimeout(() => res.end('{}'), 2000);
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  test('300 answered calls leave no timer waiting', async () => {
    const live = new Set<number>();
    const hook = createHook({
      init: (id, type) => {
        if (type === 'Timeout') live.add(id);
      },
      destroy: (id) => {
        live.delete(id);
      },
    }).enable();
    try {
      for (let k = 0; k < 300; k += 10) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () => requestJson<{ ok: boolean }>('test upstream', { url, timeoutMs: 60_000 })),
        );
        expect(answers.every((a) => a.body.ok)).toBe(true);
      }
      // Destroy hooks run after the current tick.
      for (let k = 0; k < 5; k++) await new Promise((r) => setImmediate(r));
    } finally {
      hook.disable();
    }
    // Keep-alive sockets (both ends) hold a few timers; the calls' own timeouts are gone.
    expect(live.size).toBeLessThan(100);
  });

  test('a call past its timeout still fails naming it', async () => {
    const failure = await requestJson('test upstream', { url: `${url}/slow`, timeoutMs: 200 }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect((failure as Error).message).toBe('test upstream: no answer within 200 ms');
  });
});
