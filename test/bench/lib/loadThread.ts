import { Worker } from 'node:worker_threads';

/** One answer of a load: its status was 200, it found a route, and how long it took. */
export interface LoadAnswer {
  readonly ok: boolean;
  readonly routed: boolean;
  readonly ms: number;
}

/**
 * The load loop, in plain JavaScript so the thread needs no TypeScript loader. Its own event loop
 * keeps the probes of the bench's main thread from waiting behind the load's answers: a probe
 * then measures the server, not its own client's backlog. It posts with `node:http` on kept-alive
 * sockets, not `fetch`: the client shares the service's two cores, and `fetch` cost it about twice
 * the CPU per request (40 % of a core against 20 % under the v3Universe bench's V3 load).
 */
const LOOP = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, path, mix, extra, connections } = workerData;
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const target = new URL(url + path);
const answers = [];
let stopped = false;
let next = 0;
const start = performance.now();
parentPort.once('message', () => { stopped = true; });
function post(payload) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks = [];
        res.on('data', (d) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      });
    req.on('error', reject);
    req.end(payload);
  });
}
Promise.all(Array.from({ length: connections }, async () => {
  while (!stopped) {
    const i = next++;
    const c = mix[i % mix.length];
    const round = BigInt(Math.floor(i / mix.length) + 1);
    const body = { ...c, amount: (BigInt(c.amount) + round).toString(), ...extra };
    const t = performance.now();
    const res = await post(JSON.stringify(body));
    answers.push({
      ok: res.status === 200,
      routed: !res.text.includes('"paths":[]') && !res.text.includes('"swaps":[]'),
      ms: performance.now() - t,
    });
  }
})).then(() => { agent.destroy(); parentPort.postMessage({ answers, seconds: (performance.now() - start) / 1000 }); });
`;

/**
 * A closed-loop load of distinct requests, `connections` at a time, on its own thread, until
 * `stop()`: the answers it got and how long it ran.
 */
export function loadInThread(
  url: string,
  path: string,
  /** Request bodies, each posted with `amount` a few wei more each round, so no two are the same. */
  mix: readonly { readonly amount: string }[],
  extra: Record<string, unknown>,
  connections: number,
): { stop(): Promise<{ answers: LoadAnswer[]; seconds: number }> } {
  const worker = new Worker(LOOP, { eval: true, workerData: { url, path, mix, extra, connections } });
  const result = new Promise<{ answers: LoadAnswer[]; seconds: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  // A load that fails before `stop()` (the server gone) is reported there, not as an unhandled rejection.
  result.catch(() => undefined);
  return {
    async stop() {
      worker.postMessage('stop');
      try {
        return await result;
      } finally {
        await worker.terminate();
      }
    },
  };
}
