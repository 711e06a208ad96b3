import { stableV3Math, steadyAmp } from '../../../../../src/domain/poolTypes/stable/v3/stableV3Pool';
import type { StableV3State } from '../../../../../src/domain/poolTypes/stable/v3/stableV3State';
import { stableSurgeHook } from '../../../../../src/domain/protocols/v3/hooks/stableSurge/stableSurgeHook';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('1-22247251-StableSurgeHook.json');
const p = vector.pool;
// The vector records the amp the pool used at its block (no ramp under way).
const state: StableV3State = { ...vectorVaultState(p), amp: steadyAmp(p.big('amp')) };
const math = stableV3Math(state, 0n);
const hookData = p.hook?.dynamicData ?? {};
const pool: V3Pool = {
  state,
  math,
  hook: stableSurgeHook(
    {
      maxSurgeFeePercentage: BigInt(hookData['maxSurgeFeePercentage'] ?? 'missing'),
      surgeThresholdPercentage: BigInt(hookData['surgeThresholdPercentage'] ?? 'missing'),
    },
    math,
  ),
};

describe(`${vector.file}: a V3 stable pool (two rate-bearing tokens) with the StableSurge hook at block ${p.blockNumber}`, () => {
  test('the vector names the StableSurge hook', () => {
    expect(p.hook?.type).toBe('STABLE_SURGE');
  });

  vectorCases(vector, pool);
});
