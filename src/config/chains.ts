/**
 * The chains the service knows, one typed row each. Everything that differs per chain lives here;
 * the rest of the code asks this table instead of hard-coding addresses.
 *
 * Relayer addresses are Balancer's current BatchRelayer (V6) deployments; subgraph URLs are the
 * Balancer Studio endpoints and must usually be overridden with `SUBGRAPH_URL_<chainId>` (a Graph
 * gateway URL with an API key) in production.
 */
import { parseAddress, type Address } from '../domain/address';

/** `A` is `Address` once parsed; the table below is written with plain strings and parsed at load. */
export interface ChainInfo<A extends string = Address> {
  readonly id: number;
  readonly name: string;
  readonly aliases: readonly string[];
  readonly nativeSymbol: string;
  /** The wrapped native token (WETH, WMATIC, ...). */
  readonly wrappedNative: A;
  readonly vault: A;
  readonly batchRelayer: A;
  readonly subgraphUrl: string;
  /** CoinGecko asset platform id for `/simple/token_price/<platform>`; null when it has none. */
  readonly pricePlatform: string | null;
  /** CoinGecko coin id of the native asset for `/simple/price?ids=`. */
  readonly nativePriceId: string;
  /** Infura network slug for the `NODEPROVIDER_PROJECT_ID` URL; null when Infura lacks the chain. */
  readonly infuraNetwork: string | null;
  /** Liquidity-mining gauges (staking and reward APRs); null when the chain has none. */
  readonly gauges: ChainGauges<A> | null;
  /**
   * Lido's stETH and its wrapper wstETH: orders selling or buying stETH are routed as wstETH, the
   * batch relayer wrapping or unwrapping (`routing/lido.ts`). Absent on chains without them.
   */
  readonly lido?: ChainLido<A>;
  /**
   * Seconds between blocks where the chain makes them on a timer, empty or not. The follower
   * evaluates time-dependent pool state (amp ramps, rate caches that expire) at the head's
   * timestamp plus this, the block a quote lands in (`domain/chainTime.ts`; 1 when absent, the
   * earliest the next block can be), and only then does a head that stops advancing mean a stuck
   * node (`jobs/headFollower.ts` `isStale`). Absent for chains that make a block only for
   * transactions (the automining devnet, Arbitrum, Avalanche, Polygon zkEVM).
   */
  readonly blockSeconds?: number;
}

export interface ChainLido<A extends string = Address> {
  readonly stETH: A;
  readonly wstETH: A;
}

/**
 * Where a chain's gauges get their BAL. Mainnet-style: the BalancerTokenAdmin's inflation, split by
 * the GaugeController's weekly weights and boosted by veBAL. Child chains: BAL arrives bridged, as
 * a reward token of 2022 gauges or as the weekly inflation rate of 2023 gauges.
 */
export type GaugeEmissions<A extends string = Address> =
  | { readonly kind: 'controller'; readonly gaugeController: A; readonly balancerTokenAdmin: A }
  | { readonly kind: 'child' };

export interface ChainGauges<A extends string = Address> {
  /** Balancer gauges subgraph (pool -> preferential gauge, its reward tokens); `GAUGES_SUBGRAPH_URL_<chainId>` overrides it. */
  readonly subgraphUrl: string;
  /** BAL on this chain (bridged on child chains). */
  readonly bal: A;
  readonly emissions: GaugeEmissions<A>;
}

export const VAULT_ADDRESS = '0xba12222222228d8ba445958a75a0704d566bf2c8';

/** Sentinel addresses wallets use for "the native asset" instead of its wrapped token. */
export const NATIVE_ASSET_ALIASES: readonly string[] = [
  '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee',
  '0x0000000000000000000000000000000000000000',
];

const studio = (slug: string) => `https://api.studio.thegraph.com/query/75376/${slug}/version/latest`;
const childGauges = (slug: string, bal: string): ChainGauges<string> => ({
  subgraphUrl: studio(slug),
  bal,
  emissions: { kind: 'child' },
});

