import { type EventFragment, Interface, type Result } from 'ethers';
import type { AmpRamp, BlockRef, PoolChainState, RateCache, WeightUpdate } from '../../domain/chainState';
import { storedStartWeight } from '../../domain/chainTime';
import type { StoredPool } from '../../domain/pool';
import type { ChainReadGroup } from '../../domain/poolTypes/poolTypeDef';
import { chainReadsOf } from '../../domain/poolTypes/registry';
import { UpstreamError } from '../upstream';
import {
  callBatch,
  MalformedAnswerError,
  RPC_UPSTREAM,
  type JsonRpcOptions,
  type RpcCall,
  type RpcOutcome,
} from '../rpc/jsonRpc';
import { wordDecoder, type WordDecoder } from './abiWords';

/**
 * Reads pool state from the chain's node in JSON-RPC batches, every `eth_call` pinned to one block
 * number, so a read is the chain at that block and nothing else: the Vault's balances, and per
 * pool type the getters its math needs (domain/chainState.ts says how they replace the stored
 * values). Also the head block and the Vault's logs that name pools whose balances moved.
 * A node that fails a whole request, or any call for another reason than a revert (a block it
 * does not have yet, a per-call rate limit), is an `UpstreamError`, and an answer that is not a
 * real one (missing, null, empty, cut short, another call's) a `MalformedAnswerError`: a read is
 * the whole block or nothing. Only a getter that reverts (a pool type without it) leaves its field
 * out, and only the Vault's unknown-pool revert a pool.
 */

const VAULT = new Interface([
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
  'function getProtocolFeesCollector() view returns (address)',
  'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
  'event PoolBalanceChanged(bytes32 indexed poolId, address indexed liquidityProvider, address[] tokens, int256[] deltas, uint256[] protocolFeeAmounts)',
  'event PoolBalanceManaged(bytes32 indexed poolId, address indexed assetManager, address indexed token, int256 cashDelta, int256 managedDelta)',
]);

const POOL = new Interface([
  'function getSwapFeePercentage() view returns (uint256)',
  'function getPausedState() view returns (bool paused, uint256 pauseWindowEndTime, uint256 bufferPeriodEndTime)',
  'function inRecoveryMode() view returns (bool)',
  'function totalSupply() view returns (uint256)',
  'function getNormalizedWeights() view returns (uint256[])',
  'function getAmplificationParameter() view returns (uint256 value, bool isUpdating, uint256 precision)',
  'function getTokenRate(address token) view returns (uint256)',
  'function getTokenRateCache(address token) view returns (uint256 rate, uint256 oldRate, uint256 duration, uint256 expires)',
  'function getLastJoinExitData() view returns (uint256 lastJoinExitAmplification, uint256 lastPostJoinExitInvariant)',
  'function getProtocolFeePercentageCache(uint256 feeType) view returns (uint256)',
  'function getLastPostJoinExitInvariant() view returns (uint256)',
  'function getLastInvariant() view returns (uint256)',
  'function getTargets() view returns (uint256 lowerTarget, uint256 upperTarget)',
  'function getWrappedTokenRate() view returns (uint256)',
  'function getRateProviders() view returns (address[])',
  'event AmpUpdateStarted(uint256 startValue, uint256 endValue, uint256 startTime, uint256 endTime)',
]);

/**
 * Getters of the fee and rate state of weighted v2+, StablePhantom, Stable v2 and MetaStable pools
 * beside `POOL`'s (stable pools' `getLastInvariant` also answers the amp: same selector).
 */
const FEE_STATE = new Interface([
  'function getATHRateProduct() view returns (uint256)',
  'function getDueProtocolFeeBptAmount() view returns (uint256)',
  'function getCachedProtocolSwapFeePercentage() view returns (uint256)',
  'function getPriceRateCache(address token) view returns (uint256 rate, uint256 duration, uint256 expires)',
  'function getLastInvariant() view returns (uint256 lastInvariant, uint256 lastInvariantAmp)',
]);

const RATE_PROVIDER = new Interface(['function getRate() view returns (uint256)']);
const FEES_COLLECTOR = new Interface(['function getSwapFeePercentage() view returns (uint256)']);
const AMP_UPDATE_STARTED = POOL.getEvent('AmpUpdateStarted')!.topicHash;

/** ProtocolFeeType ids of the protocol fee percentage cache. */
const FEE_TYPE_SWAP = 0;
const FEE_TYPE_YIELD = 2;

/** Topics of the Vault events that change a pool's balances; topic 1 is the pool id. */
export const VAULT_BALANCE_TOPICS: readonly string[] = ['Swap', 'PoolBalanceChanged', 'PoolBalanceManaged'].map(
  (name) => VAULT.getEvent(name)!.topicHash,
);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Draft = Mutable<Omit<PoolChainState, 'rates' | 'oldRates' | 'rateCaches'>> & {
  rates?: Map<string, bigint>;
  oldRates?: Map<string, bigint>;
  rateCaches?: Map<string, Mutable<RateCache>>;
  /** Read in the first round, for the second (provider rates, the ramp): not part of the state. */
  rateProviders?: string[];
  ampUpdating?: boolean;
  /** A liquidity bootstrapping pool's `getGradualWeightUpdateParams()`, for the second round. */
  weightParams?: WeightParams;
  /** Weighted v2+: `getATHRateProduct()`, for the second round's provider rates. */
  weightedAth?: bigint;
};

/** One `eth_call` and what its answer sets in the pool's draft. */
interface Read {
  readonly to: string;
  readonly data: string;
  readonly fn: string;
  readonly iface: Interface;
  readonly apply: (draft: Draft, result: Result | readonly unknown[]) => void;
}

