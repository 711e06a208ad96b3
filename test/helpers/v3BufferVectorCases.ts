import type { BufferState } from '../../src/domain/protocols/v3/buffer/bufferState';
import { erc4626ByRate } from '../../src/domain/protocols/v3/buffer/erc4626';
import { bufferWrapOrUnwrap, type BufferPricing } from '../../src/domain/protocols/v3/buffer/wrapOrUnwrap';
import { swapTitle, type V3Vector } from './v3Vectors';

/**
 * One test per swap of a buffer vector. The chain's query prices through the wrapped token's own
 * previews and never looks at the buffer's balances; the vector records the token's share price
 * only as `convertToAssets(1e18)`, an integer that truncates it: the true price lies in
 * [rate, rate + 1) per 1e18 shares. So the Vault's arithmetic over a token previewing at each end
 * of that range must bracket the chain's answer; where both ends agree, that is the answer exactly.
 */
export function bufferVectorCases(vector: V3Vector, pricing: BufferPricing): void {
  const [wrappedToken, underlyingToken] = vector.pool.tokens as [string, string];
  const rate = vector.pool.big('rate');
  // A buffer holding plenty of both: the query answers as if it did.
  const buffer: BufferState = {
    wrappedToken,
    underlyingToken,
    underlyingBalanceRaw: 2n ** 128n,
    wrappedBalanceRaw: 2n ** 128n,
    buffersPaused: false,
  };
  test.each(vector.swaps.map((s) => [swapTitle(s), s] as const))(
    'swap %s: the chain query, within the vector rate truncation',
    (_t, swap) => {
      const request = { kind: swap.kind, tokenIn: swap.tokenIn, amountGivenRaw: swap.amountRaw };
      const [low, high] = [rate, rate + 1n].map(
        (r) => bufferWrapOrUnwrap(buffer, erc4626ByRate(r), request, { pricing }).amountCalculatedRaw,
      ) as [bigint, bigint];
      const [min, max] = low <= high ? [low, high] : [high, low];
      if (swap.outputRaw < min || swap.outputRaw > max) {
        throw new Error(`chain ${swap.outputRaw} outside [${min}, ${max}] (pricing ${pricing})`);
      }
    },
  );
}
