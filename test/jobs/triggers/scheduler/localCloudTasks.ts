import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Cloud Tasks REST API (v2 `projects.locations.queues.tasks.create`),
 * the protocol the client speaks in HTTP/1 fallback mode. It records every request and refuses a
 * second task with the same name like the real API (409 ALREADY_EXISTS).
 */
export interface RecordedCreateTask {
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: { task: Record<string, unknown> & { name?: string } };
}

export interface LocalCloudTasks {
  readonly port: number;
  readonly requests: RecordedCreateTask[];
  /** Makes the next create calls fail with this HTTP status (e.g. 503). */
  failWith(status: number | undefined): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const STATUS_NAMES: Record<number, string> = {
  409: 'ALREADY_EXISTS',
  503: 'UNAVAILABLE',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
};

export async function startLocalCloudTasks(): Promise<LocalCloudTasks> {
  const requests: RecordedCreateTask[] = [];
  const names = new Set<string>();
  let failure: number | undefined;
  const server: Server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const path = (req.url ?? '').split('?')[0] ?? '';
      res.setHeader('content-type', 'application/json');
      const error = (status: number, message: string) => {
        res.statusCode = status;
        res.end(JSON.stringify({ error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } }));
      };
      if (req.method !== 'POST' || !/^\/v2\/projects\/[^/]+\/locations\/[^/]+\/queues\/[^/]+\/tasks$/.test(path)) {
        return error(404, `no such method ${req.method} ${path}`);
      }
      const body = JSON.parse(raw) as RecordedCreateTask['body'];
      requests.push({ path, authorization: req.headers.authorization, body });
      if (failure !== undefined) return error(failure, 'the queue is unavailable');
      const name = body.task.name;
      if (name !== undefined) {
        if (names.has(name)) return error(409, 'Requested entity already exists');
        names.add(name);
      }
      res.end(JSON.stringify({ ...body.task, createTime: new Date().toISOString() }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    failWith: (status) => {
      failure = status;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
