import { getCreateAddress } from 'ethers';
import { devAccount, LBP_ADMIN_INDEX, LIDO_ADMIN_INDEX } from './accounts';
import { DEV_TOKENS } from './universe';

/**
 * What a deployed devnet consists of: the Balancer stack's addresses, the tokens and the pools.
 * Built by `deployDevnet` or read back from a running chain by `readDevnet`.
 */
export interface DevnetAddresses {
  readonly weth: string;
  readonly authorizer: string;
  readonly vault: string;
  readonly protocolFeePercentagesProvider: string;
  readonly weightedPoolFactory: string;
  /** The 2021 (v1) factory: its pools round powers differently, so the devnet has one of them too. */
  readonly weightedPoolFactoryV1: string;
  readonly composableStablePoolFactory: string;
  /** The 2022 plain stable pool factory (Stable v2). */
  readonly stablePoolFactoryV2: string;
  /** The 2023 ERC4626 linear pool factory (v3). */
  readonly erc4626LinearPoolFactory: string;
  /** The no-protocol-fee liquidity bootstrapping pool factory, from its own account (`LBP_ADMIN_INDEX`). */
  readonly liquidityBootstrappingPoolFactory: string;
  readonly balancerQueries: string;
  readonly batchRelayerLibrary: string;
  readonly batchRelayer: string;
  /** Lido-shaped stETH and wstETH, deployed by their own account (`expectedLidoAddresses`). */
  readonly stETH: string;
  readonly wstETH: string;
}

export interface DevnetToken {
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  /** Lower-case address. */
  readonly address: string;
}

export type DevnetPoolKind = 'weighted' | 'composableStable' | 'stable' | 'linear' | 'liquidityBootstrapping';

export interface DevnetPool {
  readonly id: string;
  /** Lower-case address. */
  readonly address: string;
  readonly kind: DevnetPoolKind;
  readonly name: string;
  /** The BPT's symbol (how universe.ts names the pool's token, e.g. bb-USDC). */
  readonly symbol: string;
  /** Lower-case token addresses in Vault order (a composable stable or linear pool's own BPT included). */
  readonly tokens: readonly string[];
}

export interface Devnet {
  readonly chainId: number;
  /** Balancer V2: its stack, the tokens and its pools. */
  readonly addresses: DevnetAddresses;
  readonly tokens: readonly DevnetToken[];
  readonly pools: readonly DevnetPool[];
  /** Balancer V3 beside it: its own Vault, routers, Permit2, buffers and pools. */
  readonly v3: DevnetV3;
}

export const DEVNET_CHAIN_ID = 31337;

/**
 * The stack's addresses follow from the deployer and the fixed deployment order (CREATE uses the
 * sender's nonce), so they are known before anything is deployed; chains.ts lists them and a test
 * keeps the two in step. Changing the order in deploy.ts changes these addresses.
 */
export function expectedLidoAddresses(admin: string = devAccount(LIDO_ADMIN_INDEX).address): {
  stETH: string;
  wstETH: string;
} {
  return {
    stETH: getCreateAddress({ from: admin, nonce: 0 }).toLowerCase(),
    wstETH: getCreateAddress({ from: admin, nonce: 1 }).toLowerCase(),
  };
}

export function expectedAddresses(deployer: string): DevnetAddresses {
  const at = (nonce: number) => getCreateAddress({ from: deployer, nonce }).toLowerCase();
  const batchRelayerLibrary = at(7);
  // The factories added later come after the dev tokens, so the tokens keep their addresses.
  const afterTokens = 10 + DEV_TOKENS.length;
  return {
    weth: at(0),
    authorizer: at(1),
    vault: at(2),
    protocolFeePercentagesProvider: at(3),
    weightedPoolFactory: at(4),
    composableStablePoolFactory: at(5),
    balancerQueries: at(6),
    batchRelayerLibrary,
    // Nonce 8 is the Authorizer grant for the relayer; the v1 factory comes after it.
    weightedPoolFactoryV1: at(9),
    stablePoolFactoryV2: at(afterTokens),
    erc4626LinearPoolFactory: at(afterTokens + 1),
    // The library's constructor creates the relayer entry point as its first contract (nonce 1).
    batchRelayer: getCreateAddress({ from: batchRelayerLibrary, nonce: 1 }).toLowerCase(),
    liquidityBootstrappingPoolFactory: getCreateAddress({
      from: devAccount(LBP_ADMIN_INDEX).address,
      nonce: 0,
    }).toLowerCase(),
    ...expectedLidoAddresses(),
  };
}

/** The Balancer V3 side of a devnet (deployed by v3/deploy.ts, at the addresses of v3/devnetV3.ts). */
export interface DevnetV3Addresses {
  readonly permit2: string;
  readonly vaultAdmin: string;
  readonly vaultExtension: string;
  readonly protocolFeeController: string;
  readonly vault: string;
  readonly router: string;
  readonly batchRouter: string;
  readonly bufferRouter: string;
  readonly vaultExplorer: string;
  readonly weightedPoolFactory: string;
  readonly stablePoolFactory: string;
  /** After the ERC-4626 tokens (`v3/devnetV3.ts`): the token sales' factories, the Router their trusted router. */
  readonly lbPoolFactory: string;
  readonly fixedPriceLbPoolFactory: string;
}

export type DevnetV3PoolKind = 'weighted' | 'stable' | 'lbp' | 'fixedPriceLbp';

export interface DevnetV3Pool {
  /** Lower-case address (a V3 pool has no pool id: its address is its key). */
  readonly address: string;
  readonly kind: DevnetV3PoolKind;
  readonly name: string;
  readonly symbol: string;
  /** Lower-case token addresses in Vault order (sorted). */
  readonly tokens: readonly string[];
}

/** An ERC-4626 token with an initialised Vault buffer. */
export interface DevnetV3Buffer {
  readonly symbol: string;
  /** Lower-case addresses of the ERC-4626 token, its asset and its rate provider. */
  readonly wrapped: string;
  readonly underlying: string;
  readonly rateProvider: string;
}

export interface DevnetV3 {
  readonly addresses: DevnetV3Addresses;
  /** Tokens only V3 pools hold (the boosted pool's ERC-4626 tokens); the rest are the devnet's. */
  readonly tokens: readonly DevnetToken[];
  readonly buffers: readonly DevnetV3Buffer[];
  readonly pools: readonly DevnetV3Pool[];
}

/** A token by symbol; a pool's BPT (V2 or V3) counts as a token (18 decimals) under the pool's symbol. */
export function tokenBySymbol(devnet: Devnet, symbol: string): DevnetToken {
  const t = devnet.tokens.find((x) => x.symbol === symbol) ?? devnet.v3.tokens.find((x) => x.symbol === symbol);
  if (t) return t;
  const pool = devnet.pools.find((p) => p.symbol === symbol) ?? devnet.v3.pools.find((p) => p.symbol === symbol);
  if (pool) return { symbol, name: pool.name, decimals: 18, address: pool.address };
  const known = [...devnet.tokens, ...devnet.pools, ...devnet.v3.tokens, ...devnet.v3.pools].map((x) => x.symbol);
  throw new Error(`devnet has no token ${symbol} (has ${known.join(', ')})`);
}
