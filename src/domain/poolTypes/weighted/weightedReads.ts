import { decimalToUnits, unitsToDecimal } from '../../decimal';
import type { StoredPool } from '../../pool';
import { weightedRateProduct } from './weightedFees';
import {
  AT_POOL,
  at,
  chainCall,
  chainEvent,
  getter,
  lastLogRead,
  type ChainCall,
  type ChainReads,
  type VaultTokens,
  type LastLogRead,
} from '../chainReads';
import {
  applyLegacyFee,
  collectorFeeCalls,
  legacyFeeCalls,
  legacyFeeWatches,
  type LegacyFeeDraft,
  type LegacyFeeState,
} from '../legacyFeeBasisReads';
import {
  FEE_TYPE_SWAP,
  FEE_TYPE_YIELD,
  GET_PROTOCOL_FEE_PERCENTAGE_CACHE,
  PROTOCOL_FEE_CACHE_UPDATED,
} from '../protocolFeeCache';
import { GET_RATE, isZeroAddress, rateProvidersCall } from '../rateCaches';
import { storedStartWeight, weightsAt, type WeightUpdate } from './weightUpdate';

/**
 * What weighted-math pools read at the head beside the Vault reads: `getNormalizedWeights()`;
 * weighted v2+ their protocol fee basis (`WEIGHTED_FEE_PARAMS`), weighted v1 the legacy one
 * (`legacyFeeBasis.ts`); liquidity bootstrapping pools whether swaps are on and the gradual weight
 * update in progress.
 */
export interface WeightedChainState extends LegacyFeeState {
  /** Normalized weights in the Vault's token order, 1e18 = 100 %; during an update, at the state's time. */
  readonly weights?: readonly bigint[];
  /** Weighted v2+: `getLastPostJoinExitInvariant()`. */
  readonly lastPostJoinExitInvariant?: bigint;
  /** Weighted v2+: `getProtocolFeePercentageCache(0)` and, for pools with a rate provider, `(2)`. */
  readonly protocolSwapFeeCache?: bigint;
  readonly protocolYieldFeeCache?: bigint;
  /**
   * Weighted v2+ pools with a rate provider (the others are exempt from yield fees): the all-time
   * high of their rate product (`getATHRateProduct()`) and each provider's `getRate()` per
   * lower-case token. The pool asks its providers at every join or exit, no cache in between.
   */
  readonly weightedYield?: { readonly athRateProduct: bigint; readonly providerRates: ReadonlyMap<string, bigint> };
  /** Liquidity bootstrapping pools: whether the owner lets anyone swap (`getSwapEnabled()`). */
  readonly swapEnabled?: boolean;
  /**
   * A liquidity bootstrapping pool's weight update still moving at the block read (its last
   * `GradualWeightUpdateScheduled` with the getter's times and end weights).
   */
  readonly weightUpdate?: WeightUpdate;
}

interface WeightParams {
  readonly startTime: bigint;
  readonly endTime: bigint;
  /** As stored (16 bits), uncompressed. */
  readonly endWeights: readonly bigint[];
}

interface WeightedDraft extends LegacyFeeDraft {
  weights?: readonly bigint[];
  lastPostJoinExitInvariant?: bigint;
  protocolSwapFeeCache?: bigint;
  swapEnabled?: boolean;
  weightUpdate?: WeightUpdate;
  // Read for the second round or for `finish`, not part of the state:
  rateProviders?: string[];
  weightedAth?: bigint;
  yieldRated?: readonly { readonly token: string; readonly provider: string }[];
  yieldRates?: Map<string, bigint>;
  yieldFee?: bigint;
  weightParams?: WeightParams;
}

/** Weight updates whose start weights a log gave, by pool and the getter's parameters. */
type WeightUpdateMemo = Map<string, WeightUpdate>;
const MAX_WEIGHT_UPDATES = 1_000;

const GET_NORMALIZED_WEIGHTS = getter('getNormalizedWeights', [], ['uint256[]']);
const GET_LAST_POST_JOIN_EXIT_INVARIANT = getter('getLastPostJoinExitInvariant', [], ['uint256']);
const GET_ATH_RATE_PRODUCT = getter('getATHRateProduct', [], ['uint256']);
const GET_SWAP_ENABLED = getter('getSwapEnabled', [], ['bool']);
const GET_GRADUAL_WEIGHT_UPDATE_PARAMS = getter(
  'getGradualWeightUpdateParams',
  [],
  ['uint256', 'uint256', 'uint256[]'],
);

const GRADUAL_WEIGHT_UPDATE_SCHEDULED = chainEvent(
  'GradualWeightUpdateScheduled(uint256,uint256,uint256[],uint256[])',
  ['uint256', 'uint256', 'uint256[]', 'uint256[]'],
);
const SWAP_ENABLED_SET = chainEvent('SwapEnabledSet(bool)');