const ROWS: readonly ChainInfo<string>[] = [
  {
    id: 1,
    name: 'mainnet',
    blockSeconds: 12,
    aliases: ['ethereum', 'eth', 'homestead'],
    nativeSymbol: 'ETH',
    wrappedNative: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    vault: VAULT_ADDRESS,
    batchRelayer: '0x35cea9e57a393ac66aaa7e25c391d52c74b5648f',
    subgraphUrl: studio('balancer-v2'),
    pricePlatform: 'ethereum',
    nativePriceId: 'ethereum',
    infuraNetwork: 'mainnet',
    gauges: {
      subgraphUrl: studio('balancer-gauges'),
      bal: '0xba100000625a3754423978a60c9317c58a424e3d',
      emissions: {
        kind: 'controller',
        gaugeController: '0xc128468b7ce63ea702c1f104d55a2566b13d3abd',
        balancerTokenAdmin: '0xf302f9f50958c5593770fdf4d4812309ff77414f',
      },
    },
    lido: { stETH: '0xae7ab96520de3a18e5e111b5eaab095312d7fe84', wstETH: '0x7f39c581f595b53c5cb19bd0b3f8da6c935e2ca0' },
  },
  {
    id: 10,
    name: 'optimism',
    blockSeconds: 2,
    aliases: ['op'],
    nativeSymbol: 'ETH',
    wrappedNative: '0x4200000000000000000000000000000000000006',
    vault: VAULT_ADDRESS,
    batchRelayer: '0x015aca20a1422f3c729086c17f15f10e0cfbc75a',
    subgraphUrl: studio('balancer-optimism-v2'),
    pricePlatform: 'optimistic-ethereum',
    nativePriceId: 'ethereum',
    infuraNetwork: 'optimism-mainnet',
    gauges: childGauges('balancer-gauges-optimism', '0xfe8b128ba8c78aabc59d4c64cee7ff28e9379921'),
  },
  {
    id: 100,
    name: 'gnosis',
    blockSeconds: 5,
    aliases: ['xdai', 'gnosis-chain'],
    nativeSymbol: 'xDAI',
    wrappedNative: '0xe91d153e0b41518a2ce8dd3d7944fa863463a97d',
    vault: VAULT_ADDRESS,
    batchRelayer: '0x2163c2fcd0940e84b8a68991bf926edfb0cd926c',
    subgraphUrl: studio('balancer-gnosis-chain-v2'),
    pricePlatform: 'xdai',
    nativePriceId: 'xdai',
    infuraNetwork: null,
    gauges: childGauges('balancer-gauges-gnosis-chain', '0x7ef541e2a22058048904fe5744f9c7e4c57af717'),
  },
  {
    id: 137,
    name: 'polygon',
    blockSeconds: 2,
    aliases: ['matic'],
    nativeSymbol: 'POL',
    wrappedNative: '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270',
    vault: VAULT_ADDRESS,
    batchRelayer: '0xb1ed8d3b5059b3281d43306cc9d043ce8b22599b',
    subgraphUrl: studio('balancer-polygon-v2'),
    pricePlatform: 'polygon-pos',
    nativePriceId: 'polygon-ecosystem-token',
    infuraNetwork: 'polygon-mainnet',
    gauges: childGauges('balancer-gauges-polygon', '0x9a71012b13ca4d3d0cdc72a177df3ef03b0e76a3'),
  },
  {
    id: 1101,
    name: 'zkevm',
    aliases: ['polygon-zkevm'],
    nativeSymbol: 'ETH',
    wrappedNative: '0x4f9a0e7fd2bf6067db6994cf12e4495df938e6e9',
    vault: VAULT_ADDRESS,
    batchRelayer: '0x8e620ffca2580ed87241d7e10f85ee75d0a906f5',
    subgraphUrl: studio('balancer-polygon-zk-v2'),
    pricePlatform: 'polygon-zkevm',
    nativePriceId: 'ethereum',
    infuraNetwork: null,
    gauges: childGauges('balancer-gauges-polygon-zk', '0x120ef59b80774f02211563834d8e3b72cb1649d6'),
  },
  {
    id: 8453,
    name: 'base',
    blockSeconds: 2,
    aliases: [],
    nativeSymbol: 'ETH',
    wrappedNative: '0x4200000000000000000000000000000000000006',
    vault: VAULT_ADDRESS,
    batchRelayer: '0x7c3c773c878d2238a9b64d8cee02377bf07ed06a',
    subgraphUrl: studio('balancer-base-v2'),
    pricePlatform: 'base',
    nativePriceId: 'ethereum',
    infuraNetwork: 'base-mainnet',
    gauges: childGauges('balancer-gauges-base', '0x4158734d47fc9692176b5085e0f52ee0da5d47f1'),
  },
  {
    id: 42161,
    name: 'arbitrum',
    aliases: ['arbitrum-one', 'arb'],
    nativeSymbol: 'ETH',
    wrappedNative: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
    vault: VAULT_ADDRESS,
    batchRelayer: '0x9b892e515d2ab8869f17488d64b3b918731cc70d',
    subgraphUrl: studio('balancer-arbitrum-v2'),
    pricePlatform: 'arbitrum-one',
    nativePriceId: 'ethereum',
    infuraNetwork: 'arbitrum-mainnet',
    gauges: childGauges('balancer-gauges-arbitrum', '0x040d1edc9569d4bab2d15287dc5a4f10f56a56b8'),
  },
  {
    id: 43114,
    name: 'avalanche',
    aliases: ['avax'],
    nativeSymbol: 'AVAX',
    wrappedNative: '0xb31f66aa3c1e785363f0875a1b74e27b85fd66c7',
    vault: VAULT_ADDRESS,
    batchRelayer: '0xa084c11cb55e67c9becf9607f1dbb20ec4d5e7b2',
    subgraphUrl: studio('balancer-avalanche-v2'),
    pricePlatform: 'avalanche',
    nativePriceId: 'avalanche-2',
    infuraNetwork: 'avalanche-mainnet',
    gauges: childGauges('balancer-gauges-avalanche', '0xe15bcb9e0ea69e6ab9fa080c4c4a5632896298c3'),
  },
  {
    id: 252,
    name: 'fraxtal',
    blockSeconds: 2,
    aliases: [],
    nativeSymbol: 'frxETH',
    wrappedNative: '0xfc00000000000000000000000000000000000006',
    vault: VAULT_ADDRESS,
    batchRelayer: '0xb541765f540447646a9545e0a4800a0bacf9e13d',
    subgraphUrl: studio('balancer-fraxtal-v2'),
    pricePlatform: 'fraxtal',
    nativePriceId: 'frax-ether',
    infuraNetwork: null,
    gauges: childGauges('balancer-gauges-fraxtal', '0x2fc7447f6cf71f9aa9e7ff8814b37e55b268ec91'),
  },
  {
    id: 34443,
    name: 'mode',
    blockSeconds: 2,
    aliases: [],
    nativeSymbol: 'ETH',
    wrappedNative: '0x4200000000000000000000000000000000000006',
    vault: VAULT_ADDRESS,
    batchRelayer: '0xb541765f540447646a9545e0a4800a0bacf9e13d',
    subgraphUrl: studio('balancer-mode-v2'),
    pricePlatform: 'mode',
    nativePriceId: 'ethereum',
    infuraNetwork: null,
    gauges: childGauges('balancer-gauges-mode', '0xd08a2917653d4e460893203471f0000826fb4034'),
  },
  {
    id: 11155111,
    name: 'sepolia',
    blockSeconds: 12,
    aliases: [],
    nativeSymbol: 'ETH',
    wrappedNative: '0x7b79995e5f793a07bc00c21412e50ecae098e7f9',
    vault: VAULT_ADDRESS,
    batchRelayer: '0x7852fb9d0895e6e8b3eeda553c03f6e2f9124df9',
    subgraphUrl: studio('balancer-sepolia-v2'),
    pricePlatform: null,
    nativePriceId: 'ethereum',
    infuraNetwork: 'sepolia',
    gauges: null,
  },
  {
    // The local devnet (src/devnet, `npm run demo`): real Balancer V2 contracts on hardhat. Its
    // addresses follow from the default test mnemonic's first account and the fixed deployment
    // order (src/devnet/devnet.ts `expectedAddresses`); a test keeps them in step. Opt-in only.
    id: 31337,
    name: 'localdev',
    aliases: ['devnet', 'hardhat'],
    nativeSymbol: 'ETH',
    wrappedNative: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    vault: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0',
    batchRelayer: '0x9bd03768a7dcc129555de410ff8e85528a4f88b5',
    subgraphUrl: 'http://127.0.0.1:8000/subgraphs/name/localdev',
    pricePlatform: 'localdev',
    nativePriceId: 'ethereum',
    infuraNetwork: null,
    // The gauge system src/devnet/gauges.ts deploys from its own account (fixed addresses).
    gauges: {
      subgraphUrl: 'http://127.0.0.1:8000/subgraphs/name/localdev-gauges',
      bal: '0x9a676e781a523b5d0c0e43731313a708cb607508',
      emissions: {
        kind: 'controller',
        gaugeController: '0x8ce361602b935680e8dec218b820ff5056beb7af',
        balancerTokenAdmin: '0xa15bb66138824a1c7167f5e85b957d04dd34e468',
      },
    },
    // Lido-shaped stETH and wstETH from the devnet's Lido admin account (devnet.ts `expectedLidoAddresses`).
    lido: { stETH: '0x95bd8d42f30351685e96c62eddc0d0613bf9a87a', wstETH: '0x98eddadcfde04dc22a0e62119617e74a6bc77313' },
  },
];

