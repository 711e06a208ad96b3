/**
 * The chains the service knows, one typed row each. Everything that differs per chain lives here;
 * the rest of the code asks this table instead of hard-coding addresses.
 *
 * Relayer addresses are Balancer's current BatchRelayer (V6) deployments; subgraph URLs are the
 * Balancer Studio endpoints and must usually be overridden with `SUBGRAPH_URL_<chainId>` (a Graph
 * gateway URL with an API key) in production.
 */
import { parseAddress, type Address } from '../domain/address';
import type { ProtocolVersion } from '../domain/pool';

/** `A` is `Address` once parsed; the table below is written with plain strings and parsed at load. */
export interface ChainInfo<A extends string = Address> {
  readonly id: number;
  readonly name: string;
  readonly aliases: readonly string[];
  readonly nativeSymbol: string;
  /** The wrapped native token (WETH, WMATIC, ...). */
  readonly wrappedNative: A;
  /** The Balancer V2 Vault (every V2 pool's balances, `batchSwap`). */
  readonly vault: A;
  /** V2's BatchRelayer (routes through joins and exits). */
  readonly batchRelayer: A;
  /**
   * Balancer V3's contracts where V3 is deployed (`V3_DEPLOYMENTS`, or the row's own for a chain
   * whose V3 is not Balancer's deployment, the local devnet); absent elsewhere.
   */
  readonly v3?: ChainV3<A>;
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
   * batch relayer wrapping or unwrapping (`routing/v2/lido.ts`). Absent on chains without them.
   */
  readonly lido?: ChainLido<A>;
  /**
   * How the chain makes blocks: on a `timer` (a slot every `blockSeconds`, empty or not), or
   * `onDemand` (a block when transactions come, stamped with the chain's clock then: the
   * automining devnet, Arbitrum, Avalanche, Polygon zkEVM). A quote prices time-moving pools at
   * the next block's time (`domain/chainTime.ts` `nextBlockTime`): the head's plus `blockSeconds`
   * on a timer, the later of the head's plus 1 and the chain's clock on demand.
   */
  readonly blocks: 'timer' | 'onDemand';
  /**
   * Seconds between blocks where the chain makes them on a timer, empty or not. The follower
   * evaluates time-dependent pool state (amp ramps, rate caches that expire) at the head's
   * timestamp plus this, the block a quote lands in (`domain/chainTime.ts`; 1 when absent, the
   * earliest the next block can be), and only then does a head that stops advancing mean a stuck
   * node (`jobs/follow/followStatus.ts` `isStale`). Absent for chains that make a block only for
   * transactions (the automining devnet, Arbitrum, Avalanche, Polygon zkEVM).
   */
  readonly blockSeconds?: number;
  /**
   * Multicall3 where the chain has it: the follower's `eth_call`s go through its `aggregate3`
   * (`sources/rpc/multicall.ts`), hundreds to a call; absent, they go as plain JSON-RPC batches.
   */
  readonly multicall3?: A;
}

/**
 * Balancer V3 on a chain: its Vault (the same address on every chain), the routers a V3 order goes
 * through, the VaultExplorer (read-only views of the Vault's state) and Permit2, which the V3
 * routers pull tokens through.
 */
export interface ChainV3<A extends string = Address> {
  readonly vault: A;
  readonly router: A;
  readonly batchRouter: A;
  readonly bufferRouter: A;
  readonly vaultExplorer: A;
  readonly permit2: A;
  /**
   * Where the V3 Vault sends protocol fees (its `getProtocolFeeController()`): a contract, never a
   * wallet; tokens sent there are only withdrawn by governance.
   */
  readonly protocolFeeController: A;
}

