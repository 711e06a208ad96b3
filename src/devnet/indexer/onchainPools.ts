import { Contract, Interface, isError, Provider, ZeroAddress } from 'ethers';
import type { PoolChainState } from '../../domain/chainState';
import type { Address } from '../../domain/address';
import type { StoredPool } from '../../domain/pool';
import { ownStateOf } from '../../domain/poolTypes/chainReads';
import { COMPOSABLE_STABLE_CHAIN } from '../../domain/poolTypes/composableStable/composableStableReads';
import { LINEAR_CHAIN } from '../../domain/poolTypes/linear/linearReads';
import { devnetPoolType } from '../../domain/poolTypes/registry';
import { STABLE_CHAIN } from '../../domain/poolTypes/stable/stableReads';
import { LBP_CHAIN, WEIGHTED_CHAIN } from '../../domain/poolTypes/weighted/weightedReads';
import { readPoolStates, type ChainTransport } from '../../sources/chainState/chainStateReader';
import type { RpcOutcome } from '../../sources/rpc/jsonRpc';
import type { DevnetAddresses, DevnetPoolKind } from '../devnet';

/**
 * Reads every pool the Vault knows straight from the chain, in raw on-chain units: pool ids from
 * the Vault's PoolRegistered logs, what a pool is (its factory, name, version, linear indexes)
 * from its contracts, and its state (balances, fee, supply, weights, amp, rates, fee bases, linear
 * targets) through the same reads the head follower takes (`sources/chainState/`, each pool
 * type's `chain` in its folder), pinned to one block. Swaps come from the Vault's Swap logs.
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
  'function version() view returns (string)',
  'function getVirtualSupply() view returns (uint256)',
  'function getMainIndex() view returns (uint256)',
  'function getWrappedIndex() view returns (uint256)',
  'function isTokenExemptFromYieldProtocolFee(address token) view returns (bool)',
];
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
    const blockNumber = await this.provider.getBlockNumber();
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
        return this.readPool(id, address, origin, block?.timestamp ?? 0, swapsByPool.get(id) ?? [], blockNumber);
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

  /** The provider as the chain-state reader's transport: each call sent on its own, errors as the node gave them. */
  private readonly transport: ChainTransport = (calls) =>
    Promise.all(
      calls.map(async (c): Promise<RpcOutcome> => {
        try {
          return { ok: true, result: await this.send(c.method, c.params) };
        } catch (e) {
          // A revert as ethers reports it; the reader leaves the getter's field out.
          if (isError(e, 'CALL_EXCEPTION')) return { ok: false, error: 'execution reverted', code: 3 };
          const err = e as { message?: unknown; error?: { code?: unknown; message?: unknown } };
          const code = err.error?.code;
          const message = err.error?.message ?? err.message;
          return { ok: false, error: String(message), ...(typeof code === 'number' ? { code } : {}) };
        }
      }),
    );

  private send(method: string, params: readonly unknown[]): Promise<unknown> {
    const provider = this.provider as Provider & {
      send?: (method: string, params: readonly unknown[]) => Promise<unknown>;
    };
    if (!provider.send) throw new Error('the devnet indexer needs a JSON-RPC provider');
    return provider.send(method, params);
  }

  /**
   * The pool's state at `blockNumber` through its type's chain reads: a stored-pool skeleton of
   * what those reads depend on (id, address, type, version, tokens, linear targets).
   */
  private async chainState(
    id: string,
    address: string,
    kind: DevnetPoolKind,
    version: number,
    tokens: readonly string[],
    linear: { readonly wrappedIndex: number } | null,
    blockNumber: number,
  ): Promise<PoolChainState> {
    const skeleton = {
      id,
      address: address as Address,
      poolType: devnetPoolType(kind),
      poolTypeVersion: version,
      tokens: tokens.map((t) => ({ address: t as Address })),
      lowerTarget: linear ? '0' : null,
      upperTarget: linear ? '0' : null,
      wrappedIndex: linear?.wrappedIndex ?? null,
    } as unknown as StoredPool;
    const state = (await readPoolStates(this.transport, this.addresses.vault, [skeleton], blockNumber)).get(id);
    if (!state) throw new Error(`the Vault does not know pool ${id}`);
    return state;
  }

  private async readPool(
    id: string,
    address: string,
    origin: { kind: DevnetPoolKind; factory: string; version: number | null },
    createTime: number,
    swaps: OnchainSwap[],
    blockNumber: number,
  ): Promise<OnchainPool> {
    const pool = new Contract(address, POOL_ABI, this.provider);
    const call = <T>(name: string, ...args: unknown[]) => pool.getFunction(name)(...args) as Promise<T>;
    const { kind } = origin;
    const composable = kind === 'composableStable';
    const linear = kind === 'linear';
    const none = Promise.resolve(null);
    const [poolTokens, name, symbol, owner, versionText, linearIndexes, virtualSupply] = await Promise.all([
      this.vault.getFunction('getPoolTokens')(id) as Promise<[string[], bigint[]]>,
      call<string>('name'),
      call<string>('symbol'),
      call<string>('getOwner'),
      // ComposableStable v1 pools predate version(): they are version 1.
      origin.version === null
        ? call<string>('version').catch((e: unknown) => {
            if (isError(e, 'CALL_EXCEPTION')) return null;
            throw e;
          })
        : none,
      linear ? Promise.all([call<bigint>('getMainIndex'), call<bigint>('getWrappedIndex')]) : none,
      linear ? call<bigint>('getVirtualSupply') : none,
    ]);
    const version = origin.version ?? (versionText === null ? 1 : parseVersion(versionText));
    const [rawAddresses, balances] = poolTokens;
    const addresses = rawAddresses.map((a) => a.toLowerCase());
    const wrappedIndex = linearIndexes ? Number(linearIndexes[1]) : null;
    const s = await this.chainState(
      id,
      address,
      kind,
      version,
      addresses,
      wrappedIndex === null ? null : { wrappedIndex },
      blockNumber,
    );
    const weighted = ownStateOf(kind === 'liquidityBootstrapping' ? LBP_CHAIN : WEIGHTED_CHAIN, s.own);
    const stable = ownStateOf(composable ? COMPOSABLE_STABLE_CHAIN : STABLE_CHAIN, s.own);
    const linearState = ownStateOf(LINEAR_CHAIN, s.own);
    const composableState = ownStateOf(COMPOSABLE_STABLE_CHAIN, s.own);
    const last = composableState?.lastJoinExit;
    const swapFeeCache = composableState?.protocolSwapFeeCache;
    const yieldFeeCache = composableState?.protocolYieldFeeCache;
    const protocolFees: OnchainFeeBasis | null =
      last && swapFeeCache !== undefined && yieldFeeCache !== undefined
        ? {
            lastJoinExitAmp: last.amp,
            lastPostJoinExitInvariant: last.invariant,
            swapFeeCache,
            yieldFeeCache,
          }
        : null;
    const weightedFees: OnchainWeightedFeeBasis | null =
      kind === 'weighted' &&
      weighted?.lastPostJoinExitInvariant !== undefined &&
      weighted.protocolSwapFeeCache !== undefined
        ? { lastPostJoinExitInvariant: weighted.lastPostJoinExitInvariant, swapFeeCache: weighted.protocolSwapFeeCache }
        : null;
    const targets = linearState?.targets;
    const linearInfo =
      linearIndexes && targets
        ? {
            mainIndex: Number(linearIndexes[0]),
            wrappedIndex: Number(linearIndexes[1]),
            lowerTarget: targets.lower,
            upperTarget: targets.upper,
          }
        : null;
    const weights = weighted?.weights;
    const providers = composableState?.rateProviders ?? [];
    const tokens = await Promise.all(
      addresses.map(async (tokenAddress, i): Promise<OnchainToken> => {
        const isBpt = tokenAddress === address;
        const info = isBpt ? { symbol, name, decimals: 18 } : await this.token(tokenAddress);
        let rate = ONE;
        let oldRate: bigint | null = null;
        let exemptFromYieldFee: boolean | null = null;
        if (composable && !isBpt) {
          rate = composableState?.rates?.get(tokenAddress) ?? ONE;
          exemptFromYieldFee = await call<boolean>('isTokenExemptFromYieldProtocolFee', tokenAddress);
          // Only tokens with a rate provider have a rate cache (the getter reverts for the others).
          oldRate = composableState?.oldRates?.get(tokenAddress) ?? null;
        }
        if (linearInfo && i === linearInfo.wrappedIndex) rate = linearState?.wrappedRate?.rate ?? ONE;
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
    const totalSupply = virtualSupply ?? s.totalSupply ?? 0n;
    return {
      id,
      address,
      kind,
      version,
      factory: origin.factory.toLowerCase(),
      owner: owner.toLowerCase(),
      name,
      symbol,
      swapFee: s.swapFee ?? 0n,
      paused: s.paused ?? false,
      swapEnabled: weighted?.swapEnabled ?? true,
      // Recovery mode arrived with the 2022 pools; v1 pools have no such function.
      recoveryMode: s.recoveryMode ?? false,
      amp: stable?.amp ?? null,
      // Pools holding their own BPT: what circulates (the Vault holds the rest, pre-minted).
      totalShares: composable ? totalSupply - (balances[addresses.indexOf(address)] ?? 0n) : totalSupply,
      protocolFees,
      weightedFees,
      linear: linearInfo,
      // In the Vault's token order, the pool's own BPT (no provider) included.
      rateProviders: providers
        .map((provider, i) => ({ token: addresses[i]!, provider }))
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
