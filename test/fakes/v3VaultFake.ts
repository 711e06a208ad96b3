import { AbiCoder, id as keccakText, Interface, toBeHex, zeroPadValue } from 'ethers';
import type { FakeLog } from './chainRpcServer';

/**
 * The Balancer V3 Vault's getters and its pools' and ERC-4626 tokens' getters, answered from a
 * model the test sets (the state at the head), for `FakeChainRpc.contractCall`: the V3 Vault's
 * `getPoolTokenInfo`, `getPoolTokenRates`, `getPoolConfig`, `getHooksConfig`, `totalSupply`,
 * `getBufferAsset`, `getBufferBalance`, `areBuffersPaused`; a weighted pool's
 * `getNormalizedWeights`, a stable pool's `getAmplificationParameter`, an LBP's sale getters, any
 * other getter whose answer the test encoded (`FakeV3Pool.answers`); an ERC-4626 token's totals,
 * previews and limits (OpenZeppelin's arithmetic with a virtual offset, or a plain share price);
 * a hooks contract's settings (StableSurge, exit fee).
 * Every other call answers undefined (a revert). Also the Vault's logs, ready to mine.
 */

export interface FakeV3Pool {
  readonly address: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  balancesRaw: bigint[];
  lastLiveBalances: bigint[];
  rates: bigint[];
  readonly rateProviders: readonly string[];
  readonly paysYieldFees: readonly boolean[];
  staticSwapFee: bigint;
  aggregateSwapFee: bigint;
  aggregateYieldFee: bigint;
  paused: boolean;
  recovery: boolean;
  totalSupply: bigint;
  readonly hook?: string;
  /**
   * The hook's `HooksConfig` flags in the Vault's order (enableHookAdjustedAmounts, before/after
   * initialize, computeDynamicSwapFee, before/after swap, add, remove); absent: dynamic fee,
   * after add and after remove.
   */
  readonly hookFlags?: readonly boolean[];
  readonly disableUnbalancedLiquidity?: boolean;
  weights?: readonly bigint[];
  /** Amp with its 1000 precision. */
  amp?: bigint;
  /**
   * Which build the pool is: the launch build (default) answers a stable pool's
   * `computeInvariant` for any balances and has no `getMinTokenBalances`; the npm 1.0.0 build
   * answers `getMinTokenBalances` (a weighted pool's `minTokenBalances`) and reverts
   * `computeInvariant` for balances 10,000 or more times apart.
   */
  build?: 'launch' | '1.0.0';
  minTokenBalances?: readonly bigint[];
  /** The pool type's own getters' encoded answers, by selector (a test encodes them with the type's ABI). */
  answers?: Map<string, string>;
  /** An LBP's own getters (the weighted LBP with `startWeights`, the fixed-price one with `projectTokenRate`). */
  lbp?: FakeLbp;
}

export interface FakeLbp {
  readonly projectTokenIndex: number;
  readonly reserveTokenIndex: number;
  readonly blocked: boolean;
  readonly startTime: bigint;
  readonly endTime: bigint;
  readonly startWeights?: readonly bigint[];
  readonly endWeights?: readonly bigint[];
  readonly projectTokenRate?: bigint;
  readonly migrationRouter?: string;
}

/** A hooks contract's own getters: StableSurge's per-pool settings, the exit fee hook's fee. */
export interface FakeHook {
  readonly surge?: Map<string, { max: bigint; threshold: bigint }>;
  exitFee?: bigint;
}

export interface FakeErc4626 {
  readonly address: string;
  readonly asset: string;
  readonly decimals: number;
  readonly assetDecimals: number;
  totalAssets: bigint;
  totalSupply: bigint;
  /** True: OpenZeppelin's conversions by totals with offset `decimals - assetDecimals`; false: by `rate` alone. */
  readonly openZeppelin: boolean;
  /** Assets per 1e18 shares, for a token that is not OpenZeppelin's. */
  rate?: bigint;
  vaultShares: bigint;
  maxDeposit?: bigint;
}

export interface FakeBuffer {
  readonly token: FakeErc4626;
  underlyingBalance: bigint;
  wrappedBalance: bigint;
}

const ZERO = `0x${'0'.repeat(40)}`;
const ONE = 10n ** 18n;

