import { AT_VAULT, chainCall, chainEvent, getter, type ChainCall, type ChainEvent } from '../../poolTypes/chainReads';
import { hookParamCalls } from './hooks/hookReads';
import type { StoredV3Hook, V3HookFlags } from './stored/storedV3';

/**
 * The V3 Vault reads of a pool at a block, made for every V3 pool whatever its type, all from
 * the Vault (its extension answers these through the Vault's fallback, so every call goes to the
 * Vault's address): tokens, raw balances, last live balances and token info (`getPoolTokenInfo`),
 * scaling factors and rates (`getPoolTokenRates`), fees and flags (`getPoolConfig`), the hook
 * (`getHooksConfig`) and the BPT supply (`totalSupply(pool)`). Also the Vault's events that name a
 * pool (topic 1 is its address) or a buffer (topic 1 is the wrapped token). Pure data: the
 * chain-state reader encodes, batches and decodes.
 */

/** What the V3 Vault answers for a pool beyond the tokens, balances, fee, flags and supply. */
export interface V3VaultChainState {
  /** `10^(18 - decimals)` per token, from which a pool only the chain knows gets its decimals. */
  readonly scalingFactors: readonly bigint[];
  /** The rate the Vault applies per token now (1e18 without a rate provider). */
  readonly tokenRates: readonly bigint[];
  /** Per token: the rate provider (lower case; the zero address for none). */
  readonly rateProviders: readonly string[];
  readonly paysYieldFees: readonly boolean[];
  /** `lastBalancesLiveScaled18`. */
  readonly lastLiveBalances: readonly bigint[];
  readonly aggregateSwapFee: bigint;
  readonly aggregateYieldFee: bigint;
  readonly supportsUnbalancedLiquidity: boolean;
  readonly initialized: boolean;
  /** The hooks contract (lower case, the zero address for none) and its flags. */
  readonly hook: { readonly address: string; readonly flags: V3HookFlags };
  /**
   * A known hook's settings for the pool, read from the hook (`hooks/hookReads.ts`) by parameter
   * name, 18 decimals; absent for a hook that reads nothing. They change with no Vault event: such a
   * pool is read again at each block (`domain/chainTime.ts`).
   */
  readonly hookParams?: Readonly<Record<string, bigint>>;
}

/** The V2-shaped fields the Vault reads fill, plus the V3 Vault's own. */
export interface V3VaultDraft {
  tokens: { address: string; balance: bigint }[];
  swapFee?: bigint;
  paused?: boolean;
  recoveryMode?: boolean;
  totalSupply?: bigint;
  /** Why an answer cannot be the Vault's for this pool (another call's or another pool's): no answer at all. */
  malformed?: string;
  v3?: Partial<{ -readonly [K in keyof V3VaultChainState]: V3VaultChainState[K] }>;
}

const GET_POOL_TOKEN_INFO = getter(
  'getPoolTokenInfo',
  ['address'],
  ['address[]', '(uint256,address,bool)[]', 'uint256[]', 'uint256[]'],
);
const GET_POOL_TOKEN_RATES = getter('getPoolTokenRates', ['address'], ['uint256[]', 'uint256[]']);
/** `PoolConfig`: `LiquidityManagement` (4 flags), static, aggregate swap and yield fees, decimal diffs, pause window end, registered, initialized, paused, recovery. */
const GET_POOL_CONFIG = getter(
  'getPoolConfig',
  ['address'],
  [
    'bool',
    'bool',
    'bool',
    'bool',
    'uint256',
    'uint256',
    'uint256',
    'uint256',
    'uint256',
    'bool',
    'bool',
    'bool',
    'bool',
  ],
);
/** `HooksConfig`: ten flags, then the hooks contract. */
const GET_HOOKS_CONFIG = getter(
  'getHooksConfig',
  ['address'],
  ['bool', 'bool', 'bool', 'bool', 'bool', 'bool', 'bool', 'bool', 'bool', 'bool', 'address'],
);
const TOTAL_SUPPLY = getter('totalSupply', ['address'], ['uint256']);

const v3Of = (d: V3VaultDraft): NonNullable<V3VaultDraft['v3']> => (d.v3 ??= {});

