import { getAddress, MaxUint256 } from 'ethers';
import { erc20Approval, relayerApproval } from '../approvals';
import { INT256_MAX, LimitError, minOut } from '../limits';
import type { Approval, SorOrderResponse } from '../types';
import { SWAP_KIND } from '../vaultAbi';
import { readOnlyReference, temporaryReference } from './chainedReference';
import { exitUserData, joinUserData, poolFamily } from './poolUserData';
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

export function encodeRelayerOrder(input: RelayerOrderInput): SorOrderResponse {
  const { route, slippage, deadline } = input;
  const sender = getAddress(input.sender);
  const receiver = getAddress(input.receiver);
  const relayer = getAddress(input.relayer);
  const paid = route.paths.reduce((sum, p) => sum + p.amountIn, 0n);
  if (paid !== input.amount)
    throw new RelayerRouteError(`the paths take ${paid} in all, but the order sells ${input.amount}`);
  const calls: string[] = [];
  let value = 0n;
  let pulledByVault = 0n;
  let minReceived = 0n;
  let nextKey = 1;
  let hasDeadline = false;

  const asset = (token: string, native: boolean) => getAddress(native ? ZERO_ADDRESS : token);
  const push = (name: string, args: unknown[]) => calls.push(relayerLibraryInterface.encodeFunctionData(name, args));

  for (const path of route.paths) {
    const segments = segmentsOf(path.steps);
    let source: Source = { from: 'sender', amount: path.amountIn };
    segments.forEach((seg, n) => {
      const first = n === 0;
      const last = n === segments.length - 1;
      const next = segments[n + 1];
      const tokenIn = segmentIn(seg);
      const tokenOut = segmentOut(seg);
      const nativeIn = first && route.nativeIn;
      const nativeOut = last && route.nativeOut;
      const callValue = nativeIn ? path.amountIn : 0n;
      value += callValue;
      if (first && !nativeIn && seg.action !== 'exit') pulledByVault += path.amountIn;

      // Before an unwrap (which has no limit of its own) the wstETH leg carries the path's limit.
      const beforeUnwrap = next?.action === 'unwrap';
      const least = last || beforeUnwrap ? minOutOf(segmentAmountOut(seg), slippage) : 0n;
      if (last) minReceived += seg.action === 'unwrap' ? leastUnwrapped(segmentAmountOut(seg), slippage) : least;
      const key = last ? undefined : nextKey++;
      // The next call reads this output from the relayer: an exit burns BPT, and an unwrap wstETH,
      // the relayer holds as ERC-20; anything else is taken from the relayer's internal balance.
      const toInternal = !last && next?.action !== 'exit' && !beforeUnwrap;
      const recipient = last ? receiver : relayer;
      const fromSender = source.from === 'sender';
      const amount = source.from === 'sender' ? source.amount : temporaryReference(source.key);
      const fundsSender = fromSender ? sender : relayer;
      const fromInternal = source.from === 'relayer' && !source.erc20;
      if (source.from === 'relayer' && source.erc20 && seg.action !== 'exit' && seg.action !== 'unwrap') {
        // The Vault pulls an ERC-20 the relayer holds with transferFrom: approve exactly what
        // arrived (read-only, so the call after can still consume the reference).
        push('approveVault', [getAddress(tokenIn), readOnlyReference(source.key)]);
      }

      if (seg.action === 'swap') {
        hasDeadline = true;
        const assets: string[] = [];
        const index = (t: string) => {
          let k = assets.indexOf(t);
          if (k < 0) k = assets.push(t) - 1;
          return k;
        };
        const swaps = seg.steps.map((s, k) => [
          s.poolId,
          index(s.tokenIn),
          index(s.tokenOut),
          k === 0 ? amount : 0n,
          '0x',
        ]);
        const limits = assets.map(() => 0n);
        const inIndex = index(tokenIn);
        const outIndex = index(tokenOut);
        // From the sender the limit is the amount; from the relayer it is whatever arrived.
        limits[inIndex] = source.from === 'sender' ? source.amount : INT256_MAX;
        limits[outIndex] = -least;
        const wired = assets.map((t, k) => asset(t, (k === inIndex && nativeIn) || (k === outIndex && nativeOut)));
        push('batchSwap', [
          SWAP_KIND.GIVEN_IN,
          swaps,
          wired,
          [fundsSender, fromInternal, recipient, toInternal],
          limits,
          deadline,
          callValue,
          key === undefined ? [] : [[outIndex, temporaryReference(key)]],
        ]);
        source = key === undefined ? source : { from: 'relayer', key, erc20: !toInternal };
        return;
      }

      const { step } = seg;
      if (seg.action === 'wrap' || seg.action === 'unwrap') {
        // LidoWrapping: the Vault pulls the input from a sender other than the relayer (so the
        // sender approves the Vault); the output goes to the recipient and, chained, to the next call.
        if (seg.action === 'wrap' && !first)
          throw new RelayerRouteError('a wrap step must start its path (it takes the stETH sold)');
        if (seg.action === 'unwrap' && !last)
          throw new RelayerRouteError('an unwrap step must end its path (it pays the stETH bought)');
        push(seg.action === 'wrap' ? 'wrapStETH' : 'unwrapWstETH', [
          fundsSender,
          recipient,
          amount,
          key === undefined ? 0n : temporaryReference(key),
        ]);
        // wstETH reaches the relayer as ERC-20.
        source = key === undefined ? source : { from: 'relayer', key, erc20: true };
        return;
      }
      const pool = input.pool(step.poolId);
      if (!pool) throw new RelayerRouteError(`pool ${step.poolId} of a ${step.action} step is not known on this chain`);
      const family = poolFamily(pool.poolType);
      if (!family)
        throw new RelayerRouteError(`pool ${step.poolId} (${pool.poolType}) has no single-token ${step.action}`);
      const bpt = pool.address;
      if (seg.action === 'join') {
        if (tokenOut !== bpt)
          throw new RelayerRouteError(`join of pool ${step.poolId} must give its BPT ${bpt}, not ${tokenOut}`);
        const k = pool.tokens.indexOf(tokenIn);
        if (k < 0)
          throw new RelayerRouteError(`join of pool ${step.poolId} takes ${tokenIn}, which the pool does not hold`);
        const assets = pool.tokens.map((t, m) => asset(t, m === k && nativeIn));
        // The amount of a chained join is only known on chain; the reference itself bounds it.
        const maxIn = pool.tokens.map((_, m) => (m !== k ? 0n : source.from === 'sender' ? source.amount : MaxUint256));
        push('joinPool', [
          step.poolId,
          POOL_KIND_WEIGHTED,
          fundsSender,
          recipient,
          [assets, maxIn, joinUserData(family, pool.tokens, bpt, tokenIn, amount, least), fromInternal],
          callValue,
          key === undefined ? 0n : temporaryReference(key),
        ]);
        // A join mints BPT to its recipient as ERC-20, never as internal balance.
        source = key === undefined ? source : { from: 'relayer', key, erc20: true };
        return;
      }
      if (tokenIn !== bpt)
        throw new RelayerRouteError(`exit of pool ${step.poolId} must take its BPT ${bpt}, not ${tokenIn}`);
      const k = pool.tokens.indexOf(tokenOut);
      if (k < 0)
        throw new RelayerRouteError(`exit of pool ${step.poolId} gives ${tokenOut}, which the pool does not hold`);
      const assets = pool.tokens.map((t, m) => asset(t, m === k && nativeOut));
      const minOuts = pool.tokens.map((_, m) => (m === k ? least : 0n));
      push('exitPool', [
        step.poolId,
        POOL_KIND_WEIGHTED,
        fundsSender,
        recipient,
        [assets, minOuts, exitUserData(family, pool.tokens, bpt, tokenOut, amount), toInternal],
        key === undefined ? [] : [[k, temporaryReference(key)]],
      ]);
      source = key === undefined ? source : { from: 'relayer', key, erc20: !toInternal };
    });
  }

  if (!hasDeadline) {
    // Joins and exits carry no deadline; an empty batchSwap from the relayer checks it (the Vault
    // tests the deadline before anything else) and moves nothing.
    push('batchSwap', [SWAP_KIND.GIVEN_IN, [], [], [relayer, false, relayer, false], [], deadline, 0n, []]);
  }

  const approvals: Approval[] = [relayerApproval(input.vault, relayer, sender)];
  if (pulledByVault > 0n) approvals.push(erc20Approval(route.tokenIn, input.vault, pulledByVault));
  return {
    price: {
      sellAmount: input.amount.toString(),
      buyAmount: route.returnAmount.toString(),
      allowanceTarget: getAddress(input.vault),
      price: input.marketSp,
    },
    to: relayer,
    data: relayerInterface.encodeFunctionData('multicall', [calls]),
    value: value.toString(),
    minBuyAmount: minReceived.toString(),
    deadline,
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
