import { stableV3Math, steadyAmp } from '../../../../../src/domain/poolTypes/stable/v3/stableV3Pool';
import type { StableV3State } from '../../../../../src/domain/poolTypes/stable/v3/stableV3State';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('11155111-7439300-Stable-stataUSDC-stataUSDT.json');
// The vector records the amp the pool used at its block (no ramp under way).
const state: StableV3State = { ...vectorVaultState(vector.pool), amp: steadyAmp(vector.pool.big('amp')) };
const pool: V3Pool = { state, math: stableV3Math(state, 0n) };

describe(`${vector.file}: a launch V3 stable pool over two rate-bearing tokens at block ${vector.pool.blockNumber}`, () => {
  vectorCases(vector, pool);
});
