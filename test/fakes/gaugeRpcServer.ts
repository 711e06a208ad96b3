import { AbiCoder, Interface } from 'ethers';
import { HttpFake, sendJson, startHttpFake } from './httpFake';

/**
 * A local EVM JSON-RPC node that answers the `eth_call`s of a gauge system, single or batched, in
 * the contracts' real ABI shapes: the BalancerTokenAdmin's `getInflationRate()`, the
 * GaugeController's `gauge_relative_weight(address,uint256)`, a gauge's `getCappedRelativeWeight`,
 * `totalSupply`, `working_supply`, `inflation_rate(week)` and `reward_data(token)` (the 2022
 * six-field struct or the 2023 five-field one), and ERC-20 `decimals()`. A function a contract does
 * not have, or an unknown address, reverts like on a node. Everything is switchable at run time.
 */
export interface FakeReward {
  /** Smallest units per second. */
  readonly rate: bigint;
  readonly periodFinish: number;
}

export interface FakeGauge {
  readonly totalSupply: bigint;
  /** Absent on 2022 child-chain gauges. */
  readonly workingSupply?: bigint;
  /** Relative weight cap (1e18 = 100 %); absent on uncapped gauges (no getCappedRelativeWeight). */
  readonly cap?: bigint;
  /** BAL per second for any week (2023 child-chain gauges); absent elsewhere. */
  readonly inflationRate?: bigint;
  /** `reward_data` layout: 2022 gauges lead with the token (6 fields), 2023 child gauges do not (5). */
  readonly layout?: 6 | 5;
  readonly rewards?: Readonly<Record<string, FakeReward>>;
  /** Every call to this gauge reverts. */
  readonly reverts?: boolean;
}

export interface FakeGaugeChainState {
  tokenAdmin?: { readonly address: string; rate: bigint; reverts?: boolean };
  controller?: { readonly address: string; readonly weights: Record<string, bigint> };
  gauges: Record<string, FakeGauge>;
  decimals: Record<string, number>;
}

const ABI = new Interface([
  'function getInflationRate() view returns (uint256)',
  'function gauge_relative_weight(address addr, uint256 time) view returns (uint256)',
  'function getCappedRelativeWeight(uint256 time) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function working_supply() view returns (uint256)',
  'function inflation_rate(uint256 week) view returns (uint256)',
  'function reward_data(address token) view returns (bytes)',
  'function decimals() view returns (uint8)',
]);
const coder = AbiCoder.defaultAbiCoder();
const ZERO = '0x0000000000000000000000000000000000000000';

interface RpcRequest {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
}

export class FakeGaugeChain {
  /** Answer every HTTP request with this status instead. */
  failStatus: number | undefined;
  /** Never answer (the request stays open until the client gives up or the fake closes). */
  hang = false;
  /** HTTP requests and individual calls received. */
  requests = 0;
  calls = 0;

  private constructor(
    private http: HttpFake | undefined,
    public state: FakeGaugeChainState,
  ) {}

  static async start(state: FakeGaugeChainState): Promise<FakeGaugeChain> {
    const fake = new FakeGaugeChain(undefined, state);
    fake.http = await startHttpFake((req, res) => {
      fake.requests++;
      if (fake.hang) return;
      if (fake.failStatus !== undefined) return sendJson(res, fake.failStatus, { error: 'node unavailable' });
      const body = JSON.parse(req.body) as RpcRequest | RpcRequest[];
      sendJson(res, 200, Array.isArray(body) ? body.map((r) => fake.answer(r)) : fake.answer(body));
    });
    return fake;
  }

  get url(): string {
    return this.http!.url;
  }

  close(): Promise<void> {
    return this.http!.close();
  }

  private answer(r: RpcRequest): unknown {
    this.calls++;
    const revert = { jsonrpc: '2.0', id: r.id ?? null, error: { code: 3, message: 'execution reverted' } };
    if (r.method !== 'eth_call')
      return {
        jsonrpc: '2.0',
        id: r.id ?? null,
        error: { code: -32601, message: `method ${String(r.method)} not supported` },
      };
    const [call] = (Array.isArray(r.params) ? r.params : []) as { to?: string; data?: string }[];
    const to = call?.to?.toLowerCase() ?? '';
    let parsed;
    try {
      parsed = ABI.parseTransaction({ data: call?.data ?? '0x' });
    } catch {
      return revert;
    }
    if (!parsed) return revert;
    const result = this.result(to, parsed.name, parsed.args.toArray() as unknown[]);
    return result === undefined ? revert : { jsonrpc: '2.0', id: r.id ?? null, result };
  }

  private result(to: string, fn: string, args: unknown[]): string | undefined {
    const word = (v: bigint) => coder.encode(['uint256'], [v]);
    const s = this.state;
    if (s.tokenAdmin?.address === to)
      return fn === 'getInflationRate' && !s.tokenAdmin.reverts ? word(s.tokenAdmin.rate) : undefined;
    if (s.controller?.address === to) {
      if (fn !== 'gauge_relative_weight') return undefined;
      return word(s.controller.weights[String(args[0]).toLowerCase()] ?? 0n);
    }
    const decimals = s.decimals[to];
    if (decimals !== undefined) return fn === 'decimals' ? word(BigInt(decimals)) : undefined;
    const g = s.gauges[to];
    if (!g || g.reverts) return undefined;
    switch (fn) {
      case 'totalSupply':
        return word(g.totalSupply);
      case 'working_supply':
        return g.workingSupply === undefined ? undefined : word(g.workingSupply);
      case 'inflation_rate':
        return g.inflationRate === undefined ? undefined : word(g.inflationRate);
      case 'getCappedRelativeWeight': {
        if (g.cap === undefined) return undefined;
        const weight = s.controller?.weights[to] ?? 0n;
        return word(weight < g.cap ? weight : g.cap);
      }
      case 'reward_data': {
        const token = String(args[0]).toLowerCase();
        const reward = g.rewards?.[token] ?? { rate: 0n, periodFinish: 0 };
        // Both layouts end with (period_finish, rate, last_update, integral) after the distributor.
        const tail = [ZERO, reward.periodFinish, reward.rate, 0, 0];
        return (g.layout ?? 6) === 6
          ? coder.encode(['address', 'address', 'uint256', 'uint256', 'uint256', 'uint256'], [token, ...tail])
          : coder.encode(['address', 'uint256', 'uint256', 'uint256', 'uint256'], tail);
      }
      default:
        return undefined;
    }
  }
}
