import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import { eclpVectorPool } from '../../../../helpers/v3EclpVector';
import { loadV3Vector, swapTitle } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('11155111-7748718-GyroECLP.json');
const pool = eclpVectorPool(vector.pool);

describe(`${vector.file}: a V3 Gyro E-CLP (two 18-decimal tokens, price range 0.9985..1.0002) at block ${vector.pool.blockNumber}`, () => {
  test.each(vector.swaps.map((s) => [swapTitle(s), s] as const))('swap %s: the chain query exactly', (_t, swap) => {
    const result = vaultSwap(pool, {
      kind: swap.kind,
      tokenIn: swap.tokenIn,
      tokenOut: swap.tokenOut,
      amountGivenRaw: swap.amountRaw,
    });
    expect(result.amountCalculatedRaw).toBe(swap.outputRaw);
  });
});
