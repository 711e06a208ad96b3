import { Contract, Interface, isError, Provider, ZeroAddress } from 'ethers';
import type { DevnetAddresses, DevnetPoolKind } from '../devnet';

/**
 * Reads every pool the Vault knows straight from the chain, in raw on-chain units: pool ids from
 * the Vault's PoolRegistered logs, tokens and balances from `getPoolTokens`, and weights, amp, fee,
 * supply, rates and linear targets from the pool contracts. Swaps come from the Vault's Swap logs.
 * Pools from factories other than the devnet's are left out (their math is unknown to us).
 */
export interface OnchainToken {
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  /** Vault balance in smallest units. */
  readonly balance: bigint;
  /** Normalized weight, 1e18 = 100 % (weighted pools). */
  readonly weight: bigint | null;
  /**
   * Token rate, 1e18 = 1: the rate a composable stable pool holds for the token (its cache, which
   * is what its swaps use), a linear pool's wrapped token rate; 1 otherwise.
   */
  readonly rate: bigint;
  /**
   * Composable stable pools, tokens with a rate provider: the rate cached at the last join or exit
   * (the cache's old rate), the basis of the protocol yield fee. Null otherwise.
   */
  readonly oldRate?: bigint | null;
  /** Composable stable pools: whether the token's yield is exempt from the protocol yield fee. */
  readonly exemptFromYieldFee?: boolean | null;
}

/** What a composable stable pool measures its protocol fees against (its own getters). */
export interface OnchainFeeBasis {
  /** getLastJoinExitData(): amp with its precision, invariant in 18 decimals. */
  readonly lastJoinExitAmp: bigint;
  readonly lastPostJoinExitInvariant: bigint;
  /** getProtocolFeePercentageCache(0) and (2): 1e18 = 100 %. */
  readonly swapFeeCache: bigint;
  readonly yieldFeeCache: bigint;
}

/** What a weighted v2+ pool measures its protocol swap fee against (its own getters). */
export interface OnchainWeightedFeeBasis {
  /** getLastPostJoinExitInvariant(), 18 decimals. */
  readonly lastPostJoinExitInvariant: bigint;
  /** getProtocolFeePercentageCache(0): 1e18 = 100 %. */
  readonly swapFeeCache: bigint;
}

export interface OnchainSwap {
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
}

export interface OnchainPool {
  readonly id: string;
  readonly address: string;
  readonly kind: DevnetPoolKind;
  readonly version: number;
  readonly factory: string;
  readonly owner: string;
  readonly name: string;
  readonly symbol: string;
  /** 1e18 = 100 %. */
  readonly swapFee: bigint;
  readonly paused: boolean;
  /** False while a liquidity bootstrapping pool's owner keeps swaps off (getSwapEnabled). */
  readonly swapEnabled: boolean;
  readonly recoveryMode: boolean;
  readonly amp: { readonly value: bigint; readonly precision: bigint } | null;
  /**
   * BPT supply in wei: totalSupply, or for pools that hold their own BPT the supply in circulation
   * (a composable stable pool's total supply minus the Vault's BPT, which leaves out protocol fee
   * BPT not minted yet, as the subgraph counts it; a linear pool's virtual supply).
   */
  readonly totalShares: bigint;
  /** Composable stable pools: the protocol fee basis. */
  readonly protocolFees?: OnchainFeeBasis | null;
  /** Weighted v2+ pools: the protocol swap fee basis. */
  readonly weightedFees?: OnchainWeightedFeeBasis | null;
  /** Linear pools: token indexes and targets (18-decimal main token units). */
  readonly linear: {
    readonly mainIndex: number;
    readonly wrappedIndex: number;
    readonly lowerTarget: bigint;
    readonly upperTarget: bigint;
  } | null;
  /** Tokens priced by a rate provider (composable stable pools), lower-case. */
  readonly rateProviders: readonly { readonly token: string; readonly provider: string }[];
  /** Unix seconds of the block that registered the pool. */
  readonly createTime: number;
  readonly tokens: readonly OnchainToken[];
  readonly swaps: readonly OnchainSwap[];
}

