import { lbpMath } from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3Pool';
import { isSaleOpen, lbpHook } from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3Sale';
import type { LbpState } from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3State';
import { lbpWeights } from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3Weights';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('11155111-8085514-LBP-BAL-DAI.json');
const p = vector.pool;
const projectTokenIndex = p.num('projectTokenIndex');
const state: LbpState = {
  ...vectorVaultState(p),
  projectTokenIndex,
  reserveTokenIndex: 1 - projectTokenIndex,
  startTime: p.big('startTime'),
  endTime: p.big('endTime'),
  isProjectTokenSwapInBlocked: p.bool('isProjectTokenSwapInBlocked'),
  startWeights: p.bigs('startWeights'),
  endWeights: p.bigs('endWeights'),
};
const timestamp = p.big('currentTimestamp');
const pool: V3Pool = { state, math: lbpMath(state, timestamp), hook: lbpHook(state, timestamp) };

describe(`${vector.file}: a V3 LBP mid-sale (weights moving with time) at block ${p.blockNumber}`, () => {
  test("the weights at the block's timestamp are the ones the pool reported", () => {
    expect(lbpWeights(state, timestamp)).toEqual(p.bigs('weights'));
  });

  test("the sale is open at the block's timestamp, as the pool reported", () => {
    expect(isSaleOpen(state, timestamp)).toBe(p.bool('isSwapEnabled'));
  });

  vectorCases(vector, pool);
});
