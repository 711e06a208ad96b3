import { vaultSwap, type V3SwapRequest } from '../../../../../src/domain/protocols/v3/vault/swap';
import { reClammVectorPool } from '../../../../helpers/v3ReClammVector';
import { loadV3Vector, swapTitle, type V3VectorSwap } from '../../../../helpers/v3Vectors';

const vector = loadV3Vector('8453-31094381-ReClamm-WETH-USDC-Out-Of-Range.json');
const pool = reClammVectorPool(vector.pool);

const request = (swap: V3VectorSwap): V3SwapRequest => ({
  kind: swap.kind,
  tokenIn: swap.tokenIn,
  tokenOut: swap.tokenOut,
  amountGivenRaw: swap.amountRaw,
});

describe(`${vector.file}: a ReClamm v1 pool out of range, two seconds after its last update at block ${vector.pool.blockNumber}`, () => {
  test.each(vector.swaps.map((s) => [swapTitle(s), s] as const))(
    'swap %s: the chain query exactly, virtual balances moved to the block timestamp',
    (_t, swap) => {
      expect(vaultSwap(pool, request(swap)).amountCalculatedRaw).toBe(swap.outputRaw);
    },
  );

  test('priced at the stored virtual balances (time ignored), the quotes miss the chain', () => {
    const stale = reClammVectorPool(vector.pool, vector.pool.big('lastTimestamp'));
    const misses = vector.swaps.filter((s) => vaultSwap(stale, request(s)).amountCalculatedRaw !== s.outputRaw);
    expect(misses.length).toBeGreaterThan(0);
  });
});
