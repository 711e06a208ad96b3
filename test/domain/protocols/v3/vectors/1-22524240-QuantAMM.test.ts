import { quantAmmMath } from '../../../../../src/domain/poolTypes/quantAmm/v3/quantAmmV3Pool';
import type { QuantAmmState } from '../../../../../src/domain/poolTypes/quantAmm/v3/quantAmmV3State';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('1-22524240-QuantAMM.json');
const p = vector.pool;
const state: QuantAmmState = {
  ...vectorVaultState(p),
  firstFourWeightsAndMultipliers: p.bigs('firstFourWeightsAndMultipliers'),
  secondFourWeightsAndMultipliers: p.bigs('secondFourWeightsAndMultipliers'),
  lastUpdateTime: p.big('lastUpdateTime'),
  lastInteropTime: p.big('lastInteropTime'),
  maxTradeSizeRatio: p.big('maxTradeSizeRatio'),
};
const pool: V3Pool = { state, math: quantAmmMath(state, p.big('currentTimestamp')) };

describe(`${vector.file}: a QuantAMM pool (WBTC, PAXG, USDC) with weights moving at block ${p.blockNumber}`, () => {
  vectorCases(vector, pool);
});
