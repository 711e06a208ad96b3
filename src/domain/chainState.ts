import { decimalToUnits, isZeroDecimal, unitsToDecimal } from './decimal';
import type { StoredPool, StoredPoolToken } from './pool';
import { weightedRateProduct } from './swap/pools/weightedFees';

/**
 * Pool state as the chain holds it at one block, and how it replaces the subgraph's values in a
 * stored pool. The subgraph is the catalogue (which pools exist, their tokens and static
 * parameters); the chain is the state (balances, fees, supply, amp, rates), read by
 * `sources/chainState/` and followed block by block by `jobs/headFollower.ts`. Pure.
 */

/** A block the state was read at. */
export interface BlockRef {
  readonly number: number;
  readonly hash: string;
  readonly parentHash: string;
  /** Unix seconds. */
  readonly timestamp: number;
}

/**
 * What the chain answered for one pool at one block, in raw on-chain units. Only `tokens` is
 * always there; a getter the pool lacks or that reverted leaves its field out, and the stored
 * (subgraph) value stays.
 */
export interface PoolChainState {
  readonly poolId: string;
  /** The Vault's `getPoolTokens`: lower-case addresses and balances in smallest units. */
  readonly tokens: readonly { readonly address: string; readonly balance: bigint }[];
  /**
   * The block the Vault last changed the pool's cash (its `getPoolTokens`' `lastChangeBlock`: every
   * swap, join and exit sets it; an asset manager's moves keep it): a read at block N that names
   * a later block, or an earlier one than the pool's last Swap or PoolBalanceChanged log, was
   * answered from another block (`jobs/followChecks.ts`).
   */
  readonly lastChangeBlock?: number;
  /** 1e18 = 100 %. */
  readonly swapFee?: bigint;
  readonly paused?: boolean;
  readonly recoveryMode?: boolean;
  /** `totalSupply()` in wei; pools holding their own BPT count what circulates (see below). */
  readonly totalSupply?: bigint;
  /** Normalized weights in the Vault's token order, 1e18 = 100 %. */
  readonly weights?: readonly bigint[];
  /** Amp with its precision (`getAmplificationParameter()`), at the block's timestamp or, once evaluated (`chainTime.ts`), at the quote's. */
  readonly amp?: { readonly value: bigint; readonly precision: bigint };
  /** The amp ramp in progress (its last `AmpUpdateStarted`), values with the amp's precision. */
  readonly ampRamp?: AmpRamp;
  /** Per lower-case token address with a rate provider: its rate cache and the provider's rate now. */
  readonly rateCaches?: ReadonlyMap<string, RateCache>;
  /** Token rate per lower-case token address, 1e18 = 1 (composable stable caches, linear wrapped rate). */
  readonly rates?: ReadonlyMap<string, bigint>;
  /** The rate cache's old rate per token (composable stable tokens with a rate provider). */
  readonly oldRates?: ReadonlyMap<string, bigint>;
  /** Composable stable protocol fee basis (`getLastJoinExitData()`). */
  readonly lastJoinExit?: { readonly amp: bigint; readonly invariant: bigint };
  /**
   * The pool's cached protocol swap fee percentage: `getProtocolFeePercentageCache(0)` (composable
   * stable, weighted v2+), `getCachedProtocolSwapFeePercentage()` (StablePhantom).
   */
  readonly protocolSwapFeeCache?: bigint;
  readonly protocolYieldFeeCache?: bigint;
  /** Weighted v2+ protocol fee basis (with `protocolSwapFeeCache`): `getLastPostJoinExitInvariant()`. */
  readonly lastPostJoinExitInvariant?: bigint;
  /**
   * Weighted v2+ pools with a rate provider (the others are exempt from yield fees): the all-time
   * high of their rate product (`getATHRateProduct()`) and each provider's `getRate()` per
   * lower-case token. The pool asks its providers at every join or exit, no cache in between.
   */
  readonly weightedYield?: { readonly athRateProduct: bigint; readonly providerRates: ReadonlyMap<string, bigint> };
  /** StablePhantom: protocol fee BPT owed and not yet minted (`getDueProtocolFeeBptAmount()`). */
  readonly dueProtocolFeeBpt?: bigint;
  /**
   * Pools paying due protocol fees in tokens at a join or exit (weighted v1, Stable v2,
   * MetaStable): the invariant stored at the last one (`getLastInvariant()`; stable pools also the
   * amp it was taken at, with the amp's precision).
   */
  readonly lastInvariant?: { readonly invariant: bigint; readonly amp?: bigint };
  /** ... and the percentage the Vault hands them: its ProtocolFeesCollector's `getSwapFeePercentage()`. */
  readonly vaultProtocolSwapFee?: bigint;
  /** ... and that collector (lower case): its fee change event re-reads the pool (jobs/headFollower.ts). */
  readonly protocolFeesCollector?: string;
  /** Linear pools' targets, 18-decimal main token units. */
  readonly targets?: { readonly lower: bigint; readonly upper: bigint };
  /** Liquidity bootstrapping pools: whether the owner lets anyone swap (`getSwapEnabled()`). */
  readonly swapEnabled?: boolean;
  /**
   * A liquidity bootstrapping pool's weight update still moving at the block read (its last
   * `GradualWeightUpdateScheduled` with the getter's times and end weights); `weights` is then its
   * value at the block's timestamp or, once evaluated (`chainTime.ts`), at the quote's.
   */
  readonly weightUpdate?: WeightUpdate;
  /**
   * The node would not give the event a ramp or weight update starts from (a log query it refused):
   * the values are the head's as read, and the pool is read again at every new block.
   */
  readonly timeUnknown?: true;
}