/** Word decoders per interface and function, built once (undefined: ethers decodes it). */
const decoders = new Map<Interface, Map<string, WordDecoder | undefined>>();

function decoderFor(iface: Interface, fn: string): WordDecoder | undefined {
  let byFn = decoders.get(iface);
  if (!byFn) decoders.set(iface, (byFn = new Map()));
  if (!byFn.has(fn)) byFn.set(fn, wordDecoder(iface.getFunction(fn)!));
  return byFn.get(fn);
}

const hex = (n: number) => `0x${n.toString(16)}`;

function poolCall(pool: StoredPool, fn: string, args: unknown[], apply: Read['apply']): Read {
  return { to: pool.address, data: POOL.encodeFunctionData(fn, args), fn, iface: POOL, apply };
}

/**
 * What to ask about one pool: the frame every pool is read with (the Vault's balances, swap fee,
 * pause and recovery state, total supply), then each group of getters its pool type declares
 * (`chainReads` in its definition, `domain/poolTypes/`), read as `GROUP_READS` says.
 */
function readsFor(vault: string, pool: StoredPool): Read[] {
  const reads: Read[] = [
    {
      to: vault,
      data: VAULT.encodeFunctionData('getPoolTokens', [pool.id]),
      fn: 'getPoolTokens',
      iface: VAULT,
      apply: (d, r) => {
        const addresses = r[0] as string[];
        const balances = r[1] as bigint[];
        if (addresses.length !== balances.length)
          throw new MalformedAnswerError(
            `getPoolTokens of pool ${pool.id} answered ${addresses.length} tokens with ${balances.length} balances`,
          );
        d.tokens = addresses.map((a, i) => ({ address: a.toLowerCase(), balance: balances[i]! }));
        d.lastChangeBlock = Number(r[2] as bigint);
      },
    },
    poolCall(pool, 'getSwapFeePercentage', [], (d, r) => (d.swapFee = r[0] as bigint)),
    poolCall(pool, 'getPausedState', [], (d, r) => (d.paused = r[0] as boolean)),
    poolCall(pool, 'inRecoveryMode', [], (d, r) => (d.recoveryMode = r[0] as boolean)),
    poolCall(pool, 'totalSupply', [], (d, r) => (d.totalSupply = r[0] as bigint)),
  ];
  for (const group of chainReadsOf(pool.poolType, pool.poolTypeVersion)) reads.push(...GROUP_READS[group](vault, pool));
  return reads;
}

const setProviders: Read['apply'] = (d, r) => (d.rateProviders = (r[0] as string[]).map((a) => a.toLowerCase()));

/** A token's own rate getter, for each token but the pool's BPT. */
function tokenRates(pool: StoredPool): Read[] {
  return pool.tokens
    .filter((t) => t.address !== pool.address)
    .map((t) =>
      poolCall(pool, 'getTokenRate', [t.address], (d, r) => (d.rates ??= new Map()).set(t.address, r[0] as bigint)),
    );
}

/** The reads of each group a pool type may declare (`ChainReadGroup` says what each is for). */
const GROUP_READS: Record<ChainReadGroup, (vault: string, pool: StoredPool) => Read[]> = {
  weights: (_, pool) => [poolCall(pool, 'getNormalizedWeights', [], (d, r) => (d.weights = [...(r[0] as bigint[])]))],
  amp: (_, pool) => [
    poolCall(pool, 'getAmplificationParameter', [], (d, r) => {
      d.amp = { value: r[0] as bigint, precision: r[2] as bigint };
      d.ampUpdating = r[1] as boolean;
    }),
  ],
  composableRates: (_, pool) => [
    ...tokenRates(pool),
    // Reverts for tokens without a rate provider: they have no cache and no old rate.
    ...pool.tokens
      .filter((t) => t.address !== pool.address)
      .map((t) =>
        poolCall(pool, 'getTokenRateCache', [t.address], (d, r) => {
          (d.oldRates ??= new Map()).set(t.address, r[1] as bigint);
          (d.rateCaches ??= new Map()).set(t.address, {
            rate: r[0] as bigint,
            oldRate: r[1] as bigint,
            duration: r[2] as bigint,
            expires: r[3] as bigint,
          });
        }),
      ),
    poolCall(pool, 'getRateProviders', [], setProviders),
  ],
  composableFeeBasis: (_, pool) => [
    poolCall(
      pool,
      'getLastJoinExitData',
      [],
      (d, r) => (d.lastJoinExit = { amp: r[0] as bigint, invariant: r[1] as bigint }),
    ),
    poolCall(
      pool,
      'getProtocolFeePercentageCache',
      [FEE_TYPE_SWAP],
      (d, r) => (d.protocolSwapFeeCache = r[0] as bigint),
    ),
    poolCall(
      pool,
      'getProtocolFeePercentageCache',
      [FEE_TYPE_YIELD],
      (d, r) => (d.protocolYieldFeeCache = r[0] as bigint),
    ),
  ],
  // WeightedPoolProtocolFees: the swap fee basis, and the yield fee basis (the all-time high rate
  // product and the providers; their rates and the yield fee percentage are read in the second
  // round, for pools with a provider only: the others are exempt).
  weightedFeeBasis: (_, pool) => [
    poolCall(pool, 'getLastPostJoinExitInvariant', [], (d, r) => (d.lastPostJoinExitInvariant = r[0] as bigint)),
    poolCall(
      pool,
      'getProtocolFeePercentageCache',
      [FEE_TYPE_SWAP],
      (d, r) => (d.protocolSwapFeeCache = r[0] as bigint),
    ),
    feeStateCall(pool, 'getATHRateProduct', [], (d, r) => (d.weightedAth = r[0] as bigint)),
    poolCall(pool, 'getRateProviders', [], setProviders),
  ],
  legacyFeeBasis: (vault, pool) => legacyFeeBasisReads(vault, pool, false),
  legacyStableFeeBasis: (vault, pool) => legacyFeeBasisReads(vault, pool, true),
  lbpSchedule: (_, pool) => lbpReads(pool),
  linearTargets: (_, pool) => {
    if (pool.lowerTarget === null || pool.upperTarget === null) return [];
    const wrapped = pool.wrappedIndex === null ? undefined : pool.tokens[pool.wrappedIndex];
    return [
      poolCall(pool, 'getTargets', [], (d, r) => (d.targets = { lower: r[0] as bigint, upper: r[1] as bigint })),
      ...(wrapped
        ? [
            poolCall(pool, 'getWrappedTokenRate', [], (d, r) =>
              (d.rates ??= new Map()).set(wrapped.address, r[0] as bigint),
            ),
          ]
        : []),
    ];
  },
  // StablePhantom: its cached token rates, the protocol fee BPT it owes (part of its virtual supply)
  // and its cached protocol swap fee percentage; no rate cache expiry, since its swaps price with the
  // cached rate before refreshing it (`domain/chainTime.ts`).
  phantomState: (_, pool) => [
    ...tokenRates(pool),
    feeStateCall(pool, 'getDueProtocolFeeBptAmount', [], (d, r) => (d.dueProtocolFeeBpt = r[0] as bigint)),
    feeStateCall(pool, 'getCachedProtocolSwapFeePercentage', [], (d, r) => (d.protocolSwapFeeCache = r[0] as bigint)),
  ],
  // MetaStable: each token's price rate cache (a token without a provider has an empty one, left
  // out) and the providers, whose rate a swap after expiry caches first.
  priceRateCaches: (_, pool) => [
    ...pool.tokens.map((t) =>
      feeStateCall(pool, 'getPriceRateCache', [t.address], (d, r) => {
        const [rate, duration, expires] = [r[0] as bigint, r[1] as bigint, r[2] as bigint];
        // A cache ever written expires after its block's timestamp: an empty one has no provider.
        if (rate === 0n && expires === 0n) return;
        (d.rates ??= new Map()).set(t.address, rate);
        (d.rateCaches ??= new Map()).set(t.address, { rate, duration, expires });
      }),
    ),
    poolCall(pool, 'getRateProviders', [], setProviders),
  ],
};

