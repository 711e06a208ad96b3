import { getAddress, MaxUint256 } from 'ethers';
import { erc20Approval, relayerApproval } from '../../approvals';
import { INT256_MAX, LimitError, minOut } from '../../limits';
import type { Approval, SorOrderResponse } from '../../types';
import { SWAP_KIND } from '../vaultAbi';
import { readOnlyReference, temporaryReference } from './chainedReference';
import { exitUserData, joinUserData, poolFamily, type PoolFamily } from './poolUserData';
import { relayerInterface, relayerLibraryInterface } from './relayerAbi';
import { RelayerRouteError, type RelayerRoute, type RouteStep } from './relayerRoute';

/**
 * A sell route with joins or exits -> one `BatchRelayer.multicall`. Pure: the deadline comes in.
 *
 * Each path runs as a chain of calls: consecutive swaps are one `batchSwap`, a join or exit is its
 * own call. The first call of a path takes the sell token from the sender; every later call takes
 * exactly what the previous one produced, through a chained reference, from the relayer: an
 * intermediate output stays with the relayer (as Vault internal balance, or as the ERC-20 itself
 * when the next step is an exit, which burns the relayer's own BPT). The last call of a path pays
 * the receiver and carries that path's minimum out (floor(quoted x (1 - slippage))), so a worse
 * execution reverts; intermediate calls have no limit of their own.
 */

export interface RoutePool {
  readonly poolType: string;
  /** Lower-case pool (BPT) address. */
  readonly address: string;
  /** Lower-case tokens in the Vault's order. */
  readonly tokens: readonly string[];
}

