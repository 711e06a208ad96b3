import {
  API_CHAIN_NAMES,
  BALANCER_QUERIES,
  balancerV2Contracts,
  balancerV3Contracts,
  CHAINS,
  ChainId,
  NATIVE_ASSETS,
  NativeToken,
  PERMIT2,
  VAULT_V2,
} from '@balancer/sdk';
import { DEVNET_CHAIN_ID, type Devnet } from '../../../src/devnet/devnet';

/**
 * Balancer's SDK (`@balancer/sdk`, unmodified) knows a fixed set of chains: every contract, the
 * wrapped native token and the API's chain name come from tables it exports, keyed by chain id.
 * It has no call to add a chain, so a user of a chain it does not know (here the devnet, 31337)
 * writes that chain's rows into those tables once, before the first call: what this does.
 */

type Address = `0x${string}`;
/** The SDK types its address tables `as const`; a new chain's row is written through this view. */
type Rows = Record<number, Address>;

/** The devnet's chain id as the SDK types a chain (its `ChainId` enum, which lacks it). */
export const SDK_DEVNET_CHAIN = DEVNET_CHAIN_ID as ChainId;

export const NATIVE_ETH: Address = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';

export function registerDevnetWithBalancerSdk(devnet: Devnet, rpcUrl: string): void {
  const id = devnet.chainId;
  const v2 = devnet.addresses;
  const v3 = devnet.v3.addresses;
  const at = (a: string) => a.toLowerCase() as Address;
  // The liquidity entities accept only a chain id of the SDK's `ChainId` enum (a number -> name
  // object at run time); the service's GraphQL names the devnet HARDHAT (GqlChain).
  (ChainId as unknown as Record<number, string>)[id] = 'HARDHAT';
  API_CHAIN_NAMES[id] = 'HARDHAT';
  CHAINS[id] = {
    id,
    name: 'Balancer devnet',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  };
  // Lower case: the SDK compares the wrapped token with its own lower-cased token addresses.
  (NATIVE_ASSETS as Record<number, NativeToken>)[id] = new NativeToken(id, NATIVE_ETH, 18, at(v2.weth), 'ETH', 'Ether');
  PERMIT2[id] = at(v3.permit2);
  VAULT_V2[id] = at(v2.vault);
  BALANCER_QUERIES[id] = at(v2.balancerQueries);
  (balancerV2Contracts.Vault as Rows)[id] = at(v2.vault);
  (balancerV2Contracts.BalancerQueries as Rows)[id] = at(v2.balancerQueries);
  const v3Rows: Partial<Record<keyof typeof balancerV3Contracts, string>> = {
    Vault: v3.vault,
    VaultAdmin: v3.vaultAdmin,
    VaultExtension: v3.vaultExtension,
    Router: v3.router,
    BatchRouter: v3.batchRouter,
    BufferRouter: v3.bufferRouter,
    WeightedPoolFactory: v3.weightedPoolFactory,
    StablePoolFactory: v3.stablePoolFactory,
    LBPoolFactory: v3.lbPoolFactory,
    FixedPriceLBPoolFactory: v3.fixedPriceLbPoolFactory,
  };
  for (const [name, address] of Object.entries(v3Rows))
    (balancerV3Contracts[name as keyof typeof balancerV3Contracts] as Rows)[id] = at(address);
}