function feeStateCall(pool: StoredPool, fn: string, args: unknown[], apply: Read['apply']): Read {
  return { to: pool.address, data: FEE_STATE.encodeFunctionData(fn, args), fn, iface: FEE_STATE, apply };
}

/**
 * Weighted v1, Stable v2 and MetaStable pools pay due protocol fees out of their balances at a
 * join or exit (`domain/poolTypes/legacyFeeBasis.ts`), measured from `getLastInvariant()` (stable
 * pools also answer the amp it was taken at; weighted v1 the invariant alone, same selector) at
 * the percentage the Vault hands them: its ProtocolFeesCollector's, asked in the second round
 * once per collector. The collector stays in the state: its fee change event re-reads these pools.
 */
function legacyFeeBasisReads(vault: string, pool: StoredPool, stable: boolean): Read[] {
  return [
    stable
      ? feeStateCall(
          pool,
          'getLastInvariant',
          [],
          (d, r) => (d.lastInvariant = { invariant: r[0] as bigint, amp: r[1] as bigint }),
        )
      : poolCall(pool, 'getLastInvariant', [], (d, r) => (d.lastInvariant = { invariant: r[0] as bigint })),
    {
      to: vault,
      data: VAULT.encodeFunctionData('getProtocolFeesCollector'),
      fn: 'getProtocolFeesCollector',
      iface: VAULT,
      apply: (d, r) => (d.protocolFeesCollector = String(r[0]).toLowerCase()),
    },
  ];
}

const isZeroAddress = (a: string) => /^0x0+$/.test(a);

/**
 * A second-round answer of these reads: the value, or undefined where the contract reverted; a
 * node's own failure, and an answer that is not a value, throw, as in the first round.
 */
function answered(o: RpcOutcome | undefined, iface: Interface, fn: string, blockNumber: number): bigint | undefined {
  const r = decoded({ fn, iface }, o, blockNumber);
  return r === undefined ? undefined : (r[0] as bigint);
}

/**
 * The second round for a weighted v2+ pool with a rate provider: each provider's `getRate()` and
 * the pool's yield fee percentage (`getProtocolFeePercentageCache(2)`). The yield basis is set only
 * when none reverted (a provider that reverts makes the pool's joins and exits revert too; without
 * the basis the model charges no yield fee).
 */
function weightedYieldCalls(
  pool: StoredPool,
  draft: Draft,
  blockNumber: number,
): { calls: RpcCall[]; apply: (outcomes: readonly (RpcOutcome | undefined)[]) => void } {
  const ath = draft.weightedAth;
  const providers = draft.rateProviders ?? [];
  const rated = draft.tokens.flatMap((t, i) => {
    const provider = providers[i];
    return provider && !isZeroAddress(provider) ? [{ token: t.address, provider }] : [];
  });
  if (ath === undefined || rated.length === 0) return { calls: [], apply: () => undefined };
  const call = (to: string, iface: Interface, fn: string, args: unknown[]): RpcCall => ({
    method: 'eth_call',
    params: [{ to, data: iface.encodeFunctionData(fn, args) }, hex(blockNumber)],
  });
  const value = (o: RpcOutcome | undefined, iface: Interface, fn: string) => answered(o, iface, fn, blockNumber);
  return {
    calls: [
      ...rated.map(({ provider }) => call(provider, RATE_PROVIDER, 'getRate', [])),
      call(pool.address, POOL, 'getProtocolFeePercentageCache', [FEE_TYPE_YIELD]),
    ],
    apply: (outcomes) => {
      const rates = rated.map((_, k) => value(outcomes[k], RATE_PROVIDER, 'getRate'));
      const pct = value(outcomes[rated.length], POOL, 'getProtocolFeePercentageCache');
      if (pct === undefined || rates.some((r) => r === undefined)) return;
      const providerRates = new Map(rated.map(({ token }, k) => [token, rates[k]!]));
      draft.weightedYield = { athRateProduct: ath, providerRates };
      draft.protocolYieldFeeCache = pct;
    },
  };
}

