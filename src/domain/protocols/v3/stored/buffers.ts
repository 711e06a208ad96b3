import { erc4626ByRate, openZeppelinErc4626, type Erc4626Token } from '../buffer/erc4626';
import type { BufferState } from '../buffer/bufferState';
import type { StoredBuffer, StoredErc4626 } from './storedV3';

/** A stored buffer as the buffer math (`buffer/wrapOrUnwrap.ts`) takes it. */
export function bufferStateOf(b: StoredBuffer): BufferState {
  return {
    wrappedToken: b.wrappedToken,
    underlyingToken: b.underlyingToken,
    underlyingBalanceRaw: BigInt(b.underlyingBalance),
    wrappedBalanceRaw: BigInt(b.wrappedBalance),
    buffersPaused: b.buffersPaused,
  };
}

/** The wrapped token's previews and limits, as stored. */
export function erc4626Of(t: StoredErc4626): Erc4626Token {
  if (t.conversion === 'totals')
    return openZeppelinErc4626({
      totalAssets: BigInt(t.totalAssets),
      totalSupply: BigInt(t.totalSupply),
      decimalsOffset: BigInt(t.decimalsOffset),
      vaultShares: BigInt(t.vaultShares),
    });
  return erc4626ByRate(BigInt(t.rate), {
    maxDeposit: BigInt(t.maxDeposit),
    maxMint: BigInt(t.maxMint),
    maxRedeem: BigInt(t.maxRedeem),
    maxWithdraw: BigInt(t.maxWithdraw),
  });
}
