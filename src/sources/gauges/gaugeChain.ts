import { AbiCoder, getAddress, Interface } from 'ethers';
import type { GaugeEmissions } from '../../config/chains';
import { callBatch, JsonRpcOptions, RPC_UPSTREAM, RpcCall, RpcOutcome } from '../rpc/jsonRpc';
import { UpstreamError } from '../upstream';

/**
 * What the chain says about a set of gauges, read with `eth_call` in JSON-RPC batches:
 *
 * - controller chains (mainnet): the BalancerTokenAdmin's BAL per second, and per gauge its share
 *   of it for the current week (the capped weight where the gauge has a cap, else the
 *   GaugeController's relative weight), staked and working supply;
 * - child chains: staked supply, and where the gauge has them (2023 gauges) its working supply and
 *   BAL per second for the current week; 2022 gauges stream bridged BAL as a reward token;
 * - every gauge: `reward_data(token)` (rate per second, period finish) for its reward tokens, in
 *   either struct layout (with or without the leading token field); the tokens' decimals.
 *
 * A gauge whose own calls fail is reported in `unread` (its pool keeps its last APRs); a node that
 * fails, or a token admin that cannot be read, is an `UpstreamError`.
 */
export const WEEK_SECONDS = 604_800;

export interface GaugeToRead {
  readonly gauge: string;
  readonly rewardTokens: readonly string[];
}

export interface GaugeChainReading {
  readonly gauge: string;
  /** Staked BPT (wei). */
  readonly totalSupply: bigint;
  /** Working supply (wei); null when the gauge has no boost (2022 child gauges). */
  readonly workingSupply: bigint | null;
  /** BAL (wei) per second to this gauge now; null when BAL comes as a reward token instead. */
  readonly balPerSecond: bigint | null;
  readonly rewards: readonly { readonly token: string; readonly perSecond: bigint; readonly periodFinish: number }[];
}

export interface GaugeChainReads {
  readonly readings: ReadonlyMap<string, GaugeChainReading>;
  /** Gauge -> why it could not be read. */
  readonly unread: ReadonlyMap<string, string>;
  /** Reward token -> decimals (tokens whose decimals could not be read are absent). */
  readonly decimals: ReadonlyMap<string, number>;
}

const TOKEN_ADMIN = new Interface(['function getInflationRate() view returns (uint256)']);
const CONTROLLER = new Interface(['function gauge_relative_weight(address addr, uint256 time) view returns (uint256)']);
const GAUGE = new Interface([
  'function getCappedRelativeWeight(uint256 time) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function working_supply() view returns (uint256)',
  'function inflation_rate(uint256 week) view returns (uint256)',
  'function reward_data(address token) view returns (bytes)',
]);
const ERC20 = new Interface(['function decimals() view returns (uint8)']);
const WORD = 64;

function ethCall(to: string, data: string): RpcCall {
  return { method: 'eth_call', params: [{ to: getAddress(to), data }, 'latest'] };
}

function uint(outcome: RpcOutcome | undefined): bigint | undefined {
  if (!outcome?.ok || typeof outcome.result !== 'string' || !/^0x[0-9a-fA-F]{64,}$/.test(outcome.result))
    return undefined;
  return BigInt(`0x${outcome.result.slice(2, 2 + WORD)}`);
}

/** `reward_data` is (token, distributor, period_finish, rate, ...) on 2022 gauges, (distributor, period_finish, rate, ...) on 2023 ones. */
export function decodeRewardData(result: string): { periodFinish: number; perSecond: bigint } | undefined {
  const hex = result.startsWith('0x') ? result.slice(2) : result;
  const words = hex.length / WORD;
  if (!Number.isInteger(words) || (words !== 5 && words !== 6)) return undefined;
  const [periodFinish, rate] = AbiCoder.defaultAbiCoder().decode(
    ['uint256', 'uint256'],
    `0x${hex.slice((words - 4) * WORD, (words - 2) * WORD)}`,
  ) as unknown as [bigint, bigint];
  return { periodFinish: Number(periodFinish), perSecond: rate };
}

interface Plan {
  readonly gauge: GaugeToRead;
  readonly at: number;
}