const VAULT = new Interface([
  'function getPoolTokenInfo(address pool) view returns (address[] tokens, tuple(uint8 tokenType, address rateProvider, bool paysYieldFees)[] tokenInfo, uint256[] balancesRaw, uint256[] lastBalancesLiveScaled18)',
  'function getPoolTokenRates(address pool) view returns (uint256[] decimalScalingFactors, uint256[] tokenRates)',
  'function getPoolConfig(address pool) view returns (tuple(tuple(bool disableUnbalancedLiquidity, bool enableAddLiquidityCustom, bool enableRemoveLiquidityCustom, bool enableDonation) liquidityManagement, uint256 staticSwapFeePercentage, uint256 aggregateSwapFeePercentage, uint256 aggregateYieldFeePercentage, uint40 tokenDecimalDiffs, uint32 pauseWindowEndTime, bool isPoolRegistered, bool isPoolInitialized, bool isPoolPaused, bool isPoolInRecoveryMode))',
  'function getHooksConfig(address pool) view returns (tuple(bool enableHookAdjustedAmounts, bool shouldCallBeforeInitialize, bool shouldCallAfterInitialize, bool shouldCallComputeDynamicSwapFee, bool shouldCallBeforeSwap, bool shouldCallAfterSwap, bool shouldCallBeforeAddLiquidity, bool shouldCallAfterAddLiquidity, bool shouldCallBeforeRemoveLiquidity, bool shouldCallAfterRemoveLiquidity, address hooksContract))',
  'function totalSupply(address token) view returns (uint256)',
  'function getBufferAsset(address wrappedToken) view returns (address)',
  'function getBufferBalance(address wrappedToken) view returns (uint256, uint256)',
  'function areBuffersPaused() view returns (bool)',
  'event Swap(address indexed pool, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut, uint256 swapFeePercentage, uint256 swapFeeAmount)',
  'event LiquidityAdded(address indexed pool, address indexed liquidityProvider, uint8 indexed kind, uint256 totalSupply, uint256[] amountsAddedRaw, uint256[] swapFeeAmountsRaw)',
  'event PoolPausedStateChanged(address indexed pool, bool paused)',
  'event Wrap(address indexed wrappedToken, uint256 depositedUnderlying, uint256 mintedShares, bytes32 bufferBalances)',
  'event Unwrap(address indexed wrappedToken, uint256 burnedShares, uint256 withdrawnUnderlying, bytes32 bufferBalances)',
  'event LiquidityAddedToBuffer(address indexed wrappedToken, uint256 amountUnderlying, uint256 amountWrapped, bytes32 bufferBalances)',
  'event PoolRegistered(address indexed pool, address indexed factory, tuple(address token, uint8 tokenType, address rateProvider, bool paysYieldFees)[] tokenConfig, uint256 swapFeePercentage, uint32 pauseWindowEndTime, tuple(address pauseManager, address swapFeeManager, address poolCreator) roleAccounts, tuple(bool enableHookAdjustedAmounts, bool shouldCallBeforeInitialize, bool shouldCallAfterInitialize, bool shouldCallComputeDynamicSwapFee, bool shouldCallBeforeSwap, bool shouldCallAfterSwap, bool shouldCallBeforeAddLiquidity, bool shouldCallAfterAddLiquidity, bool shouldCallBeforeRemoveLiquidity, bool shouldCallAfterRemoveLiquidity, address hooksContract) hooksConfig, tuple(bool disableUnbalancedLiquidity, bool enableAddLiquidityCustom, bool enableRemoveLiquidityCustom, bool enableDonation) liquidityManagement)',
]);
const POOL = new Interface([
  'function getNormalizedWeights() view returns (uint256[])',
  'function getTokenIndices() view returns (uint256, uint256)',
  'function isProjectTokenSwapInBlocked() view returns (bool)',
  'function getMigrationRouter() view returns (address)',
  'function getGradualWeightUpdateParams() view returns (uint256, uint256, uint256[], uint256[])',
  'function getProjectTokenRate() view returns (uint256)',
  'function getFixedPriceLBPoolImmutableData() view returns (tuple(address[] tokens, uint256[] decimalScalingFactors, uint256 startTime, uint256 endTime, uint256 projectTokenIndex, uint256 reserveTokenIndex, uint256 projectTokenRate))',
  'function getAmplificationParameter() view returns (uint256 value, bool isUpdating, uint256 precision)',
  'function getMinTokenBalances() view returns (uint256[])',
  'function computeInvariant(uint256[] balancesLiveScaled18, uint8 rounding) view returns (uint256)',
]);
const HOOK = new Interface([
  'function getMaxSurgeFeePercentage(address pool) view returns (uint256)',
  'function getSurgeThresholdPercentage(address pool) view returns (uint256)',
  'function exitFeePercentage() view returns (uint256)',
]);
const ERC4626 = new Interface([
  'function decimals() view returns (uint8)',
  'function totalAssets() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function previewDeposit(uint256 assets) view returns (uint256)',
  'function previewRedeem(uint256 shares) view returns (uint256)',
  'function maxDeposit(address) view returns (uint256)',
  'function maxMint(address) view returns (uint256)',
  'function maxRedeem(address) view returns (uint256)',
  'function maxWithdraw(address) view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
]);