/** The Vault of `protocol` on `chain`, or undefined where that protocol is not deployed. */
export function vaultOf(chain: ChainInfo, protocol: ProtocolVersion): Address | undefined {
  return protocol === 2 ? chain.vault : chain.v3?.vault;
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

/** Multicall3, at one address on every chain that has it (the devnet deploys it there: `src/devnet/multicall3.ts`). */
export const MULTICALL3_ADDRESS = '0xca11bde05977b3631167028862be2a173976ca11';
export const VAULT_ADDRESS = '0xba12222222228d8ba445958a75a0704d566bf2c8';
export const V3_VAULT_ADDRESS = '0xba1333333333a1ba1108e8412f11850a5c319ba9';
const PERMIT2_ADDRESS = '0x000000000022d473030f116ddee9f6b43ac78ba3';
/** Balancer's V3 ProtocolFeeController, deployed at one address beside the Vault on every chain. */
const V3_PROTOCOL_FEE_CONTROLLER = '0xa731c23d7c95436baaae9d52782f966e1ed07cc8';

/**
 * Balancer V3's routers and VaultExplorer per chain id, from Balancer's deployment outputs
 * (Router v2, BatchRouter, BufferRouter, VaultExplorer v2); the Vault and Permit2 have one
 * address everywhere.
 */
const V3_DEPLOYMENTS: Readonly<Record<number, Omit<ChainV3<string>, 'vault' | 'permit2' | 'protocolFeeController'>>> = {
  1: {
    router: '0xae563e3f8219521950555f5962419c8919758ea2',
    batchRouter: '0x136f1efcc3f8f88516b9e94110d56fdbfb1778d1',
    bufferRouter: '0x9179c06629ef7f17cb5759f501d89997fe0e7b45',
    vaultExplorer: '0xfc2986feab34713e659da84f3b1fa32c1da95832',
  },
  10: {
    router: '0xe2fa4e1d17725e72dcdafe943ecf45df4b9e285b',
    batchRouter: '0xad89051bed8d96f045e8912ae1672c6c0bf8a85e',
    bufferRouter: '0x311334883921fb1b813826e585df1c2be4358615',
    vaultExplorer: '0xeaedc32a51c510d35ebc11088fd5ff2b47aacf2e',
  },
  100: {
    router: '0x4eff2d77d9ffbaefb4b141a3e494c085b3ff4cb5',
    batchRouter: '0xe2fa4e1d17725e72dcdafe943ecf45df4b9e285b',
    bufferRouter: '0x86e67e115f96df37239e0479441303de0de7bc2b',
    vaultExplorer: '0x7f4c133e44381d05129f9b81bad8fa9f3345d29b',
  },
  8453: {
    router: '0x3f170631ed9821ca51a59d996ab095162438dc10',
    batchRouter: '0x85a80afee867adf27b50bdb7b76da70f1e853062',
    bufferRouter: '0x4132f7acc9db7a6cf7be2dd3a9dc8b30c7e6e6c8',
    vaultExplorer: '0xad89051bed8d96f045e8912ae1672c6c0bf8a85e',
  },
  42161: {
    router: '0xeaedc32a51c510d35ebc11088fd5ff2b47aacf2e',
    batchRouter: '0xad89051bed8d96f045e8912ae1672c6c0bf8a85e',
    bufferRouter: '0x311334883921fb1b813826e585df1c2be4358615',
    vaultExplorer: '0xb9d01ca61b9c181da1051bfdd28e1097e920ab14',
  },
  43114: {
    router: '0xf39ca6ede9bf7820a952b52f3c94af526bab9015',
    batchRouter: '0xc9b36096f5201ea332db35d6d195774ea0d5988f',
    bufferRouter: '0x22625eedd92c81a219a83e1dc48f88d54786b017',
    vaultExplorer: '0x4cb42fc3b5fb9392ce0772c3a540e4ae4da4ac4d',
  },
  11155111: {
    router: '0x5e315f96389c1aaf9324d97d3512ae1e0bf3c21a',
    batchRouter: '0xc85b652685567c1b074e8c0d4389f83a2e458b1c',
    bufferRouter: '0xb5f3a41515457cc6e2716c62a011d260441ccfc9',
    vaultExplorer: '0xc82e329c832cacc8da65dbb57ac72b068e0ceb9b',
  },
};

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
    blocks: 'timer',
    blockSeconds: 12,
    aliases: ['ethereum', 'eth', 'homestead'],
    nativeSymbol: 'ETH',
    wrappedNative: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'timer',
    blockSeconds: 2,
    aliases: ['op'],
    nativeSymbol: 'ETH',
    wrappedNative: '0x4200000000000000000000000000000000000006',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'timer',
    blockSeconds: 5,
    aliases: ['xdai', 'gnosis-chain'],
    nativeSymbol: 'xDAI',
    wrappedNative: '0xe91d153e0b41518a2ce8dd3d7944fa863463a97d',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'timer',
    blockSeconds: 2,
    aliases: ['matic'],
    nativeSymbol: 'POL',
    wrappedNative: '0x0d500b1d8e8ef31e21c99d1db9a6444d3adf1270',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'onDemand',
    aliases: ['polygon-zkevm'],
    nativeSymbol: 'ETH',
    wrappedNative: '0x4f9a0e7fd2bf6067db6994cf12e4495df938e6e9',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'timer',
    blockSeconds: 2,
    aliases: [],
    nativeSymbol: 'ETH',
    wrappedNative: '0x4200000000000000000000000000000000000006',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'onDemand',
    aliases: ['arbitrum-one', 'arb'],
    nativeSymbol: 'ETH',
    wrappedNative: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'onDemand',
    aliases: ['avax'],
    nativeSymbol: 'AVAX',
    wrappedNative: '0xb31f66aa3c1e785363f0875a1b74e27b85fd66c7',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'timer',
    blockSeconds: 2,
    aliases: [],
    nativeSymbol: 'frxETH',
    wrappedNative: '0xfc00000000000000000000000000000000000006',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'timer',
    blockSeconds: 2,
    aliases: [],
    nativeSymbol: 'ETH',
    wrappedNative: '0x4200000000000000000000000000000000000006',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'timer',
    blockSeconds: 12,
    aliases: [],
    nativeSymbol: 'ETH',
    wrappedNative: '0x7b79995e5f793a07bc00c21412e50ecae098e7f9',
    vault: VAULT_ADDRESS,
    multicall3: MULTICALL3_ADDRESS,
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
    blocks: 'onDemand',
    aliases: ['devnet', 'hardhat'],
    nativeSymbol: 'ETH',
    wrappedNative: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
    vault: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0',
    multicall3: MULTICALL3_ADDRESS,
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
    // Balancer V3 from the devnet's V3 admin account, its own Vault and Permit2 among them (not
    // the mainnet addresses): src/devnet/v3/devnetV3.ts `expectedV3Addresses`; a test keeps them in step.
    v3: {
      vault: '0x6cf0e5d6cd8aa7429998f6023b6c240fa4b6b942',
      router: '0x208e6d25fb7f1915bd46f569da45e48a6ccd7167',
      batchRouter: '0x63e0e8cd1618d51d07e645d9e34326ca5ff714af',
      bufferRouter: '0xb61675b164351767e5ecdc0cc1e78e53f7fa5bd0',
      vaultExplorer: '0x937cf819746221324b7ffd131b4920234b9ede53',
      permit2: '0x72bb9c7ffbe2ed234e53bc64862dda6d9fff333b',
      protocolFeeController: '0x33a61df860c1170c903f5ba1ef979570c962395e',
    },
  },
];