export async function readGaugesOnChain(
  rpc: JsonRpcOptions,
  emissions: GaugeEmissions,
  gauges: readonly GaugeToRead[],
  nowSeconds: number,
): Promise<GaugeChainReads> {
  const week = Math.floor(nowSeconds / WEEK_SECONDS);
  const calls: RpcCall[] = [];
  if (emissions.kind === 'controller')
    calls.push(ethCall(emissions.balancerTokenAdmin, TOKEN_ADMIN.encodeFunctionData('getInflationRate')));
  const perGauge = emissions.kind === 'controller' ? 4 : 3;
  const plans: Plan[] = [];
  for (const g of gauges) {
    plans.push({ gauge: g, at: calls.length });
    if (emissions.kind === 'controller') {
      calls.push(
        ethCall(
          emissions.gaugeController,
          CONTROLLER.encodeFunctionData('gauge_relative_weight', [getAddress(g.gauge), week * WEEK_SECONDS]),
        ),
      );
      calls.push(ethCall(g.gauge, GAUGE.encodeFunctionData('getCappedRelativeWeight', [week * WEEK_SECONDS])));
    } else {
      calls.push(ethCall(g.gauge, GAUGE.encodeFunctionData('inflation_rate', [week])));
    }
    calls.push(ethCall(g.gauge, GAUGE.encodeFunctionData('totalSupply')));
    calls.push(ethCall(g.gauge, GAUGE.encodeFunctionData('working_supply')));
    for (const t of g.rewardTokens)
      calls.push(ethCall(g.gauge, GAUGE.encodeFunctionData('reward_data', [getAddress(t)])));
  }
  const tokens = [...new Set(gauges.flatMap((g) => g.rewardTokens))];
  const tokensAt = calls.length;
  for (const t of tokens) calls.push(ethCall(t, ERC20.encodeFunctionData('decimals')));

  const outcomes = await callBatch(rpc, calls);

  let inflation = 0n;
  if (emissions.kind === 'controller') {
    const rate = uint(outcomes[0]);
    if (rate === undefined) {
      const why = outcomes[0]?.ok === false ? outcomes[0].error : 'an unreadable answer';
      throw new UpstreamError(
        RPC_UPSTREAM,
        `BalancerTokenAdmin ${emissions.balancerTokenAdmin} getInflationRate() gave ${why}`,
      );
    }
    inflation = rate;
  }

  const decimals = new Map<string, number>();
  tokens.forEach((t, i) => {
    const d = uint(outcomes[tokensAt + i]);
    if (d !== undefined && d <= 36n) decimals.set(t, Number(d));
  });

  const readings = new Map<string, GaugeChainReading>();
  const unread = new Map<string, string>();
  for (const { gauge: g, at } of plans) {
    const out = (i: number) => outcomes[at + i];
    let balPerSecond: bigint | null;
    let totalSupply: bigint | undefined;
    let workingSupply: bigint | null | undefined;
    if (emissions.kind === 'controller') {
      const weight = uint(out(1)) ?? uint(out(0));
      totalSupply = uint(out(2));
      workingSupply = uint(out(3));
      if (weight === undefined || workingSupply === undefined) {
        unread.set(g.gauge, 'relative weight or working supply unreadable');
        continue;
      }
      balPerSecond = (inflation * weight) / 10n ** 18n;
    } else {
      const rate = uint(out(0));
      totalSupply = uint(out(1));
      const working = uint(out(2));
      // 2023 child gauges have both; 2022 ones neither (BAL arrives as a reward token).
      balPerSecond = rate !== undefined && working !== undefined ? rate : null;
      workingSupply = balPerSecond === null ? null : working!;
    }
    if (totalSupply === undefined) {
      unread.set(g.gauge, 'totalSupply unreadable');
      continue;
    }
    const rewards: { token: string; perSecond: bigint; periodFinish: number }[] = [];
    let failed: string | undefined;
    g.rewardTokens.forEach((token, i) => {
      const o = out(perGauge + i);
      const data = o?.ok && typeof o.result === 'string' ? decodeRewardData(o.result) : undefined;
      if (!data) failed ??= `reward_data(${token}) unreadable`;
      else rewards.push({ token, ...data });
    });
    if (failed) {
      unread.set(g.gauge, failed);
      continue;
    }
    readings.set(g.gauge, { gauge: g.gauge, totalSupply, workingSupply, balPerSecond, rewards });
  }
  return { readings, unread, decimals };
}
