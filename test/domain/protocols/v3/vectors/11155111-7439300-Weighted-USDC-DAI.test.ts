import { weightedV3Math } from '../../../../../src/domain/poolTypes/weighted/v3/weightedV3Pool';
import type { WeightedV3State } from '../../../../../src/domain/poolTypes/weighted/v3/weightedV3State';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('11155111-7439300-Weighted-USDC-DAI.json');
const state: WeightedV3State = { ...vectorVaultState(vector.pool), weights: vector.pool.bigs('weights') };
const pool: V3Pool = { state, math: weightedV3Math(state) };

describe(`${vector.file}: a launch V3 weighted pool (USDC 6 decimals, DAI 18) at block ${vector.pool.blockNumber}`, () => {
  vectorCases(vector, pool);
});