const topicOf = (name: string): string => VAULT.getEvent(name)!.topicHash;
const addressTopic = (a: string): string => zeroPadValue(a, 32).toLowerCase();

export class FakeV3Vault {
  readonly pools = new Map<string, FakeV3Pool>();
  readonly buffers = new Map<string, FakeBuffer>();
  /** ERC-4626 tokens by address (with or without a buffer), and plain ERC-20s' decimals. */
  readonly erc4626 = new Map<string, FakeErc4626>();
  readonly erc20Decimals = new Map<string, number>();
  /** Hooks contracts by address. */
  readonly hooks = new Map<string, FakeHook>();
  buffersPaused = false;

  constructor(readonly address: string) {}

  addPool(p: FakeV3Pool): void {
    this.pools.set(p.address, p);
  }

  addBuffer(b: FakeBuffer): void {
    this.buffers.set(b.token.address, b);
    this.erc4626.set(b.token.address, b.token);
    this.erc20Decimals.set(b.token.asset, b.token.assetDecimals);
  }

  /** The Vault's `Swap` log for `pool` (topic 1 the pool). */
  swapLog(pool: string): FakeLog {
    return {
      address: this.address,
      topic: topicOf('Swap'),
      topics: [addressTopic(pool), addressTopic(ZERO), addressTopic(ZERO)],
    };
  }

  /** The Vault's `LiquidityAdded` log for `pool` with these raw amounts (zero amounts: an add of 0 BPT). */
  liquidityAddedLog(pool: string, amountsRaw: readonly bigint[]): FakeLog {
    const p = this.pools.get(pool)!;
    const data = AbiCoder.defaultAbiCoder().encode(
      ['uint256', 'uint256[]', 'uint256[]'],
      [p.totalSupply, amountsRaw, amountsRaw.map(() => 0n)],
    );
    return {
      address: this.address,
      topic: topicOf('LiquidityAdded'),
      topics: [addressTopic(pool), addressTopic(ZERO), zeroPadValue('0x00', 32)],
      data,
    };
  }

  pausedLog(pool: string): FakeLog {
    return { address: this.address, topic: topicOf('PoolPausedStateChanged'), topics: [addressTopic(pool)] };
  }

  /** The Vault's `Wrap` log for the buffer of `token`, carrying its balances now, as the Vault's does. */
  wrapLog(token: string): FakeLog {
    return {
      address: this.address,
      topic: topicOf('Wrap'),
      topics: [addressTopic(token)],
      data: this.bufferData(token),
    };
  }

  /** `Unwrap`, as `wrapLog`. */
  unwrapLog(token: string): FakeLog {
    return {
      address: this.address,
      topic: topicOf('Unwrap'),
      topics: [addressTopic(token)],
      data: this.bufferData(token),
    };
  }

  bufferInitLog(token: string): FakeLog {
    return {
      address: this.address,
      topic: topicOf('LiquidityAddedToBuffer'),
      topics: [addressTopic(token)],
      data: this.bufferData(token),
    };
  }

  /** Two amounts, then the buffer's balances packed (underlying low, wrapped high). */
  private bufferData(token: string): string {
    const b = this.buffers.get(token);
    const packed = b ? (b.wrappedBalance << 128n) | b.underlyingBalance : 0n;
    return AbiCoder.defaultAbiCoder().encode(
      ['uint256', 'uint256', 'bytes32'],
      [1n, 1n, zeroPadValue(toBeHex(packed), 32)],
    );
  }