interface WeightedReadsOptions {
  /** Versions below this pay protocol fees in tokens (the legacy basis). */
  readonly legacyFeeBefore?: number;
  /** Versions from this on mint protocol fee BPT (`WEIGHTED_FEE_PARAMS`). */
  readonly feeBasisSince?: number;
  /** A liquidity bootstrapping pool: swaps switched by the owner, weights moving on a schedule. */
  readonly lbp?: boolean;
  /**
   * Weighted and liquidity bootstrapping pools pay protocol fees at joins and exits only, and keep
   * no cache a swap refreshes; managed pools (their own BPT, AUM fees) make no such promise.
   */
  readonly swapsMoveBalancesOnly?: boolean;
}

function weightedReads(o: WeightedReadsOptions): ChainReads<WeightedChainState, WeightedDraft, WeightUpdateMemo> {
  const legacy = (pool: StoredPool) => o.legacyFeeBefore !== undefined && pool.poolTypeVersion < o.legacyFeeBefore;
  const feeBasis = (pool: StoredPool) => o.feeBasisSince !== undefined && pool.poolTypeVersion >= o.feeBasisSince;
  return {
    events: [
      ...(o.feeBasisSince !== undefined ? [PROTOCOL_FEE_CACHE_UPDATED] : []),
      ...(o.lbp ? [GRADUAL_WEIGHT_UPDATE_SCHEDULED, SWAP_ENABLED_SET] : []),
    ],
    ...(o.swapsMoveBalancesOnly ? { swapsMoveBalancesOnly: true } : {}),
    draft: () => ({}),
    newMemo: () => new Map(),
    first(pool) {
      const calls: ChainCall<WeightedDraft>[] = [
        chainCall(AT_POOL, GET_NORMALIZED_WEIGHTS, [], (d: WeightedDraft, [w]) => (d.weights = [...w])),
      ];
      if (legacy(pool)) calls.push(...legacyFeeCalls<WeightedDraft>(false));
      // WeightedPoolProtocolFees: the swap fee basis, and the providers of the yield fee basis
      // (the all-time high rate product, their rates and the yield fee percentage are read in the
      // second round, for pools with a provider only: the others are exempt, and most have none).
      if (feeBasis(pool))
        calls.push(
          chainCall(
            AT_POOL,
            GET_LAST_POST_JOIN_EXIT_INVARIANT,
            [],
            (d: WeightedDraft, [v]) => (d.lastPostJoinExitInvariant = v),
          ),
          chainCall(
            AT_POOL,
            GET_PROTOCOL_FEE_PERCENTAGE_CACHE,
            [FEE_TYPE_SWAP],
            (d: WeightedDraft, [v]) => (d.protocolSwapFeeCache = v),
          ),
          rateProvidersCall<WeightedDraft>(),
        );
      if (o.lbp)
        calls.push(
          chainCall(AT_POOL, GET_SWAP_ENABLED, [], (d: WeightedDraft, [v]) => (d.swapEnabled = v)),
          chainCall(
            AT_POOL,
            GET_GRADUAL_WEIGHT_UPDATE_PARAMS,
            [],
            (d: WeightedDraft, [startTime, endTime, endWeights]) => {
              d.weightParams = { startTime, endTime, endWeights: [...endWeights] };
            },
          ),
        );
      return calls;
    },
    second(pool, draft, vaultTokens, memo) {
      return [
        ...collectorFeeCalls(draft),
        ...yieldCalls(pool, draft, vaultTokens),
        ...weightUpdateReads(pool, draft, memo),
      ];
    },
    finish(draft) {
      const {
        rateProviders: _providers,
        weightedAth,
        yieldRated,
        yieldRates,
        yieldFee,
        weightParams: _params,
        ...state
      } = draft;
      // The yield basis is set only when no provider reverted (one that reverts makes the pool's
      // joins and exits revert too; without the basis the model charges no yield fee).
      if (weightedAth === undefined || !yieldRated || yieldRated.length === 0 || yieldFee === undefined) return state;
      if (!yieldRated.every(({ token }) => yieldRates?.has(token))) return state;
      return {
        ...state,
        weightedYield: { athRateProduct: weightedAth, providerRates: new Map(yieldRates) },
        protocolYieldFeeCache: yieldFee,
      };
    },
    apply: applyWeighted,
    at(s, timestamp) {
      if (!s.weightUpdate) return s;
      const next = weightsAt(s.weightUpdate, timestamp);
      const weights = s.weights;
      if (weights && next.length === weights.length && next.every((w, i) => weights[i] === w)) return s;
      return { ...s, weights: next };
    },
    movesWithTime: (s) => s.weightUpdate !== undefined,
    needsReread: (s) => s.weightedYield !== undefined,
    watches: legacyFeeWatches,
  };
}

/**
 * The second round for a weighted v2+ pool with a rate provider: its all-time high rate product
 * (`getATHRateProduct()`), each provider's `getRate()` and the pool's yield fee percentage
 * (`getProtocolFeePercentageCache(2)`).
 */
