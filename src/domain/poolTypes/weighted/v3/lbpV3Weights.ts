import { divDown, mulDown, ONE } from '../../../swap/math/fixedPoint';
import type { LbpState } from './lbpV3State';

/** What the weights depend on: the two tokens' indices, the sale window and the end weights. */
export type LbpSchedule = Pick<
  LbpState,
  'projectTokenIndex' | 'reserveTokenIndex' | 'startTime' | 'endTime' | 'startWeights' | 'endWeights'
>;

/**
 * The weighted LBP's normalized weights at a block's timestamp (LBPool with GradualValueChange):
 * the project token's weight moves linearly from its start to its end weight over the sale window,
 * held before and after; the reserve token takes the rest of 1e18.
 */
export function lbpWeights(state: LbpSchedule, timestamp: bigint): bigint[] {
  const project = state.projectTokenIndex;
  const projectWeight = interpolate(
    state.startWeights[project]!,
    state.endWeights[project]!,
    progress(state, timestamp),
  );
  const weights = [0n, 0n];
  weights[project] = projectWeight;
  weights[state.reserveTokenIndex] = ONE - projectWeight;
  return weights;
}

function progress(state: LbpSchedule, timestamp: bigint): bigint {
  if (timestamp >= state.endTime) return ONE;
  if (timestamp <= state.startTime) return 0n;
  return divDown(timestamp - state.startTime, state.endTime - state.startTime);
}

function interpolate(start: bigint, end: bigint, pctProgress: bigint): bigint {
  if (pctProgress >= ONE || start === end) return end;
  if (pctProgress === 0n) return start;
  return start > end ? start - mulDown(pctProgress, start - end) : start + mulDown(pctProgress, end - start);
}

/**
 * The time an LBP's math is built at for a block at `timestamp`: any time before the sale prices
 * alike (no swap, the start weights), as does any after it; inside it, the weights move every
 * second unless the start and end weights are the same.
 */
export function lbpPricingTime(state: LbpSchedule, timestamp: bigint): bigint {
  if (timestamp < state.startTime) return state.startTime - 1n;
  if (timestamp > state.endTime) return state.endTime + 1n;
  const project = state.projectTokenIndex;
  return state.startWeights[project] === state.endWeights[project] ? state.startTime : timestamp;
}
