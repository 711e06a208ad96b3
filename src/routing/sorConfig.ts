import type { SorConfig } from '@balancer-labs/sor';
import type { ChainInfo } from '../config/chains';

/**
 * Chain id handed to `@balancer-labs/sor`. In 4.1.3 the SOR uses `config.chainId` for nothing but
 * its RPC-backed special cases: hard-coded Lido routes for wstETH/stETH <> DAI/USDC/USDT (priced
 * with `queryBatchSwap` on a node; without a node they come back as a silent 0) and stETH/unbutton
 * wrapper rates. Routing never calls a node, so the SOR gets a chain id it has no special cases
 * for and every quote comes from its normal router over the pools we give it.
 */
export const RPC_FREE_SOR_CHAIN_ID = 0;

/** Mainnet path hints (pools and connecting tokens the SOR's route proposer looks for). */
const MAINNET_HINTS: Partial<SorConfig> = {
  connectingTokens: [
    { symbol: 'wETH', address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' },
    { symbol: 'wstETH', address: '0x7f39c581f595b53c5cb19bd0b3f8da6c935e2ca0' },
  ],
  usdcConnectingPool: {
    id: '0x96646936b91d6b9d7d0c47c496afbf3d6ec7b6f8000200000000000000000019',
    usdc: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  },
  staBal3Pool: {
    id: '0x7b50775383d3d6f0215a8f290f2c9e2eebbeceb20000000000000000000000fe',
    address: '0x7b50775383d3d6f0215a8f290f2c9e2eebbeceb2',
  },
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

export function sorConfigFor(chain: Pick<ChainInfo, 'id' | 'vault' | 'wrappedNative'>): SorConfig {
  const base: SorConfig = {
    chainId: RPC_FREE_SOR_CHAIN_ID,
    vault: chain.vault,
    weth: chain.wrappedNative,
    connectingTokens: [{ symbol: 'wrappedNative', address: chain.wrappedNative }],
  };
  return chain.id === 1 ? { ...base, ...MAINNET_HINTS } : base;
}

/**
 * SOR path candidates depend on the timestamp (Element pools price by time to expiry) and are
 * cached per timestamp; a minute bucket keeps that cache useful while staying within a minute of
 * the real time.
 */
export const SOR_TIMESTAMP_BUCKET_SECONDS = 60;

export function sorTimestamp(nowMs: number): number {
  const s = Math.floor(nowMs / 1000);
  return s - (s % SOR_TIMESTAMP_BUCKET_SECONDS);
}