/**
 * A gradual weight update as the pool stores it: times in unix seconds, weights in the Vault's
 * token order at the precision the pool keeps them in (start weights in 31 bits, end weights in
 * 16: `chainTime.ts` `storedStartWeight`), which is what its swaps use.
 */
export interface WeightUpdate {
  readonly startTime: bigint;
  readonly endTime: bigint;
  readonly startWeights: readonly bigint[];
  readonly endWeights: readonly bigint[];
}

/** An amp ramp as the pool stores it: values with the amp's precision, times in unix seconds. */
export interface AmpRamp {
  readonly startValue: bigint;
  readonly endValue: bigint;
  readonly startTime: bigint;
  readonly endTime: bigint;
}

/**
 * A token's rate cache as the pool keeps it (composable stable `getTokenRateCache`, meta stable
 * `getPriceRateCache`) and its provider's `getRate()`.
 */
export interface RateCache {
  readonly rate: bigint;
  /** Composable stable only: the rate at the last join or exit. */
  readonly oldRate?: bigint;
  readonly duration: bigint;
  /** Unix seconds; a swap in a later block first refreshes the cache from the provider. */
  readonly expires: bigint;
  /** Absent when the provider's `getRate()` reverted: the cached rate is kept. */
  readonly providerRate?: bigint;
}

/** The followed state of one chain: every pool read so far, each at or before `block`. */
export interface ChainState {
  readonly block: BlockRef;
  readonly pools: ReadonlyMap<string, PoolChainState>;
}

/** Amp as stored: without its precision, to 3 decimals (Balancer's precision is 1000). */
function storedAmp(amp: { value: bigint; precision: bigint }): string {
  return unitsToDecimal((amp.value * 1000n) / amp.precision, 3);
}

/**
 * A weighted pool's rate product from its providers' rates, with the weights of `s` (else the
 * stored ones) in the Vault's token order; undefined without a weight for every token.
 */
function rateProductOf(pool: StoredPool, s: PoolChainState, rates: ReadonlyMap<string, bigint>): bigint | undefined {
  const stored = new Map<string, string | null>(pool.tokens.map((t) => [t.address, t.weight]));
  const weights: bigint[] = [];
  for (const [i, t] of s.tokens.entries()) {
    const w = s.weights?.[i] ?? stored.get(t.address);
    if (w === undefined || w === null) return undefined;
    weights.push(typeof w === 'bigint' ? w : decimalToUnits(w, 18));
  }
  return weightedRateProduct(
    weights,
    s.tokens.map((t) => rates.get(t.address) ?? null),
  );
}

/**
 * `pool` with the chain's values in place of the subgraph's, or `pool` itself when the chain's
 * token list is not the catalogue's (a pool the Vault does not know as stored is left as the
 * subgraph describes it). Balances are converted exactly to the stored human decimals.
 */
