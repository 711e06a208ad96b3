import type { StoredPool } from '../../../pool';
import type { V3PoolState } from '../../../protocols/v3/vault/poolState';
import type { QuantAmmWeightWords } from './quantAmmV3Weights';
import type { QuantAmmState } from './quantAmmV3State';

/** A packed word unpacks into eight values. */
const WORD_VALUES = 4;

/** A stored QuantAMM pool's state: its Vault state, its weight words and its trade size cap. */
export function quantAmmStateOf(pool: StoredPool, vaultState: V3PoolState): QuantAmmState {
  const cap = pool.maxTradeSizeRatio;
  if (cap === undefined) throw new Error(`QuantAMM pool ${pool.id} has no maxTradeSizeRatio`);
  return { ...vaultState, ...quantAmmWordsOf(pool), maxTradeSizeRatio: BigInt(cap) };
}

/**
 * The weight words of a stored QuantAMM pool (`quantAmmV3Params.ts`), the two packed words put back
 * together from the subgraph's halves. Throws when a parameter is missing (such a pool is not
 * quoted).
 */
export function quantAmmWordsOf(pool: StoredPool): QuantAmmWeightWords {
  const need = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`QuantAMM pool ${pool.id} has no ${name}`);
    return value;
  };
  const weights = need(pool.weightsAtLastUpdateInterval, 'weightsAtLastUpdateInterval').map((v) => BigInt(v));
  const multipliers = need(pool.weightBlockMultipliers, 'weightBlockMultipliers').map((v) => BigInt(v));
  const word = (k: 0 | 1): bigint[] => {
    const values = [
      ...weights.slice(k * WORD_VALUES, (k + 1) * WORD_VALUES),
      ...multipliers.slice(k * WORD_VALUES, (k + 1) * WORD_VALUES),
    ];
    while (values.length < 2 * WORD_VALUES) values.push(0n);
    return values;
  };
  return {
    firstFourWeightsAndMultipliers: word(0),
    secondFourWeightsAndMultipliers: word(1),
    lastUpdateTime: BigInt(need(pool.lastUpdateIntervalTime, 'lastUpdateIntervalTime')),
    lastInteropTime: BigInt(need(pool.lastInterpolationTimePossible, 'lastInterpolationTimePossible')),
  };
}