const VAULT_ABI = [
  'event PoolRegistered(bytes32 indexed poolId, address indexed poolAddress, uint8 specialization)',
  'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
];
const FACTORY_ABI = ['function isPoolFromFactory(address pool) view returns (bool)'];
const POOL_ABI = [
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function getOwner() view returns (address)',
  'function getSwapFeePercentage() view returns (uint256)',
  'function getPausedState() view returns (bool paused, uint256 pauseWindowEndTime, uint256 bufferPeriodEndTime)',
  'function inRecoveryMode() view returns (bool)',
  'function totalSupply() view returns (uint256)',
  'function getActualSupply() view returns (uint256)',
  'function getNormalizedWeights() view returns (uint256[])',
  'function getSwapEnabled() view returns (bool)',
  'function getAmplificationParameter() view returns (uint256 value, bool isUpdating, uint256 precision)',
  'function getTokenRate(address token) view returns (uint256)',
  'function getRateProviders() view returns (address[])',
  'function version() view returns (string)',
  'function getVirtualSupply() view returns (uint256)',
  'function getMainIndex() view returns (uint256)',
  'function getWrappedIndex() view returns (uint256)',
  'function getTargets() view returns (uint256 lowerTarget, uint256 upperTarget)',
  'function getWrappedTokenRate() view returns (uint256)',
  'function getLastJoinExitData() view returns (uint256 lastJoinExitAmplification, uint256 lastPostJoinExitInvariant)',
  'function getProtocolFeePercentageCache(uint256 feeType) view returns (uint256)',
  'function getLastPostJoinExitInvariant() view returns (uint256)',
  'function getTokenRateCache(address token) view returns (uint256 rate, uint256 oldRate, uint256 duration, uint256 expires)',
  'function isTokenExemptFromYieldProtocolFee(address token) view returns (bool)',
];
/** ProtocolFeeType ids of the protocol fee percentage cache. */
const FEE_TYPE_SWAP = 0;
const FEE_TYPE_YIELD = 2;
const ERC20_ABI = [
  'function symbol() view returns (string)',
  'function name() view returns (string)',
  'function decimals() view returns (uint8)',
];
const ONE = 10n ** 18n;
/** Pools of the 2022 weighted and stable factories are version 2 (they have no version() to ask). */
const WEIGHTED_VERSION = 2;
const STABLE_VERSION = 2;

interface TokenInfo {
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
}

export class OnchainPoolReader {
  private readonly vault: Contract;
  private readonly vaultInterface = new Interface(VAULT_ABI);
  /** Token metadata never changes: read it once per reader. */
  private readonly tokenInfo = new Map<string, Promise<TokenInfo>>();
  private readonly kinds = new Map<
    string,
    Promise<{ kind: DevnetPoolKind; factory: string; version: number | null } | null>
  >();

  constructor(
    private readonly provider: Provider,
    private readonly addresses: DevnetAddresses,
  ) {
    this.vault = new Contract(addresses.vault, VAULT_ABI, provider);
  }

  async readAll(): Promise<OnchainPool[]> {
    const [registered, swapLogs] = await Promise.all([
      this.provider.getLogs({
        address: this.addresses.vault,
        topics: [this.vaultInterface.getEvent('PoolRegistered')!.topicHash],
        fromBlock: 0,
      }),
      this.provider.getLogs({
        address: this.addresses.vault,
        topics: [this.vaultInterface.getEvent('Swap')!.topicHash],
        fromBlock: 0,
      }),
    ]);
    const swapsByPool = new Map<string, OnchainSwap[]>();
    for (const log of swapLogs) {
      const e = this.vaultInterface.parseLog(log);
      if (!e) continue;
      const list = swapsByPool.get(String(e.args[0]).toLowerCase()) ?? [];
      list.push({
        tokenIn: String(e.args[1]).toLowerCase(),
        tokenOut: String(e.args[2]).toLowerCase(),
        amountIn: e.args[3] as bigint,
        amountOut: e.args[4] as bigint,
      });
      swapsByPool.set(String(e.args[0]).toLowerCase(), list);
    }
    const pools = await Promise.all(
      registered.map(async (log) => {
        const e = this.vaultInterface.parseLog(log);
        if (!e) return null;
        const id = String(e.args[0]).toLowerCase();
        const address = String(e.args[1]).toLowerCase();
        const origin = await this.originOf(address);
        if (!origin) return null;
        const block = await this.provider.getBlock(log.blockNumber);
        return this.readPool(id, address, origin, block?.timestamp ?? 0, swapsByPool.get(id) ?? []);
      }),
    );
    return pools.filter((p): p is OnchainPool => p !== null);
  }