  registeredLog(pool: string, factory: string): FakeLog {
    return {
      address: this.address,
      topic: topicOf('PoolRegistered'),
      topics: [addressTopic(pool), addressTopic(factory)],
    };
  }

  /** For `FakeChainRpc.contractCall`. */
  readonly call = (c: { to: string; data: string }): string | undefined => {
    const to = c.to.toLowerCase();
    if (to === this.address) return this.vaultCall(c.data);
    const pool = this.pools.get(to);
    if (pool) return this.poolCall(pool, c.data);
    const token = this.erc4626.get(to);
    if (token) return this.tokenCall(token, c.data);
    const hook = this.hooks.get(to);
    if (hook) return this.hookCall(hook, c.data);
    const decimals = this.erc20Decimals.get(to);
    if (decimals !== undefined && c.data.startsWith(ERC4626.getFunction('decimals')!.selector))
      return ERC4626.encodeFunctionResult('decimals', [decimals]);
    return undefined;
  };

  private vaultCall(data: string): string | undefined {
    const parsed = VAULT.parseTransaction({ data });
    if (!parsed) return undefined;
    const fn = parsed.name;
    if (fn === 'areBuffersPaused') return VAULT.encodeFunctionResult(fn, [this.buffersPaused]);
    const subject = String(parsed.args[0]).toLowerCase();
    if (fn === 'getBufferAsset')
      return VAULT.encodeFunctionResult(fn, [this.buffers.get(subject)?.token.asset ?? ZERO]);
    if (fn === 'getBufferBalance') {
      const b = this.buffers.get(subject);
      return VAULT.encodeFunctionResult(fn, [b?.underlyingBalance ?? 0n, b?.wrappedBalance ?? 0n]);
    }
    const p = this.pools.get(subject);
    if (!p) return undefined;
    switch (fn) {
      case 'getPoolTokenInfo':
        return VAULT.encodeFunctionResult(fn, [
          p.tokens,
          p.tokens.map((_, i) => [p.rateProviders[i] === ZERO ? 0 : 1, p.rateProviders[i]!, p.paysYieldFees[i]!]),
          p.balancesRaw,
          p.lastLiveBalances,
        ]);
      case 'getPoolTokenRates':
        return VAULT.encodeFunctionResult(fn, [p.decimals.map((d) => 10n ** BigInt(18 - d)), p.rates]);
      case 'getPoolConfig':
        return VAULT.encodeFunctionResult(fn, [
          [
            [p.disableUnbalancedLiquidity === true, false, false, false],
            p.staticSwapFee,
            p.aggregateSwapFee,
            p.aggregateYieldFee,
            0,
            0,
            true,
            true,
            p.paused,
            p.recovery,
          ],
        ]);
      case 'getHooksConfig': {
        const hooked = p.hook !== undefined;
        const flags = p.hookFlags ?? [false, false, false, hooked, false, false, false, hooked, false, hooked];
        return VAULT.encodeFunctionResult(fn, [[...flags, p.hook ?? ZERO]]);
      }
      case 'totalSupply':
        return VAULT.encodeFunctionResult(fn, [p.totalSupply]);
      default:
        return undefined;
    }
  }