const ONE = 10n ** 18n;
const isScalingFactor = (f: bigint): boolean => f >= 1n && f <= ONE && ONE % f === 0n && /^10*$/.test(String(f));
const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * The Vault reads' calls for the pool at `address`, then its known hook's own (`hook` as stored). The
 * first is `getPoolTokenInfo`: a pool the Vault refuses (reverts: not registered) is left out of
 * the state. A pool's tokens and hook never change once registered, so an answer naming others
 * than `tokens` (lower case, as stored; none for a pool only its registration names yet) or than
 * the stored hook is another pool's or another call's, as is a config saying the pool is not
 * registered after its token info answered, a scaling factor that is not a power of ten up to
 * 1e18, or a fee above 100 %: each sets `malformed`, and the read fails.
 */
export function v3VaultCalls(
  address: string,
  hook?: StoredV3Hook | null,
  tokens: readonly string[] = [],
): ChainCall<V3VaultDraft>[] {
  const bad = (d: V3VaultDraft, what: string) => (d.malformed ??= `the V3 Vault's ${what} for pool ${address}`);
  return [
    chainCall(AT_VAULT, GET_POOL_TOKEN_INFO, [address], (d: V3VaultDraft, [answered, info, raw, lastLive]) => {
      const n = answered.length;
      if (info.length !== n || raw.length !== n || lastLive.length !== n)
        return void bad(
          d,
          `getPoolTokenInfo answered ${n} tokens with ${info.length}, ${raw.length}, ${lastLive.length} entries`,
        );
      if (tokens.length > 0 && !sameSet(answered, tokens))
        return void bad(
          d,
          `getPoolTokenInfo answered tokens ${answered.join(',')}, not the pool's ${tokens.join(',')}`,
        );
      d.tokens = answered.map((a, i) => ({ address: a, balance: raw[i]! }));
      const v3 = v3Of(d);
      v3.rateProviders = info.map(([, provider]) => provider);
      v3.paysYieldFees = info.map(([, , pays]) => pays);
      v3.lastLiveBalances = lastLive;
    }),
    chainCall(AT_VAULT, GET_POOL_TOKEN_RATES, [address], (d: V3VaultDraft, [factors, rates]) => {
      if (factors.length !== rates.length || !factors.every(isScalingFactor) || rates.some((r) => r === 0n))
        return void bad(
          d,
          `getPoolTokenRates answered scaling factors ${factors.join(',')} and rates ${rates.join(',')}`,
        );
      const v3 = v3Of(d);
      v3.scalingFactors = factors;
      v3.tokenRates = rates;
    }),
    chainCall(AT_VAULT, GET_POOL_CONFIG, [address], (d: V3VaultDraft, config) => {
      const [disableUnbalanced, , , , staticFee, aggregateSwap, aggregateYield] = config;
      const [, , , , , , , , , registered, initialized, paused, recovery] = config;
      if (!registered) return void bad(d, 'getPoolConfig says the pool is not registered');
      if ([staticFee, aggregateSwap, aggregateYield].some((fee) => fee > ONE))
        return void bad(d, `getPoolConfig answered fees ${staticFee}, ${aggregateSwap}, ${aggregateYield} above 100 %`);
      d.swapFee = staticFee;
      d.paused = paused;
      d.recoveryMode = recovery;
      const v3 = v3Of(d);
      v3.supportsUnbalancedLiquidity = !disableUnbalanced;
      v3.aggregateSwapFee = aggregateSwap;
      v3.aggregateYieldFee = aggregateYield;
      v3.initialized = initialized;
    }),
    chainCall(AT_VAULT, GET_HOOKS_CONFIG, [address], (d: V3VaultDraft, h) => {
      const [
        adjusted,
        ,
        ,
        dynamicFee,
        beforeSwap,
        afterSwap,
        beforeAdd,
        afterAdd,
        beforeRemove,
        afterRemove,
        contract,
      ] = h;
      v3Of(d).hook = {
        address: contract,
        flags: {
          enableHookAdjustedAmounts: adjusted,
          shouldCallComputeDynamicSwapFee: dynamicFee,
          shouldCallBeforeSwap: beforeSwap,
          shouldCallAfterSwap: afterSwap,
          shouldCallBeforeAddLiquidity: beforeAdd,
          shouldCallAfterAddLiquidity: afterAdd,
          shouldCallBeforeRemoveLiquidity: beforeRemove,
          shouldCallAfterRemoveLiquidity: afterRemove,
        },
      };
    }),
    chainCall(AT_VAULT, TOTAL_SUPPLY, [address], (d: V3VaultDraft, [v]) => (d.totalSupply = v)),
    ...hookParamCalls<V3VaultDraft>(hook, address, (d, name, value) => {
      const v3 = v3Of(d);
      v3.hookParams = { ...v3.hookParams, [name]: value };
    }),
  ];
}

