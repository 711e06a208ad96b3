import { onSwap, poolState, PoolState, ReplayPool, supportsPool, SwapKind, tokenIndex } from './poolSwap';

/**
 * `Vault.batchSwap` (and `queryBatchSwap`) replayed off chain: swaps run in order against pool
 * balances that each swap updates, a zero amount takes the previous swap's calculated amount, and
 * the result is the Vault's asset deltas (positive = paid into the Vault). Pure: the pools come in
 * as stored and are not modified. For routes whose pools are all supported, the deltas equal what
 * the chain computes, to the wei, as long as the pools still hold the stored balances.
 */
export interface BatchSwapStep {
  readonly poolId: string;
  readonly assetInIndex: number;
  readonly assetOutIndex: number;
  /** Decimal string of raw units; "0" continues from the previous step. */
  readonly amount: string;
}

export type BatchSwapResult = { readonly ok: true; readonly deltas: bigint[] } | { readonly ok: false; readonly reason: string };

const NATIVE = '0x0000000000000000000000000000000000000000';

export function simulateBatchSwap(
  kind: 'sell' | 'buy',
  steps: readonly BatchSwapStep[],
  assets: readonly string[],
  /** Pools by lower-case id. */
  pools: ReadonlyMap<string, ReplayPool>,
  wrappedNative: string,
): BatchSwapResult {
  const swapKind: SwapKind = kind === 'sell' ? 'givenIn' : 'givenOut';
  // The Vault trades the wrapped token for the native-asset marker.
  const tokens = assets.map((a) => (a.toLowerCase() === NATIVE ? wrappedNative.toLowerCase() : a.toLowerCase()));
  const states = new Map<string, PoolState>();
  const deltas = assets.map(() => 0n);
  let previousToken: string | undefined;
  let previousAmount = 0n;
  try {
    for (const [n, step] of steps.entries()) {
      const tokenIn = tokens[step.assetInIndex];
      const tokenOut = tokens[step.assetOutIndex];
      if (tokenIn === undefined || tokenOut === undefined) return { ok: false, reason: `swap ${n}: asset index out of range` };
      let amount = BigInt(step.amount);
      if (amount === 0n) {
        const given = swapKind === 'givenIn' ? tokenIn : tokenOut;
        if (n === 0 || given !== previousToken) return { ok: false, reason: `swap ${n}: a zero amount must continue the previous swap's token` };
        amount = previousAmount;
      }
      const poolKey = step.poolId.toLowerCase();
      let state = states.get(poolKey);
      if (!state) {
        const pool = pools.get(poolKey);
        if (!pool) return { ok: false, reason: `swap ${n}: unknown pool ${step.poolId}` };
        if (!supportsPool(pool)) return { ok: false, reason: `swap ${n}: ${pool.poolType} v${pool.poolTypeVersion ?? 1} pools are not simulated` };
        state = poolState(pool);
        states.set(poolKey, state);
      }
      const i = tokenIndex(state.pool, tokenIn);
      const j = tokenIndex(state.pool, tokenOut);
      if (i < 0 || j < 0) return { ok: false, reason: `swap ${n}: pool ${step.poolId} does not hold both tokens` };
      const calculated = onSwap(state, swapKind, i, j, amount);
      const [amountIn, amountOut] = swapKind === 'givenIn' ? [amount, calculated] : [calculated, amount];
      state.balances[i] = state.balances[i]! + amountIn;
      state.balances[j] = state.balances[j]! - amountOut;
      deltas[step.assetInIndex] = deltas[step.assetInIndex]! + amountIn;
      deltas[step.assetOutIndex] = deltas[step.assetOutIndex]! - amountOut;
      previousToken = swapKind === 'givenIn' ? tokenOut : tokenIn;
      previousAmount = calculated;
    }
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  return { ok: true, deltas };
}

/**
 * The exact amount a route returns: what the receiver gets for a sell, what the sender pays for a
 * buy. `undefined` (with the reason) when the route touches a pool this module does not simulate;
 * the caller then keeps its own estimate.
 */
export function exactReturnAmount(
  kind: 'sell' | 'buy',
  route: { readonly swaps: readonly BatchSwapStep[]; readonly tokenAddresses: readonly string[]; readonly tokenIn: string; readonly tokenOut: string },
  pools: ReadonlyMap<string, ReplayPool>,
  wrappedNative: string,
): { readonly amount: bigint } | { readonly amount: undefined; readonly reason: string } {
  const result = simulateBatchSwap(kind, route.swaps, route.tokenAddresses, pools, wrappedNative);
  if (!result.ok) return { amount: undefined, reason: result.reason };
  const index = (t: string) => route.tokenAddresses.findIndex((a) => a.toLowerCase() === t.toLowerCase());
  const delta = result.deltas[index(kind === 'sell' ? route.tokenOut : route.tokenIn)];
  if (delta === undefined) return { amount: undefined, reason: 'the route does not contain its own in/out token' };
  return { amount: kind === 'sell' ? -delta : delta };
}