  private poolCall(p: FakeV3Pool, data: string): string | undefined {
    const answer = p.answers?.get(data.slice(0, 10));
    if (answer !== undefined) return answer;
    const parsed = POOL.parseTransaction({ data });
    if (parsed?.name === 'getNormalizedWeights' && p.weights)
      return POOL.encodeFunctionResult(parsed.name, [p.weights]);
    if (parsed?.name === 'getAmplificationParameter' && p.amp !== undefined)
      return POOL.encodeFunctionResult(parsed.name, [p.amp, false, 1000n]);
    const limited = p.build === '1.0.0';
    if (parsed?.name === 'getMinTokenBalances' && limited && p.weights)
      return POOL.encodeFunctionResult(parsed.name, [p.minTokenBalances ?? p.weights.map(() => 10n ** 6n)]);
    if (parsed?.name === 'computeInvariant' && p.amp !== undefined) {
      const balances = parsed.args[0] as bigint[];
      const min = balances.reduce((a, b) => (b < a ? b : a));
      const max = balances.reduce((a, b) => (b > a ? b : a));
      if (limited && max / min >= 10_000n) return undefined;
      // Any invariant: the reader only asks whether the pool answers.
      return POOL.encodeFunctionResult(parsed.name, [balances.reduce((a, b) => a + b, 0n)]);
    }
    const lbp = p.lbp;
    if (!parsed || !lbp) return undefined;
    switch (parsed.name) {
      case 'getTokenIndices':
        return POOL.encodeFunctionResult(parsed.name, [lbp.projectTokenIndex, lbp.reserveTokenIndex]);
      case 'isProjectTokenSwapInBlocked':
        return POOL.encodeFunctionResult(parsed.name, [lbp.blocked]);
      case 'getMigrationRouter':
        return POOL.encodeFunctionResult(parsed.name, [lbp.migrationRouter ?? ZERO]);
      case 'getGradualWeightUpdateParams':
        return lbp.startWeights && lbp.endWeights
          ? POOL.encodeFunctionResult(parsed.name, [lbp.startTime, lbp.endTime, lbp.startWeights, lbp.endWeights])
          : undefined;
      case 'getProjectTokenRate':
        return lbp.projectTokenRate === undefined
          ? undefined
          : POOL.encodeFunctionResult(parsed.name, [lbp.projectTokenRate]);
      case 'getFixedPriceLBPoolImmutableData':
        return lbp.projectTokenRate === undefined
          ? undefined
          : POOL.encodeFunctionResult(parsed.name, [
              [
                p.tokens,
                p.decimals.map((d) => 10n ** BigInt(18 - d)),
                lbp.startTime,
                lbp.endTime,
                lbp.projectTokenIndex,
                lbp.reserveTokenIndex,
                lbp.projectTokenRate,
              ],
            ]);
      default:
        return undefined;
    }
  }

  /** A pool the hook has no settings for reverts, as StableSurge does for a pool not registered with it. */
  private hookCall(h: FakeHook, data: string): string | undefined {
    const parsed = HOOK.parseTransaction({ data });
    if (!parsed) return undefined;
    if (parsed.name === 'exitFeePercentage')
      return h.exitFee === undefined ? undefined : HOOK.encodeFunctionResult(parsed.name, [h.exitFee]);
    const settings = h.surge?.get(String(parsed.args[0]).toLowerCase());
    if (!settings) return undefined;
    return HOOK.encodeFunctionResult(parsed.name, [
      parsed.name === 'getMaxSurgeFeePercentage' ? settings.max : settings.threshold,
    ]);
  }

  private tokenCall(t: FakeErc4626, data: string): string | undefined {
    const parsed = ERC4626.parseTransaction({ data });
    if (!parsed) return undefined;
    const shares = t.totalSupply + 10n ** BigInt(t.decimals - t.assetDecimals);
    const assets = t.totalAssets + 1n;
    const toAssets = (s: bigint): bigint => (t.openZeppelin ? (s * assets) / shares : (s * t.rate!) / ONE);
    const toShares = (a: bigint): bigint => (t.openZeppelin ? (a * shares) / assets : (a * ONE) / t.rate!);
    const max = 2n ** 256n - 1n;
    const value = ((): bigint | number | undefined => {
      switch (parsed.name) {
        case 'decimals':
          return t.decimals;
        case 'totalAssets':
          return t.totalAssets;
        case 'totalSupply':
          return t.totalSupply;
        case 'convertToAssets':
        case 'previewRedeem':
          return toAssets(parsed.args[0] as bigint);
        case 'previewDeposit':
          return toShares(parsed.args[0] as bigint);
        case 'maxDeposit':
          return t.maxDeposit ?? max;
        case 'maxMint':
          return max;
        case 'maxRedeem':
        case 'balanceOf':
          return t.vaultShares;
        case 'maxWithdraw':
          return toAssets(t.vaultShares);
        default:
          return undefined;
      }
    })();
    return value === undefined ? undefined : ERC4626.encodeFunctionResult(parsed.name, [value]);
  }
}

/** The topic of an event by its canonical signature. */
export const topic = (signature: string): string => keccakText(signature);
