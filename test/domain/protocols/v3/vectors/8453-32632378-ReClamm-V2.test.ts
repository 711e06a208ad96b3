import { reClammWithinTargetRange } from '../../../../../src/domain/poolTypes/reClamm/v3/reClammV3Math';
import { reClammVectorPool, reClammVectorState } from '../../../../helpers/v3ReClammVector';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('8453-32632378-ReClamm-V2.json');

/** Swaps run in a block with the vector's timestamp: the pool's virtual balances moved to it. */
describe(`${vector.file}: a ReClamm v2 pool (two 6-decimal tokens) in its target range at block ${vector.pool.blockNumber}`, () => {
  vectorCases(vector, reClammVectorPool(vector.pool));

  test('in or out of its target range as the pool answered (isPoolWithinTargetRange)', () => {
    const state = reClammVectorState(vector.pool);
    const [virtualA, virtualB] = state.lastVirtualBalances;
    const within = reClammWithinTargetRange(state.balancesLiveScaled18, virtualA, virtualB, state.centerednessMargin);
    expect(within).toBe(vector.pool.bool('isPoolWithinTargetRange'));
  });
});
