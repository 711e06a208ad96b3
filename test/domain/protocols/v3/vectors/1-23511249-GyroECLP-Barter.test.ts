import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import { eclpVectorPool } from '../../../../helpers/v3EclpVector';
import { loadV3Vector, swapTitle } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('1-23511249-GyroECLP-Barter.json');
const pool = eclpVectorPool(vector.pool);

describe(`${vector.file}: a mainnet V3 Gyro E-CLP (WETH and an 18-decimal token, 50% aggregate swap fee) at block ${vector.pool.blockNumber}`, () => {
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
