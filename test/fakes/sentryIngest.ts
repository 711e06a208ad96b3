import { gunzipSync } from 'node:zlib';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for a Sentry ingest endpoint: accepts envelopes at `/api/<project>/envelope/`
 * (gzip or plain), keeps the `event` items, and answers 200 like the real one.
 * Use `dsn` as ERRORTRACKER_DSN.
 */
export interface IngestedEvent {
  readonly event_id?: string;
  readonly tags?: Record<string, string>;
  readonly exception?: { values?: { type?: string; value?: string }[] };
  readonly [key: string]: unknown;
}

export interface FakeSentryIngest {
  readonly dsn: string;
  readonly events: IngestedEvent[];
  /** Every raw envelope body as received (to search for leaked secrets). */
  readonly rawEnvelopes: string[];
  waitForEvents(count: number, timeoutMs?: number): Promise<IngestedEvent[]>;
  close(): Promise<void>;
}

export async function startFakeSentryIngest(publicKey = 'publickey', projectId = '1'): Promise<FakeSentryIngest> {
  const events: IngestedEvent[] = [];
  const rawEnvelopes: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith(`/api/${projectId}/envelope/`)) {
        res.writeHead(404).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const text = body.toString('utf8');
      rawEnvelopes.push(text);
      // Envelope: a header line, then (item header line, item payload line) pairs.
      const lines = text.split('\n').filter((l) => l !== '');
      for (let i = 1; i + 1 < lines.length; i += 2) {
        const itemHeader = JSON.parse(lines[i] as string) as { type?: string };
        if (itemHeader.type === 'event') events.push(JSON.parse(lines[i + 1] as string) as IngestedEvent);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    dsn: `http://${publicKey}@127.0.0.1:${port}/${projectId}`,
    events,
    rawEnvelopes,
    async waitForEvents(count, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (events.length < count && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      return events;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
