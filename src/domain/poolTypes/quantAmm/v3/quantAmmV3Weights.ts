import { Revert } from '../../../swap/math/revert';
import type { QuantAmmState } from './quantAmmV3State';

/** What the weights move from: the two packed words and their times. */
export type QuantAmmWeightWords = Pick<
  QuantAmmState,
  'firstFourWeightsAndMultipliers' | 'secondFourWeightsAndMultipliers' | 'lastUpdateTime' | 'lastInteropTime'
>;

/** A packed word holds at most four tokens' weights and multipliers. */
const TOKENS_PER_WORD = 4;

/**
 * The pool's normalized weights at a block's timestamp, as QuantAMMWeightedPool computes them for
 * every swap, invariant and balance: each weight moves by its multiplier for every second since
 * `lastUpdateTime`, up to `lastInteropTime`.
 */
export function quantAmmWeights(state: QuantAmmWeightWords, tokenCount: number, timestamp: bigint): bigint[] {
  const elapsed = secondsOfMovement(state, timestamp);
  const weights: bigint[] = [];
  for (let k = 0; k < tokenCount; k++) weights.push(weightAt(state, tokenCount, k, elapsed));
  return weights;
}

function secondsOfMovement(state: QuantAmmWeightWords, timestamp: bigint): bigint {
  const until = timestamp >= state.lastInteropTime ? state.lastInteropTime : timestamp;
  // uint40 arithmetic on chain: a time before the last update cannot be priced.
  if (until < state.lastUpdateTime) throw new Revert('QuantAMM time before the last weight update');
  return until - state.lastUpdateTime;
}

function weightAt(state: QuantAmmWeightWords, tokenCount: number, token: number, elapsed: bigint): bigint {
  const inFirst = token < TOKENS_PER_WORD;
  const word = inFirst ? state.firstFourWeightsAndMultipliers : state.secondFourWeightsAndMultipliers;
  const index = inFirst ? token : token - TOKENS_PER_WORD;
  const tokensInWord = inFirst ? Math.min(tokenCount, TOKENS_PER_WORD) : tokenCount - TOKENS_PER_WORD;
  const weight = word[index];
  const multiplier = word[index + tokensInWord];
  if (weight === undefined || multiplier === undefined)
    throw new RangeError(`QuantAMM state has no weight for token ${token}`);
  // The contract scales the multiplier by 1e18 and mulDowns by the seconds: exactly multiplier * seconds.
  const moved = weight + multiplier * elapsed;
  if (moved < 0n) throw new Revert('QuantAMM weight below zero (checked arithmetic)');
  return moved;
}