// --- end of the protocol fee and rate state section ---

/**
 * A revert is the contract's answer (the getter is missing, the Vault does not know the pool);
 * anything else a node says about one call (header not found, rate limited) is the node's failure.
 */
export function isRevert(outcome: { readonly error: string; readonly code?: number }): boolean {
  return outcome.code === 3 || /revert/i.test(outcome.error);
}

/** `Error(string)`'s selector: a revert with a reason carries it before the encoded string. */
const ERROR_STRING = new Interface(['function Error(string)']);

/**
 * The Vault's answer for a pool it does not know: `getPoolTokens` reverts with BAL#500
 * (INVALID_POOL_ID), in the node's message or in the revert data. Any other failure of that call,
 * a revert without that reason included, says nothing about the pool.
 */
export function isPoolUnknown(outcome: RpcOutcome | undefined): boolean {
  if (!outcome || outcome.ok || !isRevert(outcome)) return false;
  if (/BAL#500\b/.test(outcome.error)) return true;
  if (!outcome.data?.startsWith(ERROR_STRING.getFunction('Error')!.selector)) return false;
  try {
    return String(ERROR_STRING.decodeFunctionData('Error', outcome.data)[0]) === 'BAL#500';
  } catch {
    return false;
  }
}

/**
 * One call's answer, decoded; undefined for a revert (the contract's answer: a getter it lacks).
 * Anything else that is not a full answer fails the read: no answer, a node's error, a result
 * that is not hex, is empty (`0x`, which a contract with the getter never returns) or does not
 * decode as the function's outputs (cut short, or another call's answer).
 */
function decoded(
  read: Pick<Read, 'fn' | 'iface'>,
  outcome: RpcOutcome | undefined,
  blockNumber: number,
): Result | readonly unknown[] | undefined {
  if (!outcome || (!outcome.ok && outcome.missing))
    throw new MalformedAnswerError(`eth_call ${read.fn} at block ${blockNumber}: no answer for this call`);
  if (!outcome.ok) {
    if (isRevert(outcome)) return undefined;
    throw new UpstreamError(RPC_UPSTREAM, `eth_call ${read.fn} at block ${blockNumber} failed: ${outcome.error}`);
  }
  const bad = (what: string) =>
    new MalformedAnswerError(`eth_call ${read.fn} at block ${blockNumber} answered ${what}`);
  if (typeof outcome.result !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(outcome.result))
    throw bad(
      `${outcome.result === null ? 'null' : typeof outcome.result === 'string' ? 'text that is not hex data' : typeof outcome.result}, not return data`,
    );
  if (outcome.result === '0x') throw bad('empty return data (0x)');
  const words = decoderFor(read.iface, read.fn);
  let result: Result | readonly unknown[] | undefined;
  if (words) result = words(outcome.result);
  else
    try {
      result = read.iface.decodeFunctionResult(read.fn, outcome.result);
    } catch {
      result = undefined;
    }
  if (result === undefined) throw bad(`${(outcome.result.length - 2) / 2} bytes that do not decode as its outputs`);
  return result;
}

/**
 * What `readsFor` asks about a pool depends only on these fields of its stored shape (its type and
 * version pick the groups, its tokens the per-token calls), which the chain state laid over it
 * (balances, fee, rates) never changes.
 */
function shapeOf(vault: string, pool: StoredPool): string {
  const tokens = pool.tokens.map((t) => t.address).join(',');
  const linear = pool.lowerTarget !== null && pool.upperTarget !== null ? `l${pool.wrappedIndex}` : '';
  return `${vault}|${pool.address}|${pool.poolType}|${pool.poolTypeVersion}|${linear}|${tokens}`;
}

/**
 * Each pool's reads, encoded once rather than at every block that moves it (the read model hands
 * the follower a new pool object each time its chain state changes, so this is keyed by id and
 * checked against the shape). It holds one entry per pool id ever read by this process: the
 * followed catalogues, a few thousand pools, plus the few the subgraph dropped since.
 */
const planned = new Map<string, { readonly shape: string; readonly reads: readonly Read[] }>();

function plannedReads(vault: string, pool: StoredPool): readonly Read[] {
  const shape = shapeOf(vault, pool);
  const known = planned.get(pool.id);
  if (known?.shape === shape) return known.reads;
  const reads = readsFor(vault, pool);
  planned.set(pool.id, { shape, reads });
  return reads;
}

/** How many calls a read of these pools makes (the README's per-block figures). */
export function callsFor(vault: string, pools: readonly StoredPool[]): number {
  return pools.reduce((n, p) => n + plannedReads(vault, p).length, 0);
}

/**
 * The state of each pool at `blockNumber`, keyed by pool id. A pool whose `getPoolTokens` the
 * Vault refuses (reverts: not registered there) is left out; a call the node fails otherwise
 * throws `UpstreamError`, so the caller publishes nothing of this block.
 */
export async function readPoolStates(
  rpc: JsonRpcOptions,
  vault: string,
  pools: readonly StoredPool[],
  blockNumber: number,
): Promise<Map<string, PoolChainState>> {
  const plans = pools.map((p) => ({ pool: p, reads: plannedReads(vault, p) }));
  const calls: RpcCall[] = plans.flatMap(({ reads }) =>
    reads.map((r) => ({ method: 'eth_call', params: [{ to: r.to, data: r.data }, hex(blockNumber)] })),
  );
  const outcomes = await callBatch(rpc, calls);
  const drafts = new Map<string, { pool: StoredPool; draft: Draft }>();
  let at = 0;
  for (const { pool, reads } of plans) {
    const draft: Draft = { poolId: pool.id, tokens: [] };
    // The first read is the Vault's getPoolTokens: only its "unknown pool" revert leaves the pool
    // out (its other answers then say nothing); any other revert of it is no answer about the pool.
    const vaultAnswer = outcomes[at];
    if (isPoolUnknown(vaultAnswer)) {
      at += reads.length;
      continue;
    }
    if (vaultAnswer && !vaultAnswer.ok && isRevert(vaultAnswer))
      throw new MalformedAnswerError(
        `eth_call getPoolTokens of pool ${pool.id} at block ${blockNumber} reverted without the Vault's unknown-pool reason: ${vaultAnswer.error}`,
      );
    reads.forEach((read, i) => {
      const result = decoded(read, outcomes[at + i], blockNumber);
      if (result) read.apply(draft, result);
    });
    if (draft.lastChangeBlock !== undefined && draft.lastChangeBlock > blockNumber)
      throw new MalformedAnswerError(
        `getPoolTokens of pool ${pool.id} at block ${blockNumber} says its balances last changed at block ${draft.lastChangeBlock}: an answer from another block`,
      );
    at += reads.length;
    drafts.set(pool.id, { pool, draft });
  }
  await readTimeDependence(rpc, [...drafts.values()], blockNumber);
  const out = new Map<string, PoolChainState>();
  for (const [id, { draft }] of drafts) {
    const {
      rateProviders: _providers,
      ampUpdating: _updating,
      weightParams: _params,
      weightedAth: _ath,
      ...state
    } = draft;
    out.set(id, state);
  }
  return out;
}

/**
 * The second round, for what moves with time (`domain/chainTime.ts`): each rate provider's own
 * rate, which a swap after the cache expired uses (and a weighted pool's join or exit, uncached),
 * and the amp ramp in progress, which no getter returns (the pool keeps it in storage): its last
 * `AmpUpdateStarted` log; likewise an LBP's weight update in progress (`weightUpdateRead`). Also
 * the protocol swap fee percentage of the fees collector the first round named for pools paying
 * fees in tokens (`legacyFeeBasisReads`), one call per collector.
 */
async function readTimeDependence(
  rpc: JsonRpcOptions,
  drafts: readonly { pool: StoredPool; draft: Draft }[],
  blockNumber: number,
): Promise<void> {
  const calls: RpcCall[] = [];
  const applies: ((outcome: RpcOutcome | undefined) => void)[] = [];
  const collectors = new Map<string, Draft[]>();
  for (const { draft } of drafts)
    // Without the invariant the percentage is of no use: the model then assumes no fee is due.
    if (draft.protocolFeesCollector && draft.lastInvariant)
      collectors.set(draft.protocolFeesCollector, [...(collectors.get(draft.protocolFeesCollector) ?? []), draft]);
  for (const [collector, owing] of collectors) {
    // Like a first-round getter: a revert leaves the field out, any other failure fails the read.
    const read: Read = {
      to: collector,
      data: FEES_COLLECTOR.encodeFunctionData('getSwapFeePercentage'),
      fn: 'getSwapFeePercentage',
      iface: FEES_COLLECTOR,
      apply: (d, r) => (d.vaultProtocolSwapFee = r[0] as bigint),
    };
    calls.push({ method: 'eth_call', params: [{ to: read.to, data: read.data }, hex(blockNumber)] });
    applies.push((o) => {
      const result = decoded(read, o, blockNumber);
      if (result) for (const d of owing) read.apply(d, result);
    });
  }
  /** Applied once all answers are in: what needs several answers together. */
  const whole: (() => void)[] = [];
  for (const { pool, draft } of drafts) {
    const yieldRates = weightedYieldCalls(pool, draft, blockNumber);
    if (yieldRates.calls.length > 0) {
      const answers: (RpcOutcome | undefined)[] = [];
      calls.push(...yieldRates.calls);
      applies.push(...yieldRates.calls.map(() => (o: RpcOutcome | undefined) => void answers.push(o)));
      whole.push(() => yieldRates.apply(answers));
    }
    if (draft.rateCaches && draft.rateProviders) {
      for (const [token, cache] of draft.rateCaches) {
        const provider = draft.rateProviders[draft.tokens.findIndex((t) => t.address === token)];
        if (!provider || isZeroAddress(provider)) continue;
        calls.push({
          method: 'eth_call',
          params: [{ to: provider, data: RATE_PROVIDER.encodeFunctionData('getRate') }, hex(blockNumber)],
        });
        // A node's failure or an answer that is not a rate fails the read, as in the first round;
        // a provider that reverts (or has no code) leaves the cached rate in use.
        applies.push((o) => {
          const r = decoded({ fn: 'getRate', iface: RATE_PROVIDER }, o, blockNumber);
          if (r) cache.providerRate = r[0] as bigint;
        });
      }
    }
    const weights = weightUpdateRead(pool, draft, blockNumber, weightUpdatesOf(rpc));
    if (weights) {
      calls.push(weights.call);
      applies.push(weights.apply);
    }
    if (draft.ampUpdating) {
      const read = lastPoolEvent(pool, AMP_UPDATE_STARTED, blockNumber, draft, (log) => {
        const r = POOL.decodeEventLog('AmpUpdateStarted', log.data, log.topics);
        const ramp: AmpRamp = {
          startValue: r[0] as bigint,
          endValue: r[1] as bigint,
          startTime: r[2] as bigint,
          endTime: r[3] as bigint,
        };
        draft.ampRamp = ramp;
      });
      calls.push(read.call);
      applies.push(read.apply);
    }
  }
  if (calls.length === 0) return;
  const outcomes = await callBatch(rpc, calls);
  await codelessAsReverts(rpc, calls, outcomes, blockNumber);
  applies.forEach((apply, i) => apply(outcomes[i]));
  for (const apply of whole) apply();
}

/**
 * A second-round call answered with empty data (`0x`) is a contract the pool names (a rate
 * provider) that has no code at that block, or a node that answered nothing: `eth_getCode` tells
 * them apart. A call to an address without code counts as a revert (the pool's own calls to it
 * would revert too); an empty answer from a contract with code fails the read, as in the first round.
 */
async function codelessAsReverts(
  rpc: JsonRpcOptions,
  calls: readonly RpcCall[],
  outcomes: RpcOutcome[],
  blockNumber: number,
): Promise<void> {
  const empty = calls.flatMap((c, i) => {
    const o = outcomes[i];
    return c.method === 'eth_call' && o?.ok && o.result === '0x' ? [i] : [];
  });
  if (empty.length === 0) return;
  const target = (i: number) => (calls[i]!.params[0] as { to: string }).to.toLowerCase();
  const targets = [...new Set(empty.map(target))];
  const codes = await callBatch(
    rpc,
    targets.map((t) => ({ method: 'eth_getCode', params: [t, hex(blockNumber)] })),
  );
  const codeless = new Set<string>();
  targets.forEach((t, k) => {
    const o = codes[k];
    if (!o?.ok)
      throw new UpstreamError(
        RPC_UPSTREAM,
        `eth_getCode ${t} at block ${blockNumber} failed: ${o?.error ?? 'no answer'}`,
      );
    if (typeof o.result !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(o.result))
      throw new MalformedAnswerError(`eth_getCode ${t} at block ${blockNumber} answered something other than code`);
    if (o.result === '0x') codeless.add(t);
  });
  for (const i of empty)
    if (codeless.has(target(i))) outcomes[i] = { ok: false, error: `no contract code at ${target(i)}`, code: 3 };
}

/**
 * The second round's read of a pool's last event with `topic` (the start of an amp ramp or of a
 * weight update, which no getter returns), over the pool's whole history. A node that refuses or
 * fails that query (providers cap log ranges) does not fail the block: the pool's values stay as
 * read at the head and the pool is read again at every new block (`timeUnknown`), so its quotes
 * are off by one block's movement at most rather than the follower stalling on it.
 */
function lastPoolEvent(
  pool: StoredPool,
  topic: string,
  blockNumber: number,
  draft: Draft,
  decode: (log: { data: string; topics: string[] }) => void,
): { call: RpcCall; apply: (outcome: RpcOutcome | undefined) => void } {
  return {
    call: {
      method: 'eth_getLogs',
      params: [{ address: pool.address, fromBlock: '0x0', toBlock: hex(blockNumber), topics: [topic] }],
    },
    apply: (o) => {
      if (!o?.ok) {
        draft.timeUnknown = true;
        return;
      }
      if (!Array.isArray(o.result))
        throw new MalformedAnswerError(`eth_getLogs of pool ${pool.address} answered without a list`);
      const logs = o.result as { data?: unknown; topics?: unknown }[];
      const last = logs[logs.length - 1];
      if (!last || typeof last.data !== 'string' || !Array.isArray(last.topics)) return;
      try {
        decode({ data: last.data, topics: last.topics as string[] });
      } catch {
        // A log that does not decode as the event: the values stay as read, and are read again.
        draft.timeUnknown = true;
      }
    },
  };
}

// Liquidity bootstrapping pools (2021 LBP and its no-protocol-fee copy): swaps switched on and off
// by the owner, and the weights' gradual update, whose start weights no getter returns.

const LBP = new Interface([
  'function getSwapEnabled() view returns (bool)',
  'function getGradualWeightUpdateParams() view returns (uint256 startTime, uint256 endTime, uint256[] endWeights)',
  'event GradualWeightUpdateScheduled(uint256 startTime, uint256 endTime, uint256[] startWeights, uint256[] endWeights)',
]);
const GRADUAL_WEIGHT_UPDATE_SCHEDULED = LBP.getEvent('GradualWeightUpdateScheduled')!.topicHash;

interface WeightParams {
  readonly startTime: bigint;
  readonly endTime: bigint;
  /** As stored (16 bits), uncompressed. */
  readonly endWeights: readonly bigint[];
}

function lbpReads(pool: StoredPool): Read[] {
  const call = (fn: string, apply: Read['apply']): Read => ({
    to: pool.address,
    data: LBP.encodeFunctionData(fn),
    fn,
    iface: LBP,
    apply,
  });
  return [
    call('getSwapEnabled', (d, r) => (d.swapEnabled = r[0] as boolean)),
    call(
      'getGradualWeightUpdateParams',
      (d, r) =>
        (d.weightParams = {
          startTime: r[0] as bigint,
          endTime: r[1] as bigint,
          endWeights: [...(r[2] as bigint[])],
        }),
    ),
  ];
}

/**
 * The second round's read of an LBP whose weights still move (a weight differs from its end
 * weight: interpolation reaches an end weight only at the end): its last
 * `GradualWeightUpdateScheduled`, whose start weights the pool stored in 31 bits. The log must
 * carry the getter's times, else the weights stay as read.
 */
function weightUpdateRead(
  pool: StoredPool,
  draft: Draft,
  blockNumber: number,
  weightUpdates: Map<string, WeightUpdate>,
): { call: RpcCall; apply: (outcome: RpcOutcome | undefined) => void } | undefined {
  const params = draft.weightParams;
  const weights = draft.weights;
  if (!params || !weights || weights.every((w, i) => w === params.endWeights[i])) return undefined;
  // The getter's times and end weights name the update; its start weights were found once.
  const key = `${pool.id}|${params.startTime}|${params.endTime}|${params.endWeights.join(',')}`;
  const known = weightUpdates.get(key);
  if (known) {
    draft.weightUpdate = known;
    return undefined;
  }
  return lastPoolEvent(pool, GRADUAL_WEIGHT_UPDATE_SCHEDULED, blockNumber, draft, (log) => {
    const r = LBP.decodeEventLog('GradualWeightUpdateScheduled', log.data, log.topics);
    const startWeights = (r[2] as bigint[]).map(storedStartWeight);
    if (
      (r[0] as bigint) !== params.startTime ||
      (r[1] as bigint) !== params.endTime ||
      startWeights.length !== params.endWeights.length
    ) {
      draft.timeUnknown = true;
      return;
    }
    const update: WeightUpdate = {
      startTime: params.startTime,
      endTime: params.endTime,
      startWeights,
      endWeights: params.endWeights,
    };
    if (weightUpdates.size >= MAX_WEIGHT_UPDATES) weightUpdates.delete(weightUpdates.keys().next().value!);
    weightUpdates.set(key, update);
    draft.weightUpdate = update;
  });
}

/**
 * Weight updates whose start weights a log gave, by pool and the getter's parameters, so a moving
 * LBP's history is queried once per update rather than at every block that trades it.
 */
const weightUpdatesByNode = new WeakMap<JsonRpcOptions, Map<string, WeightUpdate>>();

/** Per node (the follower's RPC options for one chain): a pool id names a pool on one chain only. */
function weightUpdatesOf(rpc: JsonRpcOptions): Map<string, WeightUpdate> {
  let map = weightUpdatesByNode.get(rpc);
  if (!map) weightUpdatesByNode.set(rpc, (map = new Map()));
  return map;
}
const MAX_WEIGHT_UPDATES = 1_000;

interface RawBlock {
  readonly number?: unknown;
  readonly hash?: unknown;
  readonly parentHash?: unknown;
  readonly timestamp?: unknown;
}

function toBlock(outcome: RpcOutcome | undefined, what: string): BlockRef | null {
  if (!outcome?.ok)
    throw new UpstreamError(RPC_UPSTREAM, `eth_getBlockByNumber(${what}) failed: ${outcome?.error ?? 'no answer'}`);
  if (outcome.result === null) return null;
  const b = outcome.result as RawBlock;
  if (
    typeof b?.number !== 'string' ||
    typeof b.hash !== 'string' ||
    typeof b.parentHash !== 'string' ||
    typeof b.timestamp !== 'string'
  )
    throw new UpstreamError(
      RPC_UPSTREAM,
      `eth_getBlockByNumber(${what}) answered without number, hash, parentHash and timestamp`,
    );
  return {
    number: Number(BigInt(b.number)),
    hash: b.hash.toLowerCase(),
    parentHash: b.parentHash.toLowerCase(),
    timestamp: Number(BigInt(b.timestamp)),
  };
}

/**
 * The head block, and the block now at the height of `known` (null when the chain is shorter):
 * whether it still has the hash the state was read at tells a reorg apart. A head that is `known`
 * itself, or its child, vouches for it, so only a head further on (or one whose parent is not
 * `known`) costs a second request: an idle poll carries one block, not two.
 */
export async function readHead(
  rpc: JsonRpcOptions,
  known?: BlockRef,
): Promise<{ head: BlockRef; atKnown: BlockRef | null | undefined }> {
  const [latest] = await callBatch(rpc, [{ method: 'eth_getBlockByNumber', params: ['latest', false] }]);
  const head = toBlock(latest, 'latest');
  if (!head) throw new UpstreamError(RPC_UPSTREAM, 'eth_getBlockByNumber(latest) answered null');
  if (known === undefined) return { head, atKnown: undefined };
  if (head.hash === known.hash || (head.number === known.number + 1 && head.parentHash === known.hash))
    return { head, atKnown: known };
  const [again] = await callBatch(rpc, [{ method: 'eth_getBlockByNumber', params: [hex(known.number), false] }]);
  return { head, atKnown: toBlock(again, hex(known.number)) };
}

/**
 * Pool events that change what a pool's getters answer without any Vault log: a ramp started or
 * stopped, a fee or pause or recovery change, a rate cache refreshed or its provider replaced, the
 * protocol fee cache, linear targets, an LBP's weight update scheduled or its swaps switched. (Composable stable and StablePhantom key the rate cache
 * event by index and by token.)
 */
const POOL_STATE_TOPICS: readonly string[] = new Interface([
  'event AmpUpdateStarted(uint256 startValue, uint256 endValue, uint256 startTime, uint256 endTime)',
  'event AmpUpdateStopped(uint256 currentValue)',
  'event SwapFeePercentageChanged(uint256 swapFeePercentage)',
  'event PausedStateChanged(bool paused)',
  'event RecoveryModeStateChanged(bool enabled)',
  'event TokenRateCacheUpdated(uint256 indexed tokenIndex, uint256 rate)',
  'event TokenRateProviderSet(uint256 indexed tokenIndex, address indexed provider, uint256 cacheDuration)',
  'event ProtocolFeePercentageCacheUpdated(uint256 indexed feeType, uint256 protocolFeePercentage)',
  'event TargetsSet(address indexed token, uint256 lowerTarget, uint256 upperTarget)',
  'event PriceRateCacheUpdated(address indexed token, uint256 rate)',
  'event GradualWeightUpdateScheduled(uint256 startTime, uint256 endTime, uint256[] startWeights, uint256[] endWeights)',
  'event SwapEnabledSet(bool swapEnabled)',
  // StablePhantom: anyone may refresh its cached protocol swap fee percentage.
  'event CachedProtocolSwapFeePercentageUpdated(uint256 protocolSwapFeePercentage)',
]).fragments
  .flatMap((f) => (f.type === 'event' ? [(f as EventFragment).topicHash] : []))
  .concat(
    new Interface([
      'event TokenRateCacheUpdated(address indexed token, uint256 rate)',
      'event TokenRateProviderSet(address indexed token, address indexed provider, uint256 cacheDuration)',
    ]).fragments.map((f) => (f as EventFragment).topicHash),
  );

/**
 * The node answered but refused this `eth_getLogs` (providers cap a query's block range or result
 * count): a smaller range may pass, unlike a node that does not answer at all.
 */
export class LogsRefusedError extends UpstreamError {}

interface RawLog {
  readonly address?: unknown;
  readonly topics?: unknown;
  readonly blockNumber?: unknown;
}

function logsOf(outcome: RpcOutcome | undefined, from: number, to: number): RawLog[] {
  if (!outcome?.ok)
    throw new LogsRefusedError(RPC_UPSTREAM, `eth_getLogs ${from}..${to} failed: ${outcome?.error ?? 'no answer'}`);
  if (!Array.isArray(outcome.result)) throw new MalformedAnswerError('eth_getLogs answered without a list');
  return outcome.result as RawLog[];
}

/**
 * A log as asked: from `address` when given, topic 0 among `topics`, in `from`..`to`; anything else
 * (a log of another range or event, one without its topics) is not an answer to the query.
 */
function checkedLog(
  log: RawLog,
  query: { from: number; to: number; address?: string; topics: readonly string[] },
): { address: string; topics: string[]; block: number } {
  const bad = (what: string) =>
    new MalformedAnswerError(`eth_getLogs ${query.from}..${query.to} answered a log ${what}`);
  if (log === null || typeof log !== 'object') throw bad('that is not an object');
  const { address, topics, blockNumber } = log;
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) throw bad('without an address');
  if (query.address !== undefined && address.toLowerCase() !== query.address) throw bad(`from ${address}, not asked`);
  if (!Array.isArray(topics) || !topics.every((t) => typeof t === 'string' && /^0x[0-9a-fA-F]{64}$/.test(t)))
    throw bad('without its topics');
  if (!query.topics.includes(String(topics[0]).toLowerCase())) throw bad(`of event ${String(topics[0])}, not asked`);
  const block = typeof blockNumber === 'string' && /^0x[0-9a-fA-F]+$/.test(blockNumber) ? Number(blockNumber) : NaN;
  if (!(block >= query.from && block <= query.to)) throw bad(`of block ${String(blockNumber)}, outside the range`);
  return { address: address.toLowerCase(), topics: (topics as string[]).map((t) => t.toLowerCase()), block };
}

