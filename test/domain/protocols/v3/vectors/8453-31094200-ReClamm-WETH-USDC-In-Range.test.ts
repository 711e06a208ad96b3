import { vaultSwap, type V3SwapRequest } from '../../../../../src/domain/protocols/v3/vault/swap';
import { reClammVectorPool } from '../../../../helpers/v3ReClammVector';
import { loadV3Vector, swapTitle, type V3VectorSwap } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('8453-31094200-ReClamm-WETH-USDC-In-Range.json');
const pool = reClammVectorPool(vector.pool);

const request = (swap: V3VectorSwap): V3SwapRequest => ({
  kind: swap.kind,
  tokenIn: swap.tokenIn,
  tokenOut: swap.tokenOut,
  amountGivenRaw: swap.amountRaw,
});

describe(`${vector.file}: a ReClamm v1 pool (WETH, USDC) in its target range at block ${vector.pool.blockNumber}`, () => {
  test.each(vector.swaps.map((s) => [swapTitle(s), s] as const))(
    'swap %s: the chain query exactly, virtual balances moved to the block timestamp',
    (_t, swap) => {
      expect(vaultSwap(pool, request(swap)).amountCalculatedRaw).toBe(swap.outputRaw);
    },
  );
});
