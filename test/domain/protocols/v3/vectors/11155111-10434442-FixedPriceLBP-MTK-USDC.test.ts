import { fixedPriceLbpMath } from '../../../../../src/domain/poolTypes/weighted/v3/fixedPriceLbpV3Pool';
import { isSaleOpen, lbpHook } from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3Sale';
import type { FixedPriceLbpState } from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3State';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('11155111-10434442-FixedPriceLBP-MTK-USDC.json');
const p = vector.pool;
const state: FixedPriceLbpState = {
  ...vectorVaultState(p),
  projectTokenIndex: p.num('projectTokenIndex'),
  reserveTokenIndex: p.num('reserveTokenIndex'),
  startTime: p.big('startTime'),
  endTime: p.big('endTime'),
  projectTokenRate: p.big('projectTokenRate'),
};
const timestamp = p.big('currentTimestamp');
const pool: V3Pool = { state, math: fixedPriceLbpMath(state, timestamp), hook: lbpHook(state, timestamp) };

describe(`${vector.file}: a fixed-price V3 LBP selling MTK for USDC (6 decimals) at block ${p.blockNumber}`, () => {
  test("the sale is open at the block's timestamp, as the pool reported", () => {
    expect(isSaleOpen(state, timestamp)).toBe(p.bool('isSwapEnabled'));
  });

  vectorCases(vector, pool);
});
