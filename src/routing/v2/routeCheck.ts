import type { SwapInfo } from '@balancer-labs/sor';
import type { OrderKind } from '../types';

/**
 * Sanity check of a route before anyone signs it. SOR 4.1.3 can return routes through tiny pools
 * (e.g. linear pools with no wrapped balance) with a negative hop amount or an absurd price; such a
 * route would revert or lose money, so it is treated as no route.
 *
 * Vault rules being checked: a swap with amount 0 continues the previous one (GIVEN_IN: its input
 * is the previous output token; GIVEN_OUT: its output is the previous input token); every chain of
 * hops starts at the token given by the order and ends at the other one.
 */

/** `poolId` names the pool of an offending hop, so the caller can route again without it. */
export type RouteVerdict = { ok: true } | { ok: false; reason: string; poolId?: string };

interface CheckedSwap {
  readonly poolId: string;
  readonly assetInIndex: number;
  readonly assetOutIndex: number;
  readonly amount: string;
  /** Hop result the SOR computed (output for GIVEN_IN, input for GIVEN_OUT), when given. */
  readonly returnAmount?: string;
}

export interface CheckedRoute {
  readonly tokenAddresses: readonly string[];
  readonly swaps: readonly CheckedSwap[];
  readonly swapAmount: string;
  readonly returnAmount: string;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly marketSp: string;
}

export function checkedRouteFromSwapInfo(info: SwapInfo): CheckedRoute {
  return {
    tokenAddresses: info.tokenAddresses,
    swaps: info.swaps.map((s) => ({ ...s, amount: String(s.amount) })),
    swapAmount: info.swapAmount.toString(),
    returnAmount: info.returnAmount.toString(),
    tokenIn: info.tokenIn,
    tokenOut: info.tokenOut,
    marketSp: info.marketSp,
  };
}

const INTEGER = /^-?\d+$/;

function int(value: string | undefined, what: string): bigint {
  if (value === undefined || !INTEGER.test(value)) throw new Error(`${what} is not an integer ('${value}')`);
  return BigInt(value);
}

function indexOf(addresses: readonly string[], token: string): number {
  const t = token.toLowerCase();
  return addresses.findIndex((a) => a.toLowerCase() === t);
}

export function checkRoute(route: CheckedRoute, kind: OrderKind): RouteVerdict {
  try {
    return check(route, kind);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}

function check(route: CheckedRoute, kind: OrderKind): RouteVerdict {
  const fail = (reason: string): RouteVerdict => ({ ok: false, reason });
  const { swaps, tokenAddresses } = route;
  if (swaps.length === 0) return fail('no swaps');
  const inIdx = indexOf(tokenAddresses, route.tokenIn);
  const outIdx = indexOf(tokenAddresses, route.tokenOut);
  if (inIdx < 0 || outIdx < 0) return fail('the order tokens are not among the route assets');
  const returnAmount = int(route.returnAmount, 'returnAmount');
  if (returnAmount <= 0n) return fail(`non-positive return amount ${returnAmount}`);
  // The SOR reports 0 when it cannot price a pool type (BPT hops); only garbage is refused.
  const sp = Number(route.marketSp);
  if (!Number.isFinite(sp) || sp < 0) return fail(`absurd market price '${route.marketSp}'`);

  // GIVEN_IN chains run tokenIn -> tokenOut; GIVEN_OUT chains are listed backwards (tokenOut first).
  const [startIdx, endIdx] = kind === 'sell' ? [inIdx, outIdx] : [outIdx, inIdx];
  const entry = (s: CheckedSwap) => (kind === 'sell' ? s.assetInIndex : s.assetOutIndex);
  const exit = (s: CheckedSwap) => (kind === 'sell' ? s.assetOutIndex : s.assetInIndex);

  let given = 0n;
  let lastHopResults = 0n;
  let chains = 0;
  for (let i = 0; i < swaps.length; i++) {
    const s = swaps[i]!;
    for (const idx of [s.assetInIndex, s.assetOutIndex]) {
      if (!Number.isInteger(idx) || idx < 0 || idx >= tokenAddresses.length)
        return fail(`swap ${i} uses asset index ${idx} outside the assets`);
    }
    if (s.assetInIndex === s.assetOutIndex) return fail(`swap ${i} swaps an asset for itself`);
    const amount = int(s.amount, `swap ${i} amount`);
    if (amount < 0n) return { ok: false, reason: `swap ${i} has a negative amount ${amount}`, poolId: s.poolId };
    if (s.returnAmount !== undefined && int(s.returnAmount, `swap ${i} hop amount`) <= 0n) {
      return {
        ok: false,
        reason: `swap ${i} through pool ${s.poolId} has a non-positive hop amount ${s.returnAmount}`,
        poolId: s.poolId,
      };
    }
    if (amount > 0n) {
      if (i > 0 && exit(swaps[i - 1]!) !== endIdx)
        return fail(`the hop chain ending at swap ${i - 1} does not reach the order's other token`);
      if (entry(s) !== startIdx) return fail(`swap ${i} starts a hop chain at the wrong token`);
      given += amount;
      chains++;
    } else {
      if (i === 0) return fail('the first swap has no amount');
      if (entry(s) !== exit(swaps[i - 1]!)) return fail(`swap ${i} does not continue the hop chain of swap ${i - 1}`);
    }
    const next = swaps[i + 1];
    const endsChain = next === undefined || int(next.amount, `swap ${i + 1} amount`) !== 0n;
    if (endsChain && s.returnAmount !== undefined) lastHopResults += int(s.returnAmount, `swap ${i} hop amount`);
  }
  if (exit(swaps[swaps.length - 1]!) !== endIdx)
    return fail("the last hop chain does not reach the order's other token");
  if (given !== int(route.swapAmount, 'swapAmount'))
    return fail(`the hop chains move ${given}, not the order amount ${route.swapAmount}`);
  // The quoted total must be what the hops produce (each hop result is floored: allow 1 wei per chain).
  if (swaps.every((s) => s.returnAmount !== undefined)) {
    const diff = lastHopResults > returnAmount ? lastHopResults - returnAmount : returnAmount - lastHopResults;
    if (diff > BigInt(chains))
      return fail(`the quoted amount ${returnAmount} differs from the hop results ${lastHopResults}`);
  }
  return { ok: true };
}
