import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeBytes32String, Interface } from 'ethers';

/**
 * A local EVM JSON-RPC endpoint that knows just enough to answer ERC-20 metadata reads:
 * `eth_call` of `symbol()`, `name()` and `decimals()` on the tokens it is given, single or batched.
 * Tokens can answer in the old `bytes32` encoding (MKR style) or revert. Anything else is a
 * JSON-RPC error, like a node answering a call to an address without code.
 */
export interface FakeErc20 {
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  /** Answer symbol and name as bytes32 instead of string. */
  readonly bytes32?: boolean;
  /** Every call to this token reverts. */
  readonly reverts?: boolean;
}

const ERC20 = new Interface([
  'function symbol() view returns (string)',
  'function name() view returns (string)',
  'function decimals() view returns (uint8)',
]);
const BYTES32 = new Interface(['function symbol() view returns (bytes32)', 'function name() view returns (bytes32)']);

interface RpcRequest {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

export class FakeErc20Rpc {
  /** Answer every HTTP request with this status instead (e.g. 503). */
  failStatus: number | undefined;
  /** HTTP requests and individual JSON-RPC calls received. */
  requests = 0;
  calls = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly tokens: Map<string, FakeErc20>,
  ) {}

  static async start(tokens: Record<string, FakeErc20>): Promise<FakeErc20Rpc> {
    const table = new Map(Object.entries(tokens).map(([a, t]) => [a.toLowerCase(), t]));
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const addr = server.address() as AddressInfo;
    const fake = new FakeErc20Rpc(server, `http://127.0.0.1:${addr.port}`, table);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        fake.requests++;
        const send = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (fake.failStatus !== undefined) return send(fake.failStatus, { error: 'node unavailable' });
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(200, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
        }
        send(200, Array.isArray(body) ? body.map((r: RpcRequest) => fake.answer(r)) : fake.answer(body as RpcRequest));
      });
    });
    return fake;
  }

  private answer(r: RpcRequest): unknown {
    this.calls++;
    const error = (code: number, message: string) => ({ jsonrpc: '2.0', id: r.id ?? null, error: { code, message } });
    if (r.method !== 'eth_call') return error(-32601, `method ${String(r.method)} not supported by this fake`);
    const [call] = (Array.isArray(r.params) ? r.params : []) as { to?: string; data?: string }[];
    const token = call?.to ? this.tokens.get(call.to.toLowerCase()) : undefined;
    if (!token || token.reverts) return error(3, 'execution reverted');
    const selector = call?.data?.slice(0, 10);
    const fn = (['symbol', 'name', 'decimals'] as const).find((f) => ERC20.getFunction(f)!.selector === selector);
    if (!fn) return error(3, 'execution reverted');
    const result =
      fn === 'decimals'
        ? ERC20.encodeFunctionResult('decimals', [token.decimals])
        : token.bytes32
          ? BYTES32.encodeFunctionResult(fn, [encodeBytes32String(token[fn])])
          : ERC20.encodeFunctionResult(fn, [token[fn]]);
    return { jsonrpc: '2.0', id: r.id ?? null, result };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
