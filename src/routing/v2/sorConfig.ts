import type { SorConfig } from '@balancer-labs/sor';
import type { ChainInfo } from '../../config/chains';

/**
 * Chain id handed to `@balancer-labs/sor`. In 4.1.3 the SOR uses `config.chainId` for nothing but
 * its RPC-backed special cases: hard-coded Lido routes for wstETH/stETH <> DAI/USDC/USDT (priced
 * with `queryBatchSwap` on a node; without a node they come back as a silent 0) and stETH/unbutton
 * wrapper rates. Routing never calls a node, so the SOR gets a chain id it has no special cases
 * for and every quote comes from its normal router over the pools we give it.
 */
export const RPC_FREE_SOR_CHAIN_ID = 0;

/**
 * Mainnet path hints (connecting tokens and pools the SOR's route proposer looks for). The SOR's
 * staBal3/USDC-connecting-pool hints are left out on purpose: with them, 4.1.3 throws "Pool does
 * not contain tokenIn" for every boosted-pool BPT on the mainnet snapshot.
 */
const MAINNET_HINTS: Partial<SorConfig> = {
  connectingTokens: [
    { symbol: 'wETH', address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' },
    { symbol: 'wstETH', address: '0x7f39c581f595b53c5cb19bd0b3f8da6c935e2ca0' },
  ],
  wETHwstETH: {
    id: '0x32296969ef14eb0c6d29669c550d4a0449130230000200000000000000000080',
    address: '0x32296969ef14eb0c6d29669c550d4a0449130230',
  },
  lbpRaisingTokens: [
    '0x6b175474e89094c44da98b954eedeac495271d0f',
    '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
    '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
  ],
};

export function sorConfigFor(chain: Pick<ChainInfo<string>, 'id' | 'vault' | 'wrappedNative'>): SorConfig {
  const base: SorConfig = {
    chainId: RPC_FREE_SOR_CHAIN_ID,
    vault: chain.vault,
    weth: chain.wrappedNative,
    connectingTokens: [{ symbol: 'wrappedNative', address: chain.wrappedNative }],
  };
  return chain.id === 1 ? { ...base, ...MAINNET_HINTS } : base;
}

/**
 * SOR path candidates depend on the timestamp (only Element pools price by time to expiry, and
 * slowly) and are cached per timestamp. A new timestamp makes every pair pay for its candidate
 * paths again, so it moves in 5-minute steps, the pool-update cadence that rebuilds routers anyway.
 */
export const SOR_TIMESTAMP_BUCKET_SECONDS = 300;

export function sorTimestamp(nowMs: number): number {
  const s = Math.floor(nowMs / 1000);
  return s - (s % SOR_TIMESTAMP_BUCKET_SECONDS);
}