export function applyChainState(pool: StoredPool, s: PoolChainState): StoredPool {
  if (s.tokens.length !== pool.tokens.length) return pool;
  const onChain = new Map(s.tokens.map((t, i) => [t.address, { balance: t.balance, index: i }]));
  if (!pool.tokens.every((t) => onChain.has(t.address))) return pool;
  const tokens: StoredPoolToken[] = pool.tokens.map((t) => {
    const c = onChain.get(t.address)!;
    const rate = s.rates?.get(t.address);
    const oldRate = s.oldRates?.get(t.address);
    const weight = s.weights?.[c.index];
    return {
      ...t,
      balance: unitsToDecimal(c.balance, t.decimals),
      ...(weight !== undefined && t.weight !== null ? { weight: unitsToDecimal(weight, 18) } : {}),
      ...(rate !== undefined ? { priceRate: unitsToDecimal(rate, 18) } : {}),
      ...(oldRate !== undefined ? { oldPriceRate: unitsToDecimal(oldRate, 18) } : {}),
    };
  });
  // Pools that hold their own BPT (composable stable, linear) store the supply in circulation:
  // the total supply less what the Vault holds for the pool.
  const ownBpt = onChain.get(pool.address)?.balance ?? 0n;
  const amp = s.amp && pool.amp !== null && s.amp.precision > 0n ? storedAmp(s.amp) : undefined;
  const rateProduct = s.weightedYield && rateProductOf(pool, s, s.weightedYield.providerRates);
  return {
    ...pool,
    tokens,
    ...(s.swapFee !== undefined ? { swapFee: unitsToDecimal(s.swapFee, 18) } : {}),
    ...(s.paused !== undefined ? { isPaused: s.paused } : {}),
    ...(s.recoveryMode !== undefined ? { isInRecoveryMode: s.recoveryMode } : {}),
    ...(s.swapEnabled !== undefined ? { swapEnabled: s.swapEnabled } : {}),
    ...(s.totalSupply !== undefined ? { totalShares: unitsToDecimal(s.totalSupply - ownBpt, 18) } : {}),
    ...(amp !== undefined ? { amp } : {}),
    ...(s.lastJoinExit && s.amp && s.amp.precision > 0n
      ? {
          lastJoinExitAmp: unitsToDecimal((s.lastJoinExit.amp * 1000n) / s.amp.precision, 3),
          lastPostJoinExitInvariant: unitsToDecimal(s.lastJoinExit.invariant, 18),
        }
      : {}),
    ...(s.lastPostJoinExitInvariant !== undefined
      ? { lastPostJoinExitInvariant: unitsToDecimal(s.lastPostJoinExitInvariant, 18) }
      : {}),
    ...(s.protocolSwapFeeCache !== undefined
      ? { protocolSwapFeeCache: unitsToDecimal(s.protocolSwapFeeCache, 18) }
      : {}),
    ...(s.protocolYieldFeeCache !== undefined
      ? { protocolYieldFeeCache: unitsToDecimal(s.protocolYieldFeeCache, 18) }
      : {}),
    ...(s.weightedYield && rateProduct !== undefined
      ? {
          athRateProduct: unitsToDecimal(s.weightedYield.athRateProduct, 18),
          rateProduct: unitsToDecimal(rateProduct, 18),
        }
      : {}),
    ...(s.dueProtocolFeeBpt !== undefined ? { dueProtocolFeeBpt: unitsToDecimal(s.dueProtocolFeeBpt, 18) } : {}),
    ...(s.lastInvariant ? { lastInvariant: unitsToDecimal(s.lastInvariant.invariant, 18) } : {}),
    ...(s.lastInvariant?.amp !== undefined
      ? {
          lastInvariantAmp: storedAmp({
            value: s.lastInvariant.amp,
            precision: s.amp && s.amp.precision > 0n ? s.amp.precision : 1000n,
          }),
        }
      : {}),
    ...(s.vaultProtocolSwapFee !== undefined
      ? { vaultProtocolSwapFee: unitsToDecimal(s.vaultProtocolSwapFee, 18) }
      : {}),
    ...(s.targets && pool.lowerTarget !== null
      ? { lowerTarget: unitsToDecimal(s.targets.lower, 18), upperTarget: unitsToDecimal(s.targets.upper, 18) }
      : {}),
    routable: tokens.some((t) => t.address !== pool.address && !isZeroDecimal(t.balance)),
  };
}