  /** Which devnet factory made the pool: its kind, and its version when the factory fixes it. */
  private originOf(pool: string): Promise<{ kind: DevnetPoolKind; factory: string; version: number | null } | null> {
    let k = this.kinds.get(pool);
    if (!k) {
      k = (async () => {
        const from = (factory: string) =>
          new Contract(factory, FACTORY_ABI, this.provider).getFunction('isPoolFromFactory')(pool) as Promise<boolean>;
        const a = this.addresses;
        if (await from(a.weightedPoolFactory))
          return { kind: 'weighted' as const, factory: a.weightedPoolFactory, version: WEIGHTED_VERSION };
        if (await from(a.weightedPoolFactoryV1))
          return { kind: 'weighted' as const, factory: a.weightedPoolFactoryV1, version: 1 };
        if (await from(a.composableStablePoolFactory))
          return { kind: 'composableStable' as const, factory: a.composableStablePoolFactory, version: null };
        if (await from(a.stablePoolFactoryV2))
          return { kind: 'stable' as const, factory: a.stablePoolFactoryV2, version: STABLE_VERSION };
        if (await from(a.erc4626LinearPoolFactory))
          return { kind: 'linear' as const, factory: a.erc4626LinearPoolFactory, version: null };
        // A node deployed before the devnet had LBPs has no code there: the call fails, no LBP.
        if (await from(a.liquidityBootstrappingPoolFactory).catch(() => false))
          return { kind: 'liquidityBootstrapping' as const, factory: a.liquidityBootstrappingPoolFactory, version: 1 };
        return null;
      })();
      this.kinds.set(pool, k);
    }
    return k;
  }

  private token(address: string): Promise<TokenInfo> {
    let t = this.tokenInfo.get(address);
    if (!t) {
      const c = new Contract(address, ERC20_ABI, this.provider);
      t = Promise.all([c.getFunction('symbol')(), c.getFunction('name')(), c.getFunction('decimals')()]).then(
        ([symbol, name, decimals]) => ({
          symbol: String(symbol),
          name: String(name),
          decimals: Number(decimals),
        }),
      );
      this.tokenInfo.set(address, t);
    }
    return t;
  }

