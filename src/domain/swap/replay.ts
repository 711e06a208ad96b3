import { JoinExitPool } from './joinExitPools';
import { canJoinExit, isRevert, type PoolModel, type PoolState } from './poolModel';
import type { BatchStep, OrderKind } from './route';

/**
 * `Vault.batchSwap` (and `queryBatchSwap`) replayed over the pool models: steps run in order
 * against states each step updates, an amount of 0 takes the previous step's calculated amount,
 * and the result is the Vault's asset deltas (positive = paid into the Vault). The engine's
 * `returnAmount` comes from here, and so does the exact amount of a route another router proposed.
 */

/**
 * A step marked as a join or exit runs the pool's single-token join or exit instead: what the
 * batch relayer does with the same steps in the same order, so the same states apply.
 */
export type ReplayResult =
  | {
      readonly ok: true;
      readonly deltas: bigint[];
      /** Each step's calculated amount (out for a sell, in for a buy). */
      readonly amounts: bigint[];
    }
  | { readonly ok: false; readonly reason: string };

export function replayBatchSwap(
  kind: OrderKind,
  steps: readonly BatchStep[],
  /** Lower-case token addresses (wrapped native where the Vault would see the native marker). */
  assets: readonly string[],
  modelOf: (poolId: string) => PoolModel | undefined,
): ReplayResult {
  const givenIn = kind === 'sell';
  const states = new Map<string, PoolState>();
  const deltas = assets.map(() => 0n);
  const amounts: bigint[] = [];
  let previousToken: string | undefined;
  let previousAmount = 0n;
  for (const [n, step] of steps.entries()) {
    const tokenIn = assets[step.assetInIndex];
    const tokenOut = assets[step.assetOutIndex];
    if (tokenIn === undefined || tokenOut === undefined)
      return { ok: false, reason: `swap ${n}: asset index out of range` };
    let amount = step.amount;
    if (amount === 0n) {
      const given = givenIn ? tokenIn : tokenOut;
      if (n === 0 || given !== previousToken)
        return { ok: false, reason: `swap ${n}: a zero amount must continue the previous swap's token` };
      amount = previousAmount;
    }
    const found = modelOf(step.poolId.toLowerCase());
    if (!found) return { ok: false, reason: `swap ${n}: pool ${step.poolId} is not routable here` };
    let model: PoolModel = found;
    if (step.action) {
      if (!canJoinExit(found))
        return { ok: false, reason: `swap ${n}: pool ${step.poolId} has no single-token ${step.action}` };
      model = new JoinExitPool(found, true, true);
    }
    let state = states.get(model.id);
    if (!state) {
      state = model.initialState();
      states.set(model.id, state);
    }
    const i = model.tokens.indexOf(tokenIn);
    const j = model.tokens.indexOf(tokenOut);
    if (i < 0 || j < 0 || !model.canSwap(i, j))
      return { ok: false, reason: `swap ${n}: pool ${step.poolId} does not swap ${tokenIn} for ${tokenOut}` };
    let calculated: bigint;
    try {
      calculated = model.swap(state, givenIn ? 'givenIn' : 'givenOut', i, j, amount);
    } catch (e) {
      if (isRevert(e)) return { ok: false, reason: `swap ${n}: ${e.message}` };
      throw e;
    }
    const [amountIn, amountOut] = givenIn ? [amount, calculated] : [calculated, amount];
    model.apply(state, i, j, amountIn, amountOut);
    deltas[step.assetInIndex] = deltas[step.assetInIndex]! + amountIn;
    deltas[step.assetOutIndex] = deltas[step.assetOutIndex]! - amountOut;
    previousToken = givenIn ? tokenOut : tokenIn;
    previousAmount = calculated;
    amounts.push(calculated);
  }
  return { ok: true, deltas, amounts };
}