function yieldCalls(_pool: StoredPool, draft: WeightedDraft, vaultTokens: VaultTokens): ChainCall<WeightedDraft>[] {
  const providers = draft.rateProviders ?? [];
  const rated = vaultTokens.tokens.flatMap((t, i) => {
    const provider = providers[i];
    return provider && !isZeroAddress(provider) ? [{ token: t.address, provider }] : [];
  });
  if (rated.length === 0) return [];
  draft.yieldRated = rated;
  return [
    chainCall(AT_POOL, GET_ATH_RATE_PRODUCT, [], (d: WeightedDraft, [v]) => (d.weightedAth = v)),
    ...rated.map(({ token, provider }) =>
      chainCall(at(provider), GET_RATE, [], (d: WeightedDraft, [rate]) =>
        (d.yieldRates ??= new Map()).set(token, rate),
      ),
    ),
    chainCall(
      AT_POOL,
      GET_PROTOCOL_FEE_PERCENTAGE_CACHE,
      [FEE_TYPE_YIELD],
      (d: WeightedDraft, [v]) => (d.yieldFee = v),
    ),
  ];
}

/**
 * The second round's read of an LBP whose weights still move (a weight differs from its end
 * weight: interpolation reaches an end weight only at the end): its last
 * `GradualWeightUpdateScheduled`, whose start weights the pool stored in 31 bits. The log must
 * carry the getter's times, else the weights stay as read. Found once per update (`memo`), not
 * at every block that trades the pool.
 */
function weightUpdateReads(
  pool: StoredPool,
  draft: WeightedDraft,
  memo: WeightUpdateMemo,
): LastLogRead<WeightedDraft>[] {
  const params = draft.weightParams;
  const weights = draft.weights;
  if (!params || !weights || weights.every((w, i) => w === params.endWeights[i])) return [];
  const key = `${pool.id}|${params.startTime}|${params.endTime}|${params.endWeights.join(',')}`;
  const known = memo.get(key);
  if (known) {
    draft.weightUpdate = known;
    return [];
  }
  return [
    lastLogRead(GRADUAL_WEIGHT_UPDATE_SCHEDULED, (d: WeightedDraft, [startTime, endTime, announced]) => {
      const startWeights = announced.map(storedStartWeight);
      if (
        startTime !== params.startTime ||
        endTime !== params.endTime ||
        startWeights.length !== params.endWeights.length
      )
        return false;
      const update: WeightUpdate = { startTime, endTime, startWeights, endWeights: params.endWeights };
      if (memo.size >= MAX_WEIGHT_UPDATES) memo.delete(memo.keys().next().value!);
      memo.set(key, update);
      d.weightUpdate = update;
      return true;
    }),
  ];
}

/**
 * A weighted pool's rate product from its providers' rates, with the weights read (else the
 * stored ones) in the Vault's token order; undefined without a weight for every token.
 */
function rateProductOf(pool: StoredPool, s: WeightedChainState, vaultTokens: VaultTokens): bigint | undefined {
  const rates = s.weightedYield?.providerRates;
  if (!rates) return undefined;
  const stored = new Map<string, string | null>(pool.tokens.map((t) => [t.address, t.weight]));
  const weights: bigint[] = [];
  for (const [i, t] of vaultTokens.tokens.entries()) {
    const read = s.weights?.[i];
    const w = read ?? stored.get(t.address);
    if (w === undefined || w === null) return undefined;
    weights.push(typeof w === 'bigint' ? w : decimalToUnits(w, 18));
  }
  return weightedRateProduct(
    weights,
    vaultTokens.tokens.map((t) => rates.get(t.address) ?? null),
  );
}

function applyWeighted(pool: StoredPool, s: WeightedChainState, vaultTokens: VaultTokens): StoredPool {
  const index = new Map(vaultTokens.tokens.map((t, i) => [t.address, i]));
  const weights = s.weights;
  const tokens = weights
    ? pool.tokens.map((t) => {
        const w = weights[index.get(t.address) ?? -1];
        return w !== undefined && t.weight !== null ? { ...t, weight: unitsToDecimal(w, 18) } : t;
      })
    : pool.tokens;
  const rateProduct = rateProductOf(pool, s, vaultTokens);
  return applyLegacyFee(
    {
      ...pool,
      tokens,
      ...(s.swapEnabled !== undefined ? { swapEnabled: s.swapEnabled } : {}),
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
    },
    s,
    undefined,
  );
}

/** Weighted v1 pays protocol fees in tokens, v2+ mints BPT against its own basis. */
export const WEIGHTED_CHAIN = weightedReads({ legacyFeeBefore: 2, feeBasisSince: 2, swapsMoveBalancesOnly: true });
export const LBP_CHAIN = weightedReads({ lbp: true, swapsMoveBalancesOnly: true });
/** Investment and managed pools: their weights alone. */
export const WEIGHTS_ONLY_CHAIN = weightedReads({});