/** The V3 Vault state once every call answered; undefined when one of them did not (the pool is then left as stored). */
export function finishV3VaultState(d: V3VaultDraft): V3VaultChainState | undefined {
  const v = d.v3;
  if (
    v?.scalingFactors === undefined ||
    v.tokenRates === undefined ||
    v.rateProviders === undefined ||
    v.paysYieldFees === undefined ||
    v.lastLiveBalances === undefined ||
    v.aggregateSwapFee === undefined ||
    v.aggregateYieldFee === undefined ||
    v.supportsUnbalancedLiquidity === undefined ||
    v.initialized === undefined ||
    v.hook === undefined ||
    // The token info and the rates are two answers about the same tokens.
    v.scalingFactors.length !== d.tokens.length
  )
    return undefined;
  return {
    scalingFactors: v.scalingFactors,
    tokenRates: v.tokenRates,
    rateProviders: v.rateProviders,
    paysYieldFees: v.paysYieldFees,
    lastLiveBalances: v.lastLiveBalances,
    aggregateSwapFee: v.aggregateSwapFee,
    aggregateYieldFee: v.aggregateYieldFee,
    supportsUnbalancedLiquidity: v.supportsUnbalancedLiquidity,
    initialized: v.initialized,
    hook: v.hook,
    ...(v.hookParams !== undefined ? { hookParams: v.hookParams } : {}),
  };
}

/** A token whose rate comes from a provider: its rate moves without any Vault event. */
export function hasRateProvider(vaultState: V3VaultChainState): boolean {
  return vaultState.rateProviders.some((p) => !/^0x0{40}$/.test(p));
}

/** The V3 Vault's events whose topic 1 is a pool address: each re-reads that pool. */
export const V3_VAULT_POOL_EVENTS: readonly ChainEvent[] = [
  chainEvent('Swap(address,address,address,uint256,uint256,uint256,uint256)'),
  chainEvent('LiquidityAdded(address,address,uint8,uint256,uint256[],uint256[])'),
  chainEvent('LiquidityRemoved(address,address,uint8,uint256,uint256[],uint256[])'),
  chainEvent('PoolPausedStateChanged(address,bool)'),
  chainEvent('PoolRecoveryModeStateChanged(address,bool)'),
  chainEvent('SwapFeePercentageChanged(address,uint256)'),
  chainEvent('AggregateSwapFeePercentageChanged(address,uint256)'),
  chainEvent('AggregateYieldFeePercentageChanged(address,uint256)'),
  chainEvent('PoolInitialized(address)'),
];

/**
 * `PoolRegistered(pool, factory, ...)`: a pool the catalogue may not list yet; topic 1 is the pool,
 * topic 2 its factory.
 */
export const V3_POOL_REGISTERED: ChainEvent = chainEvent(
  'PoolRegistered(address,address,(address,uint8,address,bool)[],uint256,uint32,(address,address,address),(bool,bool,bool,bool,bool,bool,bool,bool,bool,bool,address),(bool,bool,bool,bool))',
);

/** The V3 Vault's events whose topic 1 is an ERC-4626 token: each re-reads its buffer. */
export const V3_VAULT_BUFFER_EVENTS: readonly ChainEvent[] = [
  chainEvent('Wrap(address,uint256,uint256,bytes32)'),
  chainEvent('Unwrap(address,uint256,uint256,bytes32)'),
  chainEvent('LiquidityAddedToBuffer(address,uint256,uint256,bytes32)'),
  chainEvent('LiquidityRemovedFromBuffer(address,uint256,uint256,bytes32)'),
];

/** Vault-wide: buffers paused or unpaused (every buffer re-read). */
export const V3_BUFFERS_PAUSED: ChainEvent = chainEvent('VaultBuffersPausedStateChanged(bool)');