export interface RelayerOrderInput {
  readonly route: RelayerRoute;
  /** Pool type and tokens of every pool the route joins or exits. */
  readonly pool: (poolId: string) => RoutePool | undefined;
  readonly amount: bigint;
  readonly sender: string;
  readonly receiver: string;
  /** Plain decimal, 0 <= s < 1. */
  readonly slippage: string;
  /** Unix seconds. */
  readonly deadline: number;
  readonly vault: string;
  readonly relayer: string;
  /** The route's spot price, passed through to `price.price`. */
  readonly marketSp: string;
  /** Passed through from the quote. */
  readonly priceImpact?: string;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * The library's PoolKind argument only selects how it rewrites chained references inside userData.
 * For EXACT_TOKENS_IN_FOR_BPT_OUT and EXACT_BPT_IN_FOR_ONE_TOKEN_OUT every kind rewrites to the
 * same bytes (same kind ids, same layout), and WEIGHTED (0) is the one every library version
 * knows (V4, the devnet's, knows no other), so it serves every pool family.
 */
const POOL_KIND_WEIGHTED = 0;

type Segment =
  | { readonly action: 'swap'; readonly steps: readonly RouteStep[] }
  | { readonly action: 'join' | 'exit' | 'wrap' | 'unwrap'; readonly step: RouteStep };

/**
 * What the receiver surely gets of an unwrap's quoted stETH once the wstETH before it is only held
 * to floor(quoted x (1 - slippage)): Lido floors three times on the way (wstETH -> stETH, the
 * shares the relayer passes on, the receiver's balance), so the stETH worth of that least wstETH
 * can sit up to 2 x rate + 2 wei below floor(quote x (1 - slippage)); 5 wei covers rates below 1.5.
 * At slippage 0 the wstETH limit is the quote and so is this.
 */
const LIDO_ROUNDING_MARGIN = 5n;

function leastUnwrapped(quoted: bigint, slippage: string): bigint {
  const least = minOut(quoted, slippage);
  if (least === quoted) return least;
  return least > LIDO_ROUNDING_MARGIN ? least - LIDO_ROUNDING_MARGIN : 0n;
}

function segmentsOf(steps: readonly RouteStep[]): Segment[] {
  const out: Segment[] = [];
  for (const step of steps) {
    const last = out.at(-1);
    if (step.action === 'swap' && last?.action === 'swap') (last.steps as RouteStep[]).push(step);
    else out.push(step.action === 'swap' ? { action: 'swap', steps: [step] } : { action: step.action, step });
  }
  return out;
}

const segmentIn = (s: Segment) => (s.action === 'swap' ? s.steps[0]! : s.step).tokenIn;
const segmentOut = (s: Segment) => (s.action === 'swap' ? s.steps.at(-1)! : s.step).tokenOut;
const segmentAmountOut = (s: Segment) => (s.action === 'swap' ? s.steps.at(-1)! : s.step).amountOut;

/** Where a call's input comes from. */
type Source =
  | { readonly from: 'sender'; readonly amount: bigint }
  /** `erc20`: the relayer holds the token itself (a join's BPT); otherwise as Vault internal balance. */
  | { readonly from: 'relayer'; readonly key: number; readonly erc20: boolean };

/** What the calls of one order share, and what they add up to as they are written. */
interface Multicall {
  readonly input: RelayerOrderInput;
  readonly sender: string;
  readonly receiver: string;
  readonly relayer: string;
  readonly calls: string[];
  /** Native asset sent along. */
  value: bigint;
  /** What the Vault pulls from the sender as ERC-20 (the approval to ask for). */
  pulledByVault: bigint;
  /** The sum of each path's minimum out. */
  minReceived: bigint;
  nextKey: number;
  /** Whether a batchSwap carries the deadline already. */
  hasDeadline: boolean;
}

/** One segment's call as its place in its path decides it. */
interface Leg {
  readonly seg: Segment;
  readonly first: boolean;
  readonly last: boolean;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  readonly callValue: bigint;
  /** The call's minimum out (0 for intermediate calls but the one before an unwrap). */
  readonly least: bigint;
  /** The chained reference this call's output is stored under; none for a path's last call. */
  readonly key: number | undefined;
  /** The output stays with the relayer as Vault internal balance. */
  readonly toInternal: boolean;
  readonly recipient: string;
  readonly fundsSender: string;
  readonly fromInternal: boolean;
  /** The amount in: the sender's, or the previous call's output by reference. */
  readonly amount: bigint;
  readonly source: Source;
}

const asset = (token: string, native: boolean) => getAddress(native ? ZERO_ADDRESS : token);

function push(m: Multicall, name: string, args: unknown[]): void {
  m.calls.push(relayerLibraryInterface.encodeFunctionData(name, args));
}

export function encodeRelayerOrder(input: RelayerOrderInput): SorOrderResponse {
  const { route } = input;
  const paid = route.paths.reduce((sum, p) => sum + p.amountIn, 0n);
  if (paid !== input.amount)
    throw new RelayerRouteError(`the paths take ${paid} in all, but the order sells ${input.amount}`);
  const m: Multicall = {
    input,
    sender: getAddress(input.sender),
    receiver: getAddress(input.receiver),
    relayer: getAddress(input.relayer),
    calls: [],
    value: 0n,
    pulledByVault: 0n,
    minReceived: 0n,
    nextKey: 1,
    hasDeadline: false,
  };
  for (const path of route.paths) encodePath(m, path.steps, path.amountIn);
  if (!m.hasDeadline) {
    // Joins and exits carry no deadline; an empty batchSwap from the relayer checks it (the Vault
    // tests the deadline before anything else) and moves nothing.
    push(m, 'batchSwap', [
      SWAP_KIND.GIVEN_IN,
      [],
      [],
      [m.relayer, false, m.relayer, false],
      [],
      input.deadline,
      0n,
      [],
    ]);
  }
  return orderResponse(m);
}

/** One path's calls, each taking what the one before produced. */
function encodePath(m: Multicall, steps: readonly RouteStep[], amountIn: bigint): void {
  const segments = segmentsOf(steps);
  let source: Source = { from: 'sender', amount: amountIn };
  segments.forEach((seg, n) => {
    const leg = legOf(m, seg, n, segments, source, amountIn);
    if (leg.source.from === 'relayer' && leg.source.erc20 && seg.action !== 'exit' && seg.action !== 'unwrap') {
      // The Vault pulls an ERC-20 the relayer holds with transferFrom: approve exactly what
      // arrived (read-only, so the call after can still consume the reference).
      push(m, 'approveVault', [getAddress(leg.tokenIn), readOnlyReference(leg.source.key)]);
    }
    const output = encodeLeg(m, leg);
    if (leg.key !== undefined) source = { from: 'relayer', key: leg.key, erc20: output === 'erc20' };
  });
}

/** Where segment `n` of a path sits and what that makes of its call; adds up value, pulls and limits. */
function legOf(
  m: Multicall,
  seg: Segment,
  n: number,
  segments: readonly Segment[],
  source: Source,
  amountIn: bigint,
): Leg {
  const { route, slippage } = m.input;
  const first = n === 0;
  const last = n === segments.length - 1;
  const next = segments[n + 1];
  const nativeIn = first && route.nativeIn;
  const callValue = nativeIn ? amountIn : 0n;
  m.value += callValue;
  if (first && !nativeIn && seg.action !== 'exit') m.pulledByVault += amountIn;
  // Before an unwrap (which has no limit of its own) the wstETH leg carries the path's limit.
  const beforeUnwrap = next?.action === 'unwrap';
  const least = last || beforeUnwrap ? minOutOf(segmentAmountOut(seg), slippage) : 0n;
  if (last) m.minReceived += seg.action === 'unwrap' ? leastUnwrapped(segmentAmountOut(seg), slippage) : least;
  const fromSender = source.from === 'sender';
  return {
    seg,
    first,
    last,
    tokenIn: segmentIn(seg),
    tokenOut: segmentOut(seg),
    nativeIn,
    nativeOut: last && route.nativeOut,
    callValue,
    least,
    key: last ? undefined : m.nextKey++,
    // The next call reads this output from the relayer: an exit burns BPT, and an unwrap wstETH,
    // the relayer holds as ERC-20; anything else is taken from the relayer's internal balance.
    toInternal: !last && next?.action !== 'exit' && !beforeUnwrap,
    recipient: last ? m.receiver : m.relayer,
    fundsSender: fromSender ? m.sender : m.relayer,
    fromInternal: source.from === 'relayer' && !source.erc20,
    amount: source.from === 'sender' ? source.amount : temporaryReference(source.key),
    source,
  };
}

/** The call of one leg; answers how the relayer holds its output for the next call. */
function encodeLeg(m: Multicall, leg: Leg): 'internal' | 'erc20' {
  const seg = leg.seg;
  if (seg.action === 'swap') return encodeSwaps(m, leg, seg.steps);
  if (seg.action === 'wrap' || seg.action === 'unwrap') return encodeLido(m, leg, seg.action);
  const pool = m.input.pool(seg.step.poolId);
  if (!pool)
    throw new RelayerRouteError(`pool ${seg.step.poolId} of a ${seg.step.action} step is not known on this chain`);
  const family = poolFamily(pool.poolType);
  if (!family)
    throw new RelayerRouteError(`pool ${seg.step.poolId} (${pool.poolType}) has no single-token ${seg.step.action}`);
  return seg.action === 'join'
    ? encodeJoin(m, leg, seg.step, pool, family)
    : encodeExit(m, leg, seg.step, pool, family);
}

/** Consecutive swaps as one `batchSwap`. */
function encodeSwaps(m: Multicall, leg: Leg, steps: readonly RouteStep[]): 'internal' | 'erc20' {
  m.hasDeadline = true;
  const assets: string[] = [];
  const index = (t: string) => {
    let k = assets.indexOf(t);
    if (k < 0) k = assets.push(t) - 1;
    return k;
  };
  const swaps = steps.map((s, k) => [s.poolId, index(s.tokenIn), index(s.tokenOut), k === 0 ? leg.amount : 0n, '0x']);
  const limits = assets.map(() => 0n);
  const inIndex = index(leg.tokenIn);
  const outIndex = index(leg.tokenOut);
  // From the sender the limit is the amount; from the relayer it is whatever arrived.
  limits[inIndex] = leg.source.from === 'sender' ? leg.source.amount : INT256_MAX;
  limits[outIndex] = -leg.least;
  const wired = assets.map((t, k) => asset(t, (k === inIndex && leg.nativeIn) || (k === outIndex && leg.nativeOut)));
  push(m, 'batchSwap', [
    SWAP_KIND.GIVEN_IN,
    swaps,
    wired,
    [leg.fundsSender, leg.fromInternal, leg.recipient, leg.toInternal],
    limits,
    m.input.deadline,
    leg.callValue,
    leg.key === undefined ? [] : [[outIndex, temporaryReference(leg.key)]],
  ]);
  return leg.toInternal ? 'internal' : 'erc20';
}

/**
 * LidoWrapping: the Vault pulls the input from a sender other than the relayer (so the sender
 * approves the Vault); the output goes to the recipient and, chained, to the next call.
 */
function encodeLido(m: Multicall, leg: Leg, action: 'wrap' | 'unwrap'): 'erc20' {
  if (action === 'wrap' && !leg.first)
    throw new RelayerRouteError('a wrap step must start its path (it takes the stETH sold)');
  if (action === 'unwrap' && !leg.last)
    throw new RelayerRouteError('an unwrap step must end its path (it pays the stETH bought)');
  push(m, action === 'wrap' ? 'wrapStETH' : 'unwrapWstETH', [
    leg.fundsSender,
    leg.recipient,
    leg.amount,
    leg.key === undefined ? 0n : temporaryReference(leg.key),
  ]);
  // wstETH reaches the relayer as ERC-20.
  return 'erc20';
}

function encodeJoin(m: Multicall, leg: Leg, step: RouteStep, pool: RoutePool, family: PoolFamily): 'erc20' {
  const bpt = pool.address;
  if (leg.tokenOut !== bpt)
    throw new RelayerRouteError(`join of pool ${step.poolId} must give its BPT ${bpt}, not ${leg.tokenOut}`);
  const k = pool.tokens.indexOf(leg.tokenIn);
  if (k < 0)
    throw new RelayerRouteError(`join of pool ${step.poolId} takes ${leg.tokenIn}, which the pool does not hold`);
  const assets = pool.tokens.map((t, n) => asset(t, n === k && leg.nativeIn));
  // The amount of a chained join is only known on chain; the reference itself bounds it.
  const maxIn = pool.tokens.map((_, n) =>
    n !== k ? 0n : leg.source.from === 'sender' ? leg.source.amount : MaxUint256,
  );
  push(m, 'joinPool', [
    step.poolId,
    POOL_KIND_WEIGHTED,
    leg.fundsSender,
    leg.recipient,
    [assets, maxIn, joinUserData(family, pool.tokens, bpt, leg.tokenIn, leg.amount, leg.least), leg.fromInternal],
    leg.callValue,
    leg.key === undefined ? 0n : temporaryReference(leg.key),
  ]);
  // A join mints BPT to its recipient as ERC-20, never as internal balance.
  return 'erc20';
}

function encodeExit(
  m: Multicall,
  leg: Leg,
  step: RouteStep,
  pool: RoutePool,
  family: PoolFamily,
): 'internal' | 'erc20' {
  const bpt = pool.address;
  if (leg.tokenIn !== bpt)
    throw new RelayerRouteError(`exit of pool ${step.poolId} must take its BPT ${bpt}, not ${leg.tokenIn}`);
  const k = pool.tokens.indexOf(leg.tokenOut);
  if (k < 0)
    throw new RelayerRouteError(`exit of pool ${step.poolId} gives ${leg.tokenOut}, which the pool does not hold`);
  const assets = pool.tokens.map((t, n) => asset(t, n === k && leg.nativeOut));
  const minOuts = pool.tokens.map((_, n) => (n === k ? leg.least : 0n));
  push(m, 'exitPool', [
    step.poolId,
    POOL_KIND_WEIGHTED,
    leg.fundsSender,
    leg.recipient,
    [assets, minOuts, exitUserData(family, pool.tokens, bpt, leg.tokenOut, leg.amount), leg.toInternal],
    leg.key === undefined ? [] : [[k, temporaryReference(leg.key)]],
  ]);
  return leg.toInternal ? 'internal' : 'erc20';
}

/** The multicall with its price, limits and the approvals to send first. */
function orderResponse(m: Multicall): SorOrderResponse {
  const { input } = m;
  const approvals: Approval[] = [relayerApproval(input.vault, m.relayer, m.sender)];
  if (m.pulledByVault > 0n) approvals.push(erc20Approval(input.route.tokenIn, input.vault, m.pulledByVault));
  return {
    price: {
      sellAmount: input.amount.toString(),
      buyAmount: input.route.returnAmount.toString(),
      allowanceTarget: getAddress(input.vault),
      price: input.marketSp,
    },
    to: m.relayer,
    data: relayerInterface.encodeFunctionData('multicall', [m.calls]),
    value: m.value.toString(),
    minBuyAmount: m.minReceived.toString(),
    deadline: input.deadline,
    priceImpact: input.priceImpact ?? '0',
    relayerApprovalRequired: true,
    approvals,
  };
}

function minOutOf(quoted: bigint, slippage: string): bigint {
  const least = minOut(quoted, slippage);
  if (least > INT256_MAX)
    throw new LimitError(`the output limit ${least} does not fit the Vault's int256 limits; ask for a smaller amount`);
  return least;
}
