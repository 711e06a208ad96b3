import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

/**
 * A loopback JSON-RPC proxy that counts what a client asks a node: HTTP requests, the calls inside
 * them (a batch is one request, many calls), per method, and bytes each way. The benchmark puts
 * it between the service and the devnet's node to measure the head follower's RPC load.
 * WebSocket upgrades (a newHeads subscription) are piped to the node as they are, uncounted: the
 * follower reads over HTTP, which is what the counts are about.
 */
export interface RpcTally {
  requests: number;
  calls: number;
  bytesOut: number;
  bytesIn: number;
  /** Sum over requests of the time from the request's end to the node's whole answer (through the proxy). */
  nodeMs: number;
}

export interface RpcCounts extends RpcTally {
  /** Calls per method. */
  readonly byMethod: Map<string, number>;
  /** Requests by their first call's method (a head poll, a logs query, a batch of eth_calls). */
  readonly byRequest: Map<string, RpcTally>;
}

export interface CountingRpcProxy {
  readonly url: string;
  /** Counts since the proxy started (live: copy with `snapshot`). */
  readonly counts: RpcCounts;
  snapshot(): RpcCounts;
  close(): Promise<void>;
}

export function emptyCounts(): RpcCounts {
  return { requests: 0, calls: 0, bytesOut: 0, bytesIn: 0, nodeMs: 0, byMethod: new Map(), byRequest: new Map() };
}

function minus(a: RpcTally, b: RpcTally | undefined): RpcTally {
  return {
    requests: a.requests - (b?.requests ?? 0),
    calls: a.calls - (b?.calls ?? 0),
    bytesOut: a.bytesOut - (b?.bytesOut ?? 0),
    bytesIn: a.bytesIn - (b?.bytesIn ?? 0),
    nodeMs: a.nodeMs - (b?.nodeMs ?? 0),
  };
}

function copy(c: RpcCounts): RpcCounts {
  return {
    ...c,
    byMethod: new Map(c.byMethod),
    byRequest: new Map([...c.byRequest].map(([k, v]) => [k, { ...v }])),
  };
}

/** `after - before`, per field and per method. */
export function countsBetween(before: RpcCounts, after: RpcCounts): RpcCounts {
  const byMethod = new Map<string, number>();
  for (const [m, n] of after.byMethod) {
    const d = n - (before.byMethod.get(m) ?? 0);
    if (d !== 0) byMethod.set(m, d);
  }
  const byRequest = new Map<string, RpcTally>();
  for (const [k, v] of after.byRequest) {
    const d = minus(v, before.byRequest.get(k));
    if (d.requests !== 0) byRequest.set(k, d);
  }
  return { ...minus(after, before), byMethod, byRequest };
}

/** One exchange through the proxy: the calls sent, the answer's text, when each way happened (performance.now()). */
export interface RpcExchange {
  readonly calls: readonly { readonly method?: unknown; readonly params?: unknown }[];
  readonly answer: string;
  readonly sentAt: number;
  readonly answeredAt: number;
}

export async function startCountingRpcProxy(
  target: string,
  onExchange?: (exchange: RpcExchange) => void,
): Promise<CountingRpcProxy> {
  const counts = emptyCounts();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const sentAt = performance.now();
      const body = Buffer.concat(chunks);
      let calls: { method?: unknown; params?: unknown }[] = [];
      try {
        const parsed = JSON.parse(body.toString('utf8')) as
          { method?: unknown; params?: unknown } | { method?: unknown; params?: unknown }[];
        calls = Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        // Not JSON: forwarded as it is, counted as a request without calls.
      }
      const methodOf = (c: { method?: unknown } | undefined) => (typeof c?.method === 'string' ? c.method : '?');
      for (const call of calls) counts.byMethod.set(methodOf(call), (counts.byMethod.get(methodOf(call)) ?? 0) + 1);
      const kind = methodOf(calls[0]);
      let tally = counts.byRequest.get(kind);
      if (!tally) counts.byRequest.set(kind, (tally = { requests: 0, calls: 0, bytesOut: 0, bytesIn: 0, nodeMs: 0 }));
      for (const t of [counts, tally]) {
        t.requests++;
        t.calls += calls.length;
        t.bytesOut += body.length;
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then(async (upstream) => {
          const answer = Buffer.from(await upstream.arrayBuffer());
          const answeredAt = performance.now();
          for (const t of [counts, tally]) {
            t.bytesIn += answer.length;
            t.nodeMs += answeredAt - sentAt;
          }
          onExchange?.({ calls, answer: answer.toString('utf8'), sentAt, answeredAt });
          res.writeHead(upstream.status, { 'content-type': 'application/json' });
          res.end(answer);
        })
        .catch((e: Error) => {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: `proxy: ${e.message}` }));
        });
    });
  });
  const node = new URL(target);
  server.on('upgrade', (req, socket, head) => {
    const upstream = connect(Number(node.port), node.hostname, () => {
      const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : v}`);
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const drop = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', drop);
    socket.on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    snapshot: () => copy(counts),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