const CASH_TOPICS: readonly string[] = ['Swap', 'PoolBalanceChanged'].map((name) => VAULT.getEvent(name)!.topicHash);

/**
 * What moved in blocks `from`..`to`, keyed by pool id (the Vault's balance logs: Swap,
 * PoolBalanceChanged, PoolBalanceManaged) or by the lower-case address of a contract that emitted
 * a pool state event (`POOL_STATE_TOPICS`), in one map (ids and addresses differ in length). The
 * value is the last block of a Swap or PoolBalanceChanged of that pool, which sets the Vault's
 * `lastChangeBlock` for it; -1 for an asset manager's move or a state event alone. Every log is
 * checked to be one the query asked for; a refused query is a `LogsRefusedError`.
 */
export async function readMovedPools(
  rpc: JsonRpcOptions,
  vault: string,
  from: number,
  to: number,
): Promise<Map<string, number>> {
  const range = { fromBlock: hex(from), toBlock: hex(to) };
  const [balances, states] = await callBatch(rpc, [
    { method: 'eth_getLogs', params: [{ address: vault, ...range, topics: [VAULT_BALANCE_TOPICS] }] },
    { method: 'eth_getLogs', params: [{ ...range, topics: [POOL_STATE_TOPICS] }] },
  ]);
  const moved = new Map<string, number>();
  const note = (key: string, block: number) => moved.set(key, Math.max(moved.get(key) ?? -1, block));
  for (const raw of logsOf(balances, from, to)) {
    const log = checkedLog(raw, { from, to, address: vault.toLowerCase(), topics: VAULT_BALANCE_TOPICS });
    const poolId = log.topics[1];
    if (poolId === undefined)
      throw new MalformedAnswerError(`eth_getLogs ${from}..${to} answered a Vault log without its pool id`);
    note(poolId, CASH_TOPICS.includes(log.topics[0]!) ? log.block : -1);
  }
  for (const raw of logsOf(states, from, to))
    note(checkedLog(raw, { from, to, topics: POOL_STATE_TOPICS }).address, -1);
  return moved;
}