  private async readPool(
    id: string,
    address: string,
    origin: { kind: DevnetPoolKind; factory: string; version: number | null },
    createTime: number,
    swaps: OnchainSwap[],
  ): Promise<OnchainPool> {
    const pool = new Contract(address, POOL_ABI, this.provider);
    const call = <T>(name: string, ...args: unknown[]) => pool.getFunction(name)(...args) as Promise<T>;
    const { kind } = origin;
    const composable = kind === 'composableStable';
    const linear = kind === 'linear';
    const lbp = kind === 'liquidityBootstrapping';
    const none = Promise.resolve(null);
    const [
      poolTokens,
      name,
      symbol,
      owner,
      swapFee,
      paused,
      recoveryMode,
      totalShares,
      weights,
      amp,
      version,
      linearParams,
      rateProviders,
      swapEnabled,
    ] = await Promise.all([
      this.vault.getFunction('getPoolTokens')(id) as Promise<[string[], bigint[]]>,
      call<string>('name'),
      call<string>('symbol'),
      call<string>('getOwner'),
      call<bigint>('getSwapFeePercentage'),
      call<[boolean]>('getPausedState'),
      // Recovery mode arrived with the 2022 pools; v1 pools have no such function.
      origin.version === 1 ? Promise.resolve(false) : call<boolean>('inRecoveryMode'),
      call<bigint>(linear ? 'getVirtualSupply' : 'totalSupply'),
      kind === 'weighted' || lbp ? call<bigint[]>('getNormalizedWeights') : none,
      composable || kind === 'stable' ? call<[bigint, boolean, bigint]>('getAmplificationParameter') : none,
      // ComposableStable v1 pools predate version(): they are version 1.
      origin.version === null
        ? call<string>('version').catch((e: unknown) => {
            if (isError(e, 'CALL_EXCEPTION')) return null;
            throw e;
          })
        : none,
      linear
        ? Promise.all([
            call<bigint>('getMainIndex'),
            call<bigint>('getWrappedIndex'),
            call<[bigint, bigint]>('getTargets'),
            call<bigint>('getWrappedTokenRate'),
          ])
        : none,
      composable ? call<string[]>('getRateProviders') : none,
      lbp ? call<boolean>('getSwapEnabled') : Promise.resolve(true),
    ]);
    const protocolFees = composable
      ? await Promise.all([
          call<[bigint, bigint]>('getLastJoinExitData'),
          call<bigint>('getProtocolFeePercentageCache', FEE_TYPE_SWAP),
          call<bigint>('getProtocolFeePercentageCache', FEE_TYPE_YIELD),
        ]).then(([last, swapFeeCache, yieldFeeCache]): OnchainFeeBasis => ({
          lastJoinExitAmp: last[0],
          lastPostJoinExitInvariant: last[1],
          swapFeeCache,
          yieldFeeCache,
        }))
      : null;
    const weightedFees =
      kind === 'weighted' && origin.version !== 1
        ? await Promise.all([
            call<bigint>('getLastPostJoinExitInvariant'),
            call<bigint>('getProtocolFeePercentageCache', FEE_TYPE_SWAP),
          ]).then(([lastPostJoinExitInvariant, swapFeeCache]) => ({ lastPostJoinExitInvariant, swapFeeCache }))
        : null;
    const [addresses, balances] = poolTokens;
    const hasProvider = new Set(
      (rateProviders ?? []).map((p, i) => (p === ZeroAddress ? '' : addresses[i]!.toLowerCase())),
    );
    const linearInfo = linearParams
      ? {
          mainIndex: Number(linearParams[0]),
          wrappedIndex: Number(linearParams[1]),
          lowerTarget: linearParams[2][0],
          upperTarget: linearParams[2][1],
        }
      : null;
    const tokens = await Promise.all(
      addresses.map(async (raw, i): Promise<OnchainToken> => {
        const tokenAddress = raw.toLowerCase();
        const isBpt = tokenAddress === address;
        const info = isBpt ? { symbol, name, decimals: 18 } : await this.token(tokenAddress);
        let rate = ONE;
        let oldRate: bigint | null = null;
        let exemptFromYieldFee: boolean | null = null;
        if (composable && !isBpt) {
          rate = await call<bigint>('getTokenRate', tokenAddress);
          exemptFromYieldFee = await call<boolean>('isTokenExemptFromYieldProtocolFee', tokenAddress);
          // Only tokens with a rate provider have a rate cache (the getter reverts for the others).
          if (hasProvider.has(tokenAddress))
            oldRate = (await call<[bigint, bigint, bigint, bigint]>('getTokenRateCache', tokenAddress))[1];
        }
        if (linearParams && i === linearInfo?.wrappedIndex) rate = linearParams[3];
        return {
          address: tokenAddress,
          ...info,
          balance: balances[i] ?? 0n,
          weight: weights ? (weights[i] ?? null) : null,
          rate,
          oldRate,
          exemptFromYieldFee,
        };
      }),
    );
    return {
      id,
      address,
      kind,
      version: origin.version ?? (version === null ? 1 : parseVersion(version)),
      factory: origin.factory.toLowerCase(),
      owner: owner.toLowerCase(),
      name,
      symbol,
      swapFee,
      paused: paused[0],
      swapEnabled,
      recoveryMode,
      amp: amp ? { value: amp[0], precision: amp[2] } : null,
      // Pools holding their own BPT: what circulates (the Vault holds the rest, pre-minted).
      totalShares: composable
        ? totalShares - (balances[addresses.findIndex((a) => a.toLowerCase() === address)] ?? 0n)
        : totalShares,
      protocolFees,
      weightedFees,
      linear: linearInfo,
      // In the Vault's token order, the pool's own BPT (no provider) included.
      rateProviders: (rateProviders ?? [])
        .map((provider, i) => ({ token: addresses[i]!.toLowerCase(), provider: provider.toLowerCase() }))
        .filter((r) => r.provider !== ZeroAddress),
      createTime,
      tokens,
      swaps,
    };
  }
}

/** Pools built by Balancer's newer factories report `{"name":..,"version":3,..}`. */
function parseVersion(json: string): number {
  try {
    const v = (JSON.parse(json) as { version?: unknown }).version;
    return typeof v === 'number' && Number.isInteger(v) ? v : 1;
  } catch {
    return 1;
  }
}