function parseRow(row: ChainInfo<string>): ChainInfo {
  const at = (field: string, value: string) => parseAddress(value, `chain ${row.id} ${field}`);
  if ((row.blocks === 'timer') !== (row.blockSeconds !== undefined))
    throw new Error(
      `chain ${row.id}: blockSeconds is for a chain whose blocks come on a timer, and such a chain needs it`,
    );
  const g = row.gauges;
  const { lido, v3: own, multicall3, ...rest } = row;
  const deployed = V3_DEPLOYMENTS[row.id];
  const v3 =
    own ??
    (deployed && {
      ...deployed,
      vault: V3_VAULT_ADDRESS,
      permit2: PERMIT2_ADDRESS,
      protocolFeeController: V3_PROTOCOL_FEE_CONTROLLER,
    });
  return {
    ...rest,
    ...(v3
      ? {
          v3: {
            vault: at('v3.vault', v3.vault),
            router: at('v3.router', v3.router),
            batchRouter: at('v3.batchRouter', v3.batchRouter),
            bufferRouter: at('v3.bufferRouter', v3.bufferRouter),
            vaultExplorer: at('v3.vaultExplorer', v3.vaultExplorer),
            permit2: at('v3.permit2', v3.permit2),
            protocolFeeController: at('v3.protocolFeeController', v3.protocolFeeController),
          },
        }
      : {}),
    ...(multicall3 ? { multicall3: at('multicall3', multicall3) } : {}),
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

/**
 * The current Balancer API's `GqlChain` names and their chain ids (its `base.gql` enum), plus
 * `HARDHAT` for the local devnet. A name whose chain has no row above is still listed, so a
 * request for it is told the chain is not served here rather than that the name is unknown.
 */
export const BALANCER_API_CHAINS: Readonly<Record<string, number>> = {
  ARBITRUM: 42161,
  AVALANCHE: 43114,
  BASE: 8453,
  FANTOM: 250,
  FRAXTAL: 252,
  GNOSIS: 100,
  HYPEREVM: 999,
  MAINNET: 1,
  MODE: 34443,
  MONAD: 143,
  OPTIMISM: 10,
  PLASMA: 9745,
  POLYGON: 137,
  SEPOLIA: 11155111,
  SONIC: 146,
  XLAYER: 196,
  ZKEVM: 1101,
  HARDHAT: 31337,
};

/** The `GqlChain` name of a chain id, undefined for a chain the current Balancer API does not name. */
export function balancerApiChainName(chainId: number): string | undefined {
  return Object.keys(BALANCER_API_CHAINS).find((name) => BALANCER_API_CHAINS[name] === chainId);
}