function parseRow(row: ChainInfo<string>): ChainInfo {
  const at = (field: string, value: string) => parseAddress(value, `chain ${row.id} ${field}`);
  const g = row.gauges;
  const { lido, ...rest } = row;
  return {
    ...rest,
    ...(lido ? { lido: { stETH: at('lido.stETH', lido.stETH), wstETH: at('lido.wstETH', lido.wstETH) } } : {}),
    wrappedNative: at('wrappedNative', row.wrappedNative),
    vault: at('vault', row.vault),
    batchRelayer: at('batchRelayer', row.batchRelayer),
    gauges: g && {
      ...g,
      bal: at('gauges.bal', g.bal),
      emissions:
        g.emissions.kind === 'child'
          ? g.emissions
          : {
              ...g.emissions,
              gaugeController: at('gaugeController', g.emissions.gaugeController),
              balancerTokenAdmin: at('balancerTokenAdmin', g.emissions.balancerTokenAdmin),
            },
    },
  };
}

/** Every known chain, its addresses parsed (a typo in the table fails at start-up). */
export const CHAINS: readonly ChainInfo[] = ROWS.map(parseRow);

const byId = new Map(CHAINS.map((c) => [c.id, c]));

export function chainById(id: number): ChainInfo | undefined {
  return byId.get(id);
}

/** Resolves `1`, `mainnet`, `Ethereum` ... to a chain; undefined when nothing matches. */
export function resolveChain(token: string): ChainInfo | undefined {
  const t = token.trim().toLowerCase();
  if (/^\d+$/.test(t)) return byId.get(Number(t));
  return CHAINS.find((c) => c.name === t || c.aliases.includes(t));
}

export function describeKnownChains(): string {
  return CHAINS.map((c) => `${c.name}=${c.id}`).join(', ');
}
