import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import { reClammWithinTargetRange } from '../../../../../src/domain/poolTypes/reClamm/v3/reClammV3Math';
import { reClammVectorPool, reClammVectorState } from '../../../../helpers/v3ReClammVector';
import { vectorCases } from '../../../../helpers/v3VectorCases';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('8453-32641745-ReClamm-V2-Out-Of-Range.json');

/** Swaps run in a block with the vector's timestamp: the pool's virtual balances moved to it. */
describe(`${vector.file}: a ReClamm v2 pool (WETH, USDC) out of range, ten seconds after its last update at block ${vector.pool.blockNumber}`, () => {
  vectorCases(vector, reClammVectorPool(vector.pool));

  test('in or out of its target range as the pool answered (isPoolWithinTargetRange)', () => {
    const state = reClammVectorState(vector.pool);
    const [virtualA, virtualB] = state.lastVirtualBalances;
    const within = reClammWithinTargetRange(state.balancesLiveScaled18, virtualA, virtualB, state.centerednessMargin);
    expect(within).toBe(vector.pool.bool('isPoolWithinTargetRange'));
  });

  test('priced at the stored virtual balances (time ignored), the quotes miss the chain', () => {
    const stale = reClammVectorPool(vector.pool, vector.pool.big('lastTimestamp'));
    const misses = vector.swaps.filter(
      (s) =>
        vaultSwap(stale, { kind: s.kind, tokenIn: s.tokenIn, tokenOut: s.tokenOut, amountGivenRaw: s.amountRaw })
          .amountCalculatedRaw !== s.outputRaw,
    );
    expect(misses.length).toBeGreaterThan(0);
  });
});
