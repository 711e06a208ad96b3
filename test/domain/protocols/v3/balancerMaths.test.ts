import {
  AddKind,
  Gyro2CLP,
  RemoveKind,
  Rounding,
  SwapKind as TheirSwapKind,
  Vault as TheirVault,
  type BufferState as TheirBufferState,
  type HookState,
  type PoolState as TheirPoolState,
} from '@balancer-labs/balancer-maths';
import { gyroEclpV3Math } from '../../../../src/domain/poolTypes/gyro/v3/eclpV3Pool';
import type { Gyro2ClpV3State } from '../../../../src/domain/poolTypes/gyro/v3/twoClpV3State';
import { gyro2ClpV3Math } from '../../../../src/domain/poolTypes/gyro/v3/twoClpV3Pool';
import { quantAmmMath } from '../../../../src/domain/poolTypes/quantAmm/v3/quantAmmV3Pool';
import type { QuantAmmState } from '../../../../src/domain/poolTypes/quantAmm/v3/quantAmmV3State';
import { floorSqrt } from '../../../../src/domain/poolTypes/reClamm/v3/reClammV3Math';
import type { ReClammV3State } from '../../../../src/domain/poolTypes/reClamm/v3/reClammV3State';
import { reClammV3Math } from '../../../../src/domain/poolTypes/reClamm/v3/reClammV3Pool';
import { stableV3Math, steadyAmp } from '../../../../src/domain/poolTypes/stable/v3/stableV3Pool';
import type { StableV3State } from '../../../../src/domain/poolTypes/stable/v3/stableV3State';
import { fixedPriceLbpMath } from '../../../../src/domain/poolTypes/weighted/v3/fixedPriceLbpV3Pool';
import { lbpHook } from '../../../../src/domain/poolTypes/weighted/v3/lbpV3Sale';
import type { FixedPriceLbpState, LbpState } from '../../../../src/domain/poolTypes/weighted/v3/lbpV3State';
import { lbpMath } from '../../../../src/domain/poolTypes/weighted/v3/lbpV3Pool';
import { weightedV3Math } from '../../../../src/domain/poolTypes/weighted/v3/weightedV3Pool';
import type { WeightedV3State } from '../../../../src/domain/poolTypes/weighted/v3/weightedV3State';
import { erc4626ByRate } from '../../../../src/domain/protocols/v3/buffer/erc4626';
import { bufferWrapOrUnwrap, type BufferPricing } from '../../../../src/domain/protocols/v3/buffer/wrapOrUnwrap';
import { V3PoolModel } from '../../../../src/domain/protocols/v3/engine/v3PoolModel';
import { stableSurgeHook } from '../../../../src/domain/protocols/v3/hooks/stableSurge/stableSurgeHook';
import type { V3SwapKind } from '../../../../src/domain/protocols/v3/poolMath';
import { vaultAddLiquidity } from '../../../../src/domain/protocols/v3/vault/addLiquidity';
import { vaultRemoveLiquidity } from '../../../../src/domain/protocols/v3/vault/removeLiquidity';
import { vaultSwap } from '../../../../src/domain/protocols/v3/vault/swap';
import type { V3Pool } from '../../../../src/domain/protocols/v3/vault/v3Pool';
import { isRevert, type Revert } from '../../../../src/domain/swap/math/revert';
import { seededRandom } from '../../../helpers/seededRandom';
import { eclpVectorState } from '../../../helpers/v3EclpVector';
import { loadV3Vector, vectorVaultState, type V3Vector, type V3VectorPool } from '../../../helpers/v3Vectors';

/**
 * A second oracle for the V3 maths: Balancer's own TypeScript implementation
 * (`@balancer-labs/balancer-maths`, a dev dependency, never imported from src/). Random states are
 * derived from the real vectors (balances scaled 1e-6x to 1e6x and tilted, rates, fees, amp,
 * surge settings and timestamps inside and outside each pool's windows), then random swaps (exact
 * in and out), adds and removes. Our Vault operations over our pool maths, and the routing engine's
 * model of the pool for swaps, must give its answers to the wei, or both must refuse.
 *
 * Where the two part because balancer-maths leaves out a check the contracts make, or follows
 * another version of a contract, the case is counted under a named divergence (`DIVERGENCES`: each
 * names the contract source that decides, and the case must be recognisably that one); every other
 * difference fails the test. The run prints its seed and counts; replay it with V3_MATHS_SEED=<seed>.
 */

const SEED = Number(process.env['V3_MATHS_SEED'] ?? 20261201);
const ONE = 10n ** 18n;
const vault = new TheirVault({ customPoolClasses: { GYRO: Gyro2CLP } });

type Random = () => number;

/** A pool state as balancer-maths takes it: its base state plus the type's own fields. */
type TheirState = TheirPoolState & Record<string, unknown>;

const uniform = (r: Random, lo: number, hi: number): number => lo + (hi - lo) * r();
const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** x times 10^e, e real (nine significant digits of the factor). */
function scaleBy(x: bigint, e: number): bigint {
  const whole = Math.floor(e);
  const mantissa = BigInt(Math.round(10 ** (e - whole) * 1e9));
  return whole >= 0 ? (x * mantissa * 10n ** BigInt(whole)) / 10n ** 9n : (x * mantissa) / 10n ** BigInt(9 - whole);
}

/** A fraction of 1e18 drawn uniformly in [lo, hi). */
const wad = (r: Random, lo: number, hi: number): bigint => BigInt(Math.floor(uniform(r, lo, hi) * 1e12)) * 10n ** 6n;

/** One drawn state, as both implementations take it. */
interface Drawn {
  readonly ours: V3Pool;
  readonly theirs: TheirState;
  readonly hook?: HookState;
  /** Raw balances, to size amounts from. */
  readonly rawBalances: readonly bigint[];
  readonly decimals: readonly number[];
  readonly poolType: string;
}

/** The Vault's state, perturbed: balances scaled by one factor and tilted per token, rates, fees. */
function drawVaultState(r: Random, p: V3VectorPool, scale: number) {
  const vaultState = vectorVaultState(p);
  const tokenRates = vaultState.tokenRates.map((rate) => (r() < 0.5 ? rate : scaleBy(rate, uniform(r, -0.3, 0.3))));
  const tilt = r() < 0.5;
  const balancesLiveScaled18 = vaultState.balancesLiveScaled18.map((b) =>
    scaleBy(b, scale + (tilt ? uniform(r, -1, 1) : 0)),
  );
  const staticSwapFee = r() < 0.3 ? vaultState.staticSwapFee : r() < 0.15 ? 0n : wad(r, 0, 0.1);
  const aggregateSwapFee = r() < 0.3 ? vaultState.aggregateSwapFee : r() < 0.3 ? 0n : wad(r, 0, 0.5);
  return {
    ...vaultState,
    tokenRates,
    balancesLiveScaled18,
    staticSwapFee,
    aggregateSwapFee,
    totalSupply: scaleBy(vaultState.totalSupply, scale),
  };
}

type DrawnVaultState = ReturnType<typeof drawVaultState>;

/** balancer-maths' half of the Vault state. */
const theirVaultState = (f: DrawnVaultState, poolType: string) => ({
  poolAddress: f.address,
  poolType,
  tokens: [...f.tokens],
  scalingFactors: [...f.scalingFactors],
  tokenRates: [...f.tokenRates],
  balancesLiveScaled18: [...f.balancesLiveScaled18],
  swapFee: f.staticSwapFee,
  aggregateSwapFee: f.aggregateSwapFee,
  totalSupply: f.totalSupply,
  supportsUnbalancedLiquidity: f.supportsUnbalancedLiquidity,
});

function drawn(f: DrawnVaultState, ours: V3Pool, theirs: TheirState, poolType: string, hook?: HookState): Drawn {
  const decimals = f.scalingFactors.map((s) => 18 - (s.toString().length - 1));
  const rawBalances = f.balancesLiveScaled18.map((b, i) => (b * ONE) / (f.scalingFactors[i]! * f.tokenRates[i]!));
  return { ours, theirs, rawBalances, decimals, poolType, ...(hook === undefined ? {} : { hook }) };
}

/** A timestamp around [start, end]: before, inside (ends included) or after. */
function timeAround(r: Random, start: bigint, end: bigint): bigint {
  const span = end > start ? end - start : 86_400n;
  const u = r();
  if (u < 0.1) return start;
  if (u < 0.2) return end;
  if (u < 0.35) return start - BigInt(Math.floor(uniform(r, 1, Number(span))));
  if (u < 0.5) return end + BigInt(Math.floor(uniform(r, 1, Number(span))));
  return start + BigInt(Math.floor(uniform(r, 0, Number(span))));
}

type Deriver = (r: Random, v: V3Vector) => Drawn;

const weighted: Deriver = (r, v) => {
  const f = drawVaultState(r, v.pool, uniform(r, -6, 6));
  const state: WeightedV3State = { ...f, weights: v.pool.bigs('weights') };
  return drawn(
    f,
    { state, math: weightedV3Math(state) },
    { ...theirVaultState(f, 'WEIGHTED'), weights: [...state.weights] },
    'WEIGHTED',
  );
};

/** An amp (with the contract's precision of 1000) at the vector's or anywhere in [1, 5000]. */
const drawAmp = (r: Random, amp: bigint): bigint =>
  r() < 0.3 ? amp : BigInt(Math.round(10 ** uniform(r, 0, 3.7) * 1000));

const stable: Deriver = (r, v) => {
  const f = drawVaultState(r, v.pool, uniform(r, -6, 6));
  const amp = drawAmp(r, v.pool.big('amp'));
  const state: StableV3State = { ...f, amp: steadyAmp(amp) };
  return drawn(f, { state, math: stableV3Math(state, 0n) }, { ...theirVaultState(f, 'STABLE'), amp }, 'STABLE');
};

/** The surge settings: the vector's, or any threshold and max fee (sometimes below the static fee). */
const stableSurge: Deriver = (r, v) => {
  const f = drawVaultState(r, v.pool, uniform(r, -6, 6));
  const amp = drawAmp(r, v.pool.big('amp'));
  const data = v.pool.hook!.dynamicData;
  const fromVector = r() < 0.3;
  const surgeThresholdPercentage = fromVector ? BigInt(data['surgeThresholdPercentage']!) : wad(r, 0.001, 0.5);
  const maxSurgeFeePercentage = fromVector ? BigInt(data['maxSurgeFeePercentage']!) : wad(r, 0, 0.95);
  const state: StableV3State = { ...f, amp: steadyAmp(amp) };
  const math = stableV3Math(state, 0n);
  const hook = stableSurgeHook({ surgeThresholdPercentage, maxSurgeFeePercentage }, math);
  return drawn(f, { state, math, hook }, { ...theirVaultState(f, 'STABLE'), amp, hookType: 'StableSurge' }, 'STABLE', {
    hookType: 'StableSurge',
    amp,
    surgeThresholdPercentage,
    maxSurgeFeePercentage,
  });
};

const ECLP_FIELDS = ['paramsAlpha', 'paramsBeta', 'paramsC', 'paramsS', 'paramsLambda'] as const;
const ECLP_DERIVED = ['tauAlphaX', 'tauAlphaY', 'tauBetaX', 'tauBetaY', 'u', 'v', 'w', 'z', 'dSq'] as const;

const eclp: Deriver = (r, v) => {
  const p = v.pool;
  const f = drawVaultState(r, p, uniform(r, -6, 6));
  const state = eclpVectorState(p, f);
  const params = Object.fromEntries([...ECLP_FIELDS, ...ECLP_DERIVED].map((k) => [k, p.big(k)]));
  return drawn(f, { state, math: gyroEclpV3Math(state) }, { ...theirVaultState(f, 'GYROE'), ...params }, 'GYROE');
};

/**
 * No vector holds a 2-CLP: its price range is the E-CLP vectors' [alpha, beta], or one drawn
 * around the pool's price from the E-CLP's balances.
 */
const twoClp: Deriver = (r, v) => {
  const p = v.pool;
  const f = drawVaultState(r, p, uniform(r, -6, 6));
  let [alpha, beta] = [p.big('paramsAlpha'), p.big('paramsBeta')];
  if (r() < 0.6) {
    const centre = uniform(r, -3, 3);
    alpha = scaleBy(ONE, centre - uniform(r, 0.0005, 1.5));
    beta = scaleBy(ONE, centre + uniform(r, 0.0005, 1.5));
  }
  const sqrtAlpha = floorSqrt(alpha * ONE);
  const sqrtBeta = floorSqrt(beta * ONE);
  const state: Gyro2ClpV3State = { ...f, sqrtAlpha, sqrtBeta };
  return drawn(
    f,
    { state, math: gyro2ClpV3Math(state) },
    { ...theirVaultState(f, 'GYRO'), sqrtAlpha, sqrtBeta },
    'GYRO',
  );
};

/**
 * ReClamm: virtual balances scaled with the real ones; the block time from the last update to 60
 * days on; the price ratio sometimes mid-update (a window around the block, a new target ratio);
 * the margin anywhere. Tilted balances take the pool out of its target range.
 */
const reClamm: Deriver = (r, v) => {
  const p = v.pool;
  const scale = uniform(r, -6, 6);
  const f = { ...drawVaultState(r, p, scale), supportsUnbalancedLiquidity: false };
  const [va, vb] = p.bigs('lastVirtualBalances').map((x) => scaleBy(x, scale)) as [bigint, bigint];
  const lastTimestamp = p.big('lastTimestamp');
  const currentTimestamp =
    r() < 0.2 ? lastTimestamp : lastTimestamp + BigInt(Math.floor(10 ** uniform(r, 0, Math.log10(60 * 86_400))));
  let start = p.big('startFourthRootPriceRatio');
  let end = p.big('endFourthRootPriceRatio');
  let startTime = p.big('priceRatioUpdateStartTime');
  let endTime = p.big('priceRatioUpdateEndTime');
  if (r() < 0.35) {
    // A new update starts from the ratio the pool has now (the vector's last target).
    const now = end !== 0n ? end : start;
    start = scaleBy(now, uniform(r, -0.002, 0.002));
    end = scaleBy(now, uniform(r, -0.003, 0.003));
    startTime = currentTimestamp - BigInt(Math.floor(uniform(r, -86_400, 86_400)));
    endTime = startTime + BigInt(Math.floor(uniform(r, 1, 3 * 86_400)));
  }
  const centerednessMargin = r() < 0.5 ? p.big('centerednessMargin') : wad(r, 0, 0.9);
  const dailyPriceShiftBase = p.big('dailyPriceShiftBase');
  const version = p.poolType === 'RECLAMM' ? 1 : 2;
  const state: ReClammV3State = {
    ...f,
    version,
    lastVirtualBalances: [va, vb],
    lastTimestamp,
    dailyPriceShiftBase,
    centerednessMargin,
    priceRatio: {
      startFourthRootPriceRatio: start,
      endFourthRootPriceRatio: end,
      priceRatioUpdateStartTime: startTime,
      priceRatioUpdateEndTime: endTime,
    },
  };
  const theirs = {
    ...theirVaultState(f, p.poolType),
    lastVirtualBalances: [va, vb],
    dailyPriceShiftBase,
    lastTimestamp,
    currentTimestamp,
    centerednessMargin,
    startFourthRootPriceRatio: start,
    endFourthRootPriceRatio: end,
    priceRatioUpdateStartTime: startTime,
    priceRatioUpdateEndTime: endTime,
  };
  return drawn(f, { state, math: reClammV3Math(state, currentTimestamp) }, theirs, p.poolType);
};

/** QuantAMM: the block time before, inside and after the weights' interpolation window. */
const quantAmm: Deriver = (r, v) => {
  const p = v.pool;
  const f = drawVaultState(r, p, uniform(r, -6, 6));
  const lastUpdateTime = p.big('lastUpdateTime');
  const lastInteropTime = p.big('lastInteropTime');
  // A block is never before the pool's last weight update: from it to past the interpolation's end.
  const span = Number(lastInteropTime - lastUpdateTime);
  const currentTimestamp =
    r() < 0.2
      ? p.big('currentTimestamp')
      : r() < 0.1
        ? lastUpdateTime
        : lastUpdateTime + BigInt(Math.floor(uniform(r, 0, 2 * span)));
  const maxTradeSizeRatio = r() < 0.5 ? p.big('maxTradeSizeRatio') : wad(r, 0.01, 0.5);
  const state: QuantAmmState = {
    ...f,
    firstFourWeightsAndMultipliers: p.bigs('firstFourWeightsAndMultipliers'),
    secondFourWeightsAndMultipliers: p.bigs('secondFourWeightsAndMultipliers'),
    lastUpdateTime,
    lastInteropTime,
    maxTradeSizeRatio,
  };
  const theirs = {
    ...theirVaultState(f, 'QUANT_AMM_WEIGHTED'),
    firstFourWeightsAndMultipliers: [...state.firstFourWeightsAndMultipliers],
    secondFourWeightsAndMultipliers: [...state.secondFourWeightsAndMultipliers],
    lastUpdateTime,
    lastInteropTime,
    currentTimestamp,
    maxTradeSizeRatio,
  };
  return drawn(f, { state, math: quantAmmMath(state, currentTimestamp) }, theirs, 'QUANT_AMM_WEIGHTED');
};

/**
 * `LBPCommon`: swaps are enabled from the start time to the end time, both included — what the
 * pool's `isSwapEnabled` getter tells balancer-maths at a block.
 */
const saleOpen = (start: bigint, end: bigint, now: bigint): boolean => now >= start && now <= end;

/** A weighted LBP: the block time around the sale, weights the vector's or any, buy-only or not. */
const lbp: Deriver = (r, v) => {
  const p = v.pool;
  const f = drawVaultState(r, p, uniform(r, -6, 6));
  const projectTokenIndex = p.num('projectTokenIndex');
  const [startTime, endTime] = [p.big('startTime'), p.big('endTime')];
  const currentTimestamp = timeAround(r, startTime, endTime);
  const weightsOf = (w: bigint): bigint[] => (projectTokenIndex === 0 ? [w, ONE - w] : [ONE - w, w]);
  const keep = r() < 0.4;
  const startWeights = keep ? p.bigs('startWeights') : weightsOf(wad(r, 0.01, 0.99));
  const endWeights = keep ? p.bigs('endWeights') : weightsOf(wad(r, 0.01, 0.99));
  const isProjectTokenSwapInBlocked = r() < 0.5;
  const state: LbpState = {
    ...f,
    projectTokenIndex,
    reserveTokenIndex: 1 - projectTokenIndex,
    startTime,
    endTime,
    isProjectTokenSwapInBlocked,
    startWeights,
    endWeights,
  };
  const theirs = {
    ...theirVaultState(f, 'LIQUIDITY_BOOTSTRAPPING'),
    projectTokenIndex,
    isProjectTokenSwapInBlocked,
    startWeights: [...startWeights],
    endWeights: [...endWeights],
    startTime,
    endTime,
    currentTimestamp,
    isSwapEnabled: saleOpen(startTime, endTime, currentTimestamp),
    weights: [...startWeights],
  };
  const ours = { state, math: lbpMath(state, currentTimestamp), hook: lbpHook(state, currentTimestamp) };
  return drawn(f, ours, theirs, 'LIQUIDITY_BOOTSTRAPPING');
};

/** A fixed-price LBP: its rate the vector's or anywhere from 1e-3 to 1e3, the block time around the sale. */
const fixedPriceLbp: Deriver = (r, v) => {
  const p = v.pool;
  const f = drawVaultState(r, p, uniform(r, -6, 6));
  // The vector's pool holds no reserve yet: give it some, as after a first buy.
  const balancesLiveScaled18 = f.balancesLiveScaled18.map((b) => (b === 0n ? scaleBy(ONE, uniform(r, 0, 6)) : b));
  const g = { ...f, balancesLiveScaled18 };
  const [startTime, endTime] = [p.big('startTime'), p.big('endTime')];
  const currentTimestamp = timeAround(r, startTime, endTime);
  const projectTokenRate = r() < 0.3 ? p.big('projectTokenRate') : scaleBy(ONE, uniform(r, -3, 3));
  const state: FixedPriceLbpState = {
    ...g,
    projectTokenIndex: p.num('projectTokenIndex'),
    reserveTokenIndex: p.num('reserveTokenIndex'),
    startTime,
    endTime,
    projectTokenRate,
  };
  const theirs = {
    ...theirVaultState(g, 'FIXED_PRICE_LBP'),
    projectTokenIndex: state.projectTokenIndex,
    reserveTokenIndex: state.reserveTokenIndex,
    projectTokenRate,
    startTime,
    endTime,
    currentTimestamp,
    isSwapEnabled: saleOpen(startTime, endTime, currentTimestamp),
  };
  const ours = {
    state,
    math: fixedPriceLbpMath(state, currentTimestamp),
    hook: lbpHook(state, currentTimestamp),
  };
  return drawn(g, ours, theirs, 'FIXED_PRICE_LBP');
};

// ---------------------------------------------------------------------------------------------
// Operations and their outcomes.

type Outcome = { readonly ok: readonly bigint[] } | { readonly refused: string; readonly crashed?: boolean };

function ours(run: () => readonly bigint[]): Outcome {
  try {
    return { ok: run() };
  } catch (e) {
    // Only a modelled revert is a refusal; anything else is a bug and fails the case.
    if (isRevert(e)) return { refused: (e as Revert).code ?? (e as Error).message };
    return { refused: `NOT A REVERT: ${String(e)}`, crashed: true };
  }
}

function theirs(run: () => readonly bigint[]): Outcome {
  try {
    return { ok: run() };
  } catch (e) {
    // balancer-maths refuses with Error; a TypeError is its own code failing, not a refusal.
    return { refused: e instanceof Error ? e.message : String(e), crashed: e instanceof TypeError };
  }
}

const agree = (a: Outcome, b: Outcome): boolean =>
  'ok' in a && 'ok' in b
    ? a.ok.length === b.ok.length && a.ok.every((x, i) => x === b.ok[i])
    : 'refused' in a && 'refused' in b && a.crashed !== true && b.crashed !== true;

type OperationKind =
  'swap' | 'addUnbalanced' | 'addSingle' | 'removeProportional' | 'removeSingleIn' | 'removeSingleOut';

interface Operation {
  readonly kind: OperationKind;
  readonly title: string;
  readonly ours: Outcome;
  readonly theirs: Outcome;
  /** The token a single-token operation or a swap's amount out concerns. */
  readonly token: number;
  /** Raw amounts the caller gave exactly (unbalanced add, single-token exact-out remove), zero elsewhere. */
  readonly exactRaw?: readonly bigint[];
  readonly swapKind?: V3SwapKind;
  /** Set when the case was compared against balancer-maths adjusted for a named divergence. */
  readonly divergence?: Divergence;
}

/**
 * Where balancer-maths 0.0.41 and the contracts part, each as the test recognises it from the
 * case, our answer and theirs. A case under one is counted, not compared; anything else differing
 * fails. Each names the contract source (balancer-v3-monorepo) that decides.
 */
const DIVERGENCES = {
  exactRawAmounts:
    'Vault._addLiquidity (UNBALANCED) and _removeLiquidity (SINGLE_TOKEN_EXACT_OUT) copy the caller\'s exact raw amounts into amountsInRaw / amountsOutRaw ("to avoid scaling later"); balancer-maths scales them to 18 decimals and back, which can move them by a wei. Every other figure must be equal.',
  singleTokenAddNonTaxable:
    'BasePoolMath.computeAddLiquiditySingleTokenExactOut: nonTaxableBalance = (newSupply * balance) / totalSupply, one rounding; balancer-maths rounds twice (mulDown then divDown), so its fee is taxed on a larger amount. Checked: theirs exceeds ours by at most that extra rounding over (1 - fee), plus scaling wei.',
  liquidityTradeMinimum:
    'Vault._addLiquidity / _removeLiquidity: `_ensureValidTradeAmount` refuses a BPT amount or a non-zero token amount below the minimum trade amount (1e6 scaled18); balancer-maths checks it on swaps only.',
  supplyMinimum:
    'BalancerPoolToken / ERC20MultiToken._burn: the total supply may not fall below _POOL_MINIMUM_TOTAL_SUPPLY (1e6); balancer-maths burns below it.',
  singleTokenOutBelowMin:
    'Vault._removeLiquidity: an amount out below its min amount out (the 1 wei that names the token of a single-token exact-in remove) reverts AmountOutBelowMin; balancer-maths does not compare amounts with their limits.',
  balanceOutUnderflow:
    "Vault._swap: the pool's raw balance of the token out minus the amount out is checked arithmetic (Panic 0x11) when a pool prices more out than it holds (a fixed-price LBP with a high rate); balancer-maths does not update balances.",
  lbpLiquidityHooks:
    'LBPCommon.onBeforeAddLiquidity (only the owner through the trusted router, before the sale) and onBeforeRemoveLiquidity (not during the sale): balancer-maths has no LBP hooks and prices the operation.',
  lbpComputeBalance:
    "LBPool.computeBalance reverts UnsupportedOperation (no single-token liquidity); balancer-maths' LiquidityBootstrapping inherits the weighted pool's.",
  eclpNegativeBalance:
    'GyroECLPPool.computeBalance returns calcXGivenY / calcYGivenX through SafeCast.toUint256, which reverts on a negative balance; balancer-maths returns it negative (an amount out above the balance).',
  reClammNegativeVirtualBalance:
    'ReClammMath (v1, no cap on the time out of range) in uint256: a price shift that takes a virtual balance below zero reverts; balancer-maths computes it negative and prices on it.',
  twoClpBeforeRoundingFix:
    'balancer-maths\' Gyro2CLP (which its own Vault does not register) is Gyro2CLPMath / Gyro2CLPPool before balancer-v3-monorepo e292dd40b "Fix rounding of 2CLP pools" (2025-01-08): 3e-18 margins on the virtual offsets, the invariant always rounded down. The deployed pools (2025-01-20, commit e1ae7f09) have the fix, which ours follows (test/tools/gyro2ClpV3Contract.ts checks it against that source). Checked: theirs never better for the trader than ours and within 1e-9 of it (plus 10 wei).',
  twoClpRoundUpBroken:
    "balancer-maths' Gyro2CLP computes an invariant rounded up through MathSol.divUpFixed passed unbound, which throws a TypeError: none of its unbalanced or single-token liquidity operations runs (swaps round down and run).",
  checkedSubtraction:
    "Solidity 0.8 checked arithmetic in BasePoolMath and the pools: where rounding on tiny balances makes a difference negative (a single-token remove's taxable amount, an amount in or out) the contract reverts (Panic 0x11); balancer-maths carries a negative bigint on.",
  powDownShortcutRoundsUp:
    "FixedPoint.powDown's shortcuts for exponents 2 and 4 multiply rounding down (mulDown); balancer-maths' MathSol.powDownFixed uses mulUpFixed there. ReClamm shifts an out-of-range pool's virtual balance by dailyPriceShiftBase^(seconds elapsed): 2 or 4 seconds after its last update the two part by wei. Checked: the block is 2 or 4 seconds on and the answers within 1e-12.",
  wrapCalculatedMinimum:
    "Vault.erc4626BufferWrapOrUnwrap: `_ensureValidWrapAmount` applies to the amount calculated too (1e4 raw at the deployed Vault; a preview of 0 less the guard's wei underflows); balancer-maths checks the amount given only, against 1e3.",
  surgeBelowStatic:
    'StableSurgeHook._getSurgeFeePercentage returns the static fee when maxSurgeFeePercentage < staticFeePercentage; balancer-maths computes static + (max - static) * excess with a negative range, a fee below the static one. Compared instead with balancer-maths without the hook (the static fee).',
};

type Divergence = keyof typeof DIVERGENCES;

const count = new Map<Divergence, number>();

function swapCase(r: Random, d: Drawn): Operation {
  const n = d.rawBalances.length;
  const i = Math.floor(r() * n);
  const j = (i + 1 + Math.floor(r() * (n - 1))) % n;
  const kind: V3SwapKind = r() < 0.5 ? 'exactIn' : 'exactOut';
  const base = d.rawBalances[kind === 'exactIn' ? i : j]!;
  const amount = 1n + scaleBy(base > 0n ? base : 10n ** 18n, uniform(r, -9, kind === 'exactIn' ? 0.3 : 0));
  const [tokenIn, tokenOut] = [d.ours.state.tokens[i]!, d.ours.state.tokens[j]!];
  const title = `swap ${kind} ${amount} of token ${kind === 'exactIn' ? i : j} (${i} -> ${j})`;
  const mine = ours(() => {
    const answer = vaultSwap(d.ours, { kind, tokenIn, tokenOut, amountGivenRaw: amount }).amountCalculatedRaw;
    const model = new V3PoolModel({ pool: d.ours, decimals: d.decimals, poolType: d.poolType });
    const modelled = model.swap(model.initialState(), kind === 'exactIn' ? 'givenIn' : 'givenOut', i, j, amount);
    if (modelled !== answer) throw new Error(`the routing model answers ${modelled}, the Vault's operations ${answer}`);
    return [answer];
  });
  const input = {
    amountRaw: amount,
    tokenIn,
    tokenOut,
    swapKind: kind === 'exactIn' ? TheirSwapKind.GivenIn : TheirSwapKind.GivenOut,
  };
  const op = { kind: 'swap', title, ours: mine, token: j, swapKind: kind } as const;
  const surge = d.hook as { maxSurgeFeePercentage?: bigint } | undefined;
  if (surge?.maxSurgeFeePercentage !== undefined && surge.maxSurgeFeePercentage < d.theirs.swapFee) {
    const unhooked = { ...d.theirs } as Record<string, unknown>;
    delete unhooked['hookType'];
    return {
      ...op,
      theirs: theirs(() => [vault.swap(input, unhooked as TheirPoolState)]),
      divergence: 'surgeBelowStatic',
    };
  }
  return { ...op, theirs: theirs(() => [vault.swap(input, d.theirs, d.hook)]) };
}

const HUGE = 2n ** 200n;

function addCase(r: Random, d: Drawn): Operation {
  const n = d.rawBalances.length;
  const state = d.ours.state;
  if (r() < 0.5) {
    const amounts = d.rawBalances.map((b) => (r() < 0.3 ? 0n : 1n + scaleBy(b, uniform(r, -8, 0))));
    if (!amounts.some((a) => a > 0n)) amounts[0] = 1n + scaleBy(d.rawBalances[0]!, -3);
    const mine = ours(() => {
      const res = vaultAddLiquidity(d.ours, { kind: 'unbalanced', maxAmountsInRaw: amounts, minBptAmountOut: 0n });
      return [...res.amountsInRaw, res.bptAmountOut];
    });
    const their = theirs(() => {
      const res = vault.addLiquidity(
        { pool: state.address, maxAmountsInRaw: amounts, minBptAmountOutRaw: 0n, kind: AddKind.UNBALANCED },
        d.theirs,
        d.hook,
      );
      return [...res.amountsInRaw, res.bptAmountOutRaw];
    });
    const title = `add unbalanced ${amounts.join(', ')}`;
    return { kind: 'addUnbalanced', title, ours: mine, theirs: their, token: 0, exactRaw: amounts };
  }
  const k = Math.floor(r() * n);
  const bpt = 1n + scaleBy(state.totalSupply, uniform(r, -8, -0.3));
  const limits = d.rawBalances.map((_b, i) => (i === k ? HUGE : 0n));
  const mine = ours(() => {
    const res = vaultAddLiquidity(d.ours, {
      kind: 'singleTokenExactOut',
      maxAmountsInRaw: limits,
      minBptAmountOut: bpt,
    });
    return [...res.amountsInRaw, res.bptAmountOut];
  });
  const their = theirs(() => {
    const res = vault.addLiquidity(
      { pool: state.address, maxAmountsInRaw: limits, minBptAmountOutRaw: bpt, kind: AddKind.SINGLE_TOKEN_EXACT_OUT },
      d.theirs,
      d.hook,
    );
    return [...res.amountsInRaw, res.bptAmountOutRaw];
  });
  return { kind: 'addSingle', title: `add single token ${k} for ${bpt} BPT`, ours: mine, theirs: their, token: k };
}

function removeCase(r: Random, d: Drawn): Operation {
  const n = d.rawBalances.length;
  const state = d.ours.state;
  const u = r();
  const k = Math.floor(r() * n);
  const bpt = 1n + scaleBy(state.totalSupply, uniform(r, -8, -0.05));
  const run = (
    kind: 'proportional' | 'singleTokenExactIn' | 'singleTokenExactOut',
    maxBpt: bigint,
    mins: bigint[],
  ) => ({
    ours: ours(() => {
      const res = vaultRemoveLiquidity(d.ours, { kind, maxBptAmountIn: maxBpt, minAmountsOutRaw: mins });
      return [...res.amountsOutRaw, res.bptAmountIn];
    }),
    theirs: theirs(() => {
      const their = {
        proportional: RemoveKind.PROPORTIONAL,
        singleTokenExactIn: RemoveKind.SINGLE_TOKEN_EXACT_IN,
        singleTokenExactOut: RemoveKind.SINGLE_TOKEN_EXACT_OUT,
      }[kind];
      const res = vault.removeLiquidity(
        { pool: state.address, minAmountsOutRaw: mins, maxBptAmountInRaw: maxBpt, kind: their },
        d.theirs,
        d.hook,
      );
      return [...res.amountsOutRaw, res.bptAmountInRaw];
    }),
  });
  if (u < 0.4) {
    const title = `remove proportional ${bpt} BPT`;
    return {
      kind: 'removeProportional',
      title,
      token: 0,
      ...run(
        'proportional',
        bpt,
        d.rawBalances.map(() => 0n),
      ),
    };
  }
  if (u < 0.7) {
    // A min of 1 names the token out.
    const mins = d.rawBalances.map((_b, i) => (i === k ? 1n : 0n));
    return {
      kind: 'removeSingleIn',
      title: `remove ${bpt} BPT for token ${k}`,
      token: k,
      ...run('singleTokenExactIn', bpt, mins),
    };
  }
  const out = 1n + scaleBy(d.rawBalances[k]!, uniform(r, -8, -0.3));
  const mins = d.rawBalances.map((_b, i) => (i === k ? out : 0n));
  const title = `remove exactly ${out} of token ${k}`;
  return { kind: 'removeSingleOut', title, token: k, exactRaw: mins, ...run('singleTokenExactOut', HUGE, mins) };
}

/** scaled18 of a raw amount, rounded up: what the checks below compare. */
const scaled = (d: Drawn, raw: bigint, i: number): bigint =>
  (raw * d.ours.state.scalingFactors[i]! * d.ours.state.tokenRates[i]! + ONE - 1n) / ONE;

/** Which named divergence explains a case where the two differ, if one does. */
function explain(op: Operation, d: Drawn): Divergence | undefined {
  const state = d.ours.state;
  const liquidity = op.kind !== 'swap';
  if ('ok' in op.ours && 'ok' in op.theirs) {
    const [mine, their] = [op.ours.ok, op.theirs.ok];
    const differing = mine.map((_x, i) => i).filter((i) => mine[i] !== their[i]);
    // Only exact raw amounts differ, and ours are the caller's.
    if (op.exactRaw !== undefined && differing.every((i) => op.exactRaw![i] !== 0n && mine[i] === op.exactRaw![i])) {
      return 'exactRawAmounts';
    }
    if (op.kind === 'addSingle' && differing.length === 1 && differing[0] === op.token) {
      const k = op.token;
      const bpt = mine[mine.length - 1]!;
      const balance = state.balancesLiveScaled18[k]!;
      const newSupply = state.totalSupply + bpt;
      const extra =
        (newSupply * balance) / state.totalSupply - (((newSupply * balance) / ONE) * ONE) / state.totalSupply;
      const bound = (extra * ONE) / (ONE - state.staticSwapFee) + 2n;
      const diff = scaled(d, their[k]! - mine[k]!, k);
      if (their[k]! > mine[k]! && diff <= bound + scaled(d, 1n, k)) return 'singleTokenAddNonTaxable';
    }
    const elapsed = (d.theirs as { currentTimestamp?: bigint; lastTimestamp?: bigint }).currentTimestamp;
    const last = (d.theirs as { lastTimestamp?: bigint }).lastTimestamp;
    if (elapsed !== undefined && last !== undefined && (elapsed - last === 2n || elapsed - last === 4n)) {
      const close = differing.every((i) => {
        const gap = mine[i]! > their[i]! ? mine[i]! - their[i]! : their[i]! - mine[i]!;
        return gap <= mine[i]! / 10n ** 12n + 2n;
      });
      if (close && d.poolType.startsWith('RECLAMM')) return 'powDownShortcutRoundsUp';
    }
    if (d.poolType === 'GYRO') {
      // Theirs never better for the trader: less out, more in, more BPT in, less BPT out.
      const worseForTrader = (i: number): boolean => {
        const last = i === mine.length - 1;
        if (op.kind === 'swap') return op.swapKind === 'exactIn' ? their[i]! < mine[i]! : their[i]! > mine[i]!;
        if (op.kind === 'addUnbalanced') return last ? their[i]! < mine[i]! : true;
        if (op.kind === 'removeSingleOut') return last ? their[i]! > mine[i]! : true;
        return false;
      };
      const close = (i: number): boolean => {
        const gap = mine[i]! > their[i]! ? mine[i]! - their[i]! : their[i]! - mine[i]!;
        return gap <= mine[i]! / 10n ** 9n + 10n;
      };
      if (differing.every((i) => (worseForTrader(i) && close(i)) || (op.exactRaw?.[i] ?? 0n) === mine[i])) {
        return 'twoClpBeforeRoundingFix';
      }
    }
    return undefined;
  }
  if ('refused' in op.theirs && op.theirs.crashed === true) {
    return d.poolType === 'GYRO' &&
      op.kind !== 'swap' &&
      op.kind !== 'removeProportional' &&
      !('crashed' in op.ours && op.ours.crashed === true)
      ? 'twoClpRoundUpBroken'
      : undefined;
  }
  if (!('refused' in op.ours) || !('ok' in op.theirs) || op.ours.crashed === true) return undefined;
  const code = op.ours.refused;
  const answer = op.theirs.ok;
  if (op.kind === 'swap') {
    const outRaw = op.swapKind === 'exactIn' ? answer[0]! : undefined;
    if (code === 'Panic(0x11)' && outRaw !== undefined && outRaw > d.rawBalances[op.token]!)
      return 'balanceOutUnderflow';
    if (code === 'BAL#001' && (d.poolType === 'RECLAMM' || d.poolType === 'RECLAMM_V2')) {
      const their = vault.getPool(d.theirs) as unknown as {
        _computeCurrentVirtualBalances(b: bigint[]): { currentVirtualBalanceA: bigint; currentVirtualBalanceB: bigint };
      };
      const v = their._computeCurrentVirtualBalances([...d.theirs.balancesLiveScaled18]);
      if (v.currentVirtualBalanceA < 0n || v.currentVirtualBalanceB < 0n) return 'reClammNegativeVirtualBalance';
    }
    return undefined;
  }
  if (!liquidity) return undefined;
  if (code === 'AddingLiquidityNotAllowed' || code === 'RemovingLiquidityNotAllowed') return 'lbpLiquidityHooks';
  if (code === 'UnsupportedOperation' && d.poolType === 'LIQUIDITY_BOOTSTRAPPING') return 'lbpComputeBalance';
  const bpt = answer[answer.length - 1]!;
  if (code === 'PoolTotalSupplyTooLow' && state.totalSupply - bpt < 1_000_000n) return 'supplyMinimum';
  if (code === 'AmountOutBelowMin' && op.kind === 'removeSingleIn' && answer[op.token] === 0n)
    return 'singleTokenOutBelowMin';
  if (code === 'SafeCast: value must be positive' && d.poolType === 'GYROE' && op.kind === 'removeSingleIn') {
    const bptIn = answer[answer.length - 1]!;
    const ratio = ((state.totalSupply - bptIn) * ONE + state.totalSupply - 1n) / state.totalSupply;
    const balances = [...d.theirs.balancesLiveScaled18];
    if (vault.getPool(d.theirs).computeBalance(balances, op.token, ratio) < 0n) return 'eclpNegativeBalance';
  }
  if (code === 'TradeAmountTooSmall') {
    // Some amount the Vault checks is below 1e6 scaled18: the BPT, or a token amount (the single
    // token's may round to 0 raw from a non-zero scaled18 one).
    // The least scaled18 amount a raw one can come from: adds round raw up, removes down.
    const adding = op.kind === 'addUnbalanced' || op.kind === 'addSingle';
    const tiny = (x: bigint, i: number): boolean =>
      x === 0n
        ? op.kind === 'removeProportional' || (op.kind !== 'addUnbalanced' && i === op.token)
        : ((adding ? x - 1n : x) * state.scalingFactors[i]! * state.tokenRates[i]!) / ONE < 1_000_000n;
    if (bpt < 1_000_000n || answer.slice(0, -1).some(tiny)) return 'liquidityTradeMinimum';
  }
  if (code.includes('underflow') || code === 'BAL#001' || code === 'Panic(0x11)') {
    if (answer.some((x) => x < 0n)) return 'checkedSubtraction';
    if (op.kind === 'removeSingleIn') {
      // The contract's newBalanceBeforeTax - newBalance, on balancer-maths' own computeBalance.
      const k = op.token;
      const bptIn = answer[answer.length - 1]!;
      const newSupply = state.totalSupply - bptIn;
      const ratio = (newSupply * ONE + state.totalSupply - 1n) / state.totalSupply;
      const balances = [...d.theirs.balancesLiveScaled18];
      const newBalance = vault.getPool(d.theirs).computeBalance(balances, k, ratio);
      const beforeTax = (newSupply * balances[k]! + state.totalSupply - 1n) / state.totalSupply;
      if (beforeTax < newBalance) return 'checkedSubtraction';
    }
    if (op.kind === 'addUnbalanced') {
      // The contract's invariantWithFeesApplied - currentInvariant, on balancer-maths' own invariant
      // (the one with fees is at most the one without).
      const pool = vault.getPool(d.theirs);
      const balances = [...d.theirs.balancesLiveScaled18];
      const current = pool.computeInvariant(balances, Rounding.ROUND_UP);
      const after = balances.map(
        (b, i) => b + (op.exactRaw![i]! * state.scalingFactors[i]! * state.tokenRates[i]!) / ONE - 1n,
      );
      if (pool.computeInvariant(after, Rounding.ROUND_DOWN) < current) return 'checkedSubtraction';
    }
    if (op.kind === 'removeSingleOut') {
      // The contract's invariantRatio * balance - newBalance, on balancer-maths' own invariant.
      const k = op.token;
      const pool = vault.getPool(d.theirs);
      const balances = [...d.theirs.balancesLiveScaled18];
      const current = pool.computeInvariant(balances, Rounding.ROUND_UP);
      const after = balances.map((b) => b - 1n);
      after[k] = after[k]! - scaled(d, op.exactRaw![k]!, k);
      const ratio = (pool.computeInvariant(after, Rounding.ROUND_UP) * ONE + current - 1n) / current;
      if ((ratio * balances[k]! + ONE - 1n) / ONE < after[k]!) return 'checkedSubtraction';
    }
  }
  return undefined;
}

interface TypeRun {
  readonly name: string;
  readonly vectors: readonly string[];
  readonly derive: Deriver;
  readonly states: number;
  /** Operations per state: swaps, adds, removes. */
  readonly ops: readonly [number, number, number];
  /**
   * The least share of cases both answer (not only refuse). An LBP refuses much by design: outside
   * its sale, the project token in, every add.
   */
  readonly answered?: number;
}

const TYPES: readonly TypeRun[] = [
  {
    name: 'Weighted',
    vectors: ['11155111-7439300-Weighted-USDC-DAI.json'],
    derive: weighted,
    states: 120,
    ops: [6, 2, 3],
  },
  {
    name: 'Stable',
    vectors: ['11155111-7439300-Stable-stataUSDC-stataUSDT.json'],
    derive: stable,
    states: 90,
    ops: [6, 2, 3],
  },
  {
    name: 'Stable with the StableSurge hook',
    vectors: ['1-22247251-StableSurgeHook.json'],
    derive: stableSurge,
    states: 90,
    ops: [6, 2, 3],
  },
  {
    name: 'Gyro E-CLP',
    vectors: ['11155111-7748718-GyroECLP.json', '1-23511249-GyroECLP-Barter.json'],
    derive: eclp,
    states: 80,
    ops: [6, 2, 3],
  },
  {
    name: 'Gyro 2-CLP',
    vectors: ['11155111-7748718-GyroECLP.json', '1-23511249-GyroECLP-Barter.json'],
    derive: twoClp,
    states: 100,
    ops: [6, 2, 3],
  },
  {
    name: 'ReClamm v1',
    vectors: [
      '8453-31094200-ReClamm-WETH-USDC-In-Range.json',
      '8453-31094380-ReClamm-WETH-USDC-Same-Timestamp.json',
      '8453-31094381-ReClamm-WETH-USDC-Out-Of-Range.json',
    ],
    derive: reClamm,
    states: 120,
    ops: [7, 0, 3],
  },
  {
    name: 'ReClamm v2',
    vectors: ['8453-32632378-ReClamm-V2.json', '8453-32641745-ReClamm-V2-Out-Of-Range.json'],
    derive: reClamm,
    states: 120,
    ops: [7, 0, 3],
  },
  { name: 'QuantAMM', vectors: ['1-22524240-QuantAMM.json'], derive: quantAmm, states: 90, ops: [6, 2, 3] },
  {
    name: 'LBP',
    vectors: ['11155111-8085514-LBP-BAL-DAI.json'],
    derive: lbp,
    states: 100,
    ops: [7, 1, 2],
    answered: 0.35,
  },
  {
    name: 'fixed-price LBP',
    vectors: ['11155111-10434442-FixedPriceLBP-MTK-USDC.json'],
    derive: fixedPriceLbp,
    states: 100,
    ops: [7, 1, 2],
    answered: 0.2,
  },
];

interface Tally {
  compared: number;
  bothAnswered: number;
  differences: string[];
}

function runType(t: TypeRun, seed: number): Tally {
  const r = seededRandom(seed);
  const vectors = t.vectors.map(loadV3Vector);
  const tally: Tally = { compared: 0, bothAnswered: 0, differences: [] };
  for (let s = 0; s < t.states; s++) {
    const v = pick(r, vectors);
    const d = t.derive(r, v);
    const ops: Operation[] = [];
    for (let k = 0; k < t.ops[0]; k++) ops.push(swapCase(r, d));
    for (let k = 0; k < t.ops[1]; k++) ops.push(addCase(r, d));
    for (let k = 0; k < t.ops[2]; k++) ops.push(removeCase(r, d));
    for (const op of ops) {
      const named = agree(op.ours, op.theirs) ? op.divergence : (explain(op, d) ?? undefined);
      if (named !== undefined) count.set(named, (count.get(named) ?? 0) + 1);
      if (agree(op.ours, op.theirs)) {
        tally.compared++;
        if ('ok' in op.ours) tally.bothAnswered++;
      } else if (named === undefined) {
        tally.differences.push(
          `${v.file} state ${s} (live balances ${d.ours.state.balancesLiveScaled18.join(', ')}): ${op.title}: ours ${show(op.ours)}, balancer-maths ${show(op.theirs)}`,
        );
      }
    }
  }
  return tally;
}

const show = (o: Outcome): string => ('ok' in o ? `[${o.ok.join(', ')}]` : `refused (${o.refused})`);

/** Buffers: balancer-maths prices by the token's rate as the Vault's previews of an ERC-4626 at that rate. */
function runBuffers(seed: number): Tally {
  const r = seededRandom(seed);
  const files = [
    '1-21671845-Buffer-csUSDC.json',
    '1-21671845-Buffer-waEthLidoWETH.json',
    '1-21671845-Buffer-waEthUSDC.json',
    'buffer-manual.json',
  ];
  const vectors = files.map(loadV3Vector);
  const tally: Tally = { compared: 0, bothAnswered: 0, differences: [] };
  for (let c = 0; c < 1500; c++) {
    const v = pick(r, vectors);
    const [wrapped, underlying] = v.pool.tokens as [string, string];
    const rate = r() < 0.3 ? v.pool.big('rate') : scaleBy(v.pool.big('rate'), uniform(r, -0.3, 0.5));
    const kind: V3SwapKind = r() < 0.5 ? 'exactIn' : 'exactOut';
    const wrap = r() < 0.5;
    // At least the deployed Vault's minimum wrap amount both ways (1e4 raw; balancer-maths checks 1e3).
    const amount = BigInt(Math.floor(10 ** uniform(r, 4.5, 9))) * 10n ** BigInt(Math.floor(uniform(r, 0, 16)));
    const tokenIn = wrap ? underlying : wrapped;
    const tokenOut = wrap ? wrapped : underlying;
    const theirState: TheirBufferState = {
      poolType: 'Buffer',
      poolAddress: wrapped,
      tokens: [wrapped, underlying],
      rate,
    };
    const theirAt = (a: bigint): Outcome =>
      theirs(() => [
        vault.swap(
          {
            amountRaw: a,
            tokenIn,
            tokenOut,
            swapKind: kind === 'exactIn' ? TheirSwapKind.GivenIn : TheirSwapKind.GivenOut,
          },
          theirState,
        ),
      ]);
    const buffer = {
      wrappedToken: wrapped,
      underlyingToken: underlying,
      underlyingBalanceRaw: 2n ** 128n,
      wrappedBalanceRaw: 2n ** 128n,
      buffersPaused: false,
    };
    const mine = (pricing: BufferPricing): Outcome =>
      ours(() => [
        bufferWrapOrUnwrap(buffer, erc4626ByRate(rate), { kind, tokenIn, amountGivenRaw: amount }, { pricing })
          .amountCalculatedRaw,
      ]);
    // Vaults before the deployed one used the previews as they are: balancer-maths' answer.
    const plain = theirAt(amount);
    const title = `${wrap ? 'wrap' : 'unwrap'} ${kind} ${amount} at rate ${rate}`;
    // The deployed Vault moves the amount given by 1 wei and the preview by 1 wei, both against the user.
    const shifted = theirAt(kind === 'exactIn' ? amount - 1n : amount + 1n);
    const guarded: Outcome = 'ok' in shifted ? { ok: [shifted.ok[0]! + (kind === 'exactIn' ? -1n : 1n)] } : shifted;
    for (const [pricing, expected] of [
      ['unguarded', plain],
      ['guarded', guarded],
    ] as const) {
      const got = mine(pricing);
      if (agree(got, expected)) {
        tally.compared++;
        if ('ok' in got) tally.bothAnswered++;
      } else if (
        'refused' in got &&
        (got.refused === 'WrapAmountTooSmall' || got.refused === 'Panic(0x11)') &&
        'ok' in plain &&
        plain.ok[0]! < 10_000n
      ) {
        count.set('wrapCalculatedMinimum', (count.get('wrapCalculatedMinimum') ?? 0) + 1);
      } else {
        tally.differences.push(`${v.file}: ${title} (${pricing}): ours ${show(got)}, balancer-maths ${show(expected)}`);
      }
    }
  }
  return tally;
}

describe(`V3 maths against @balancer-labs/balancer-maths on random states from the vectors (seed ${SEED}; V3_MATHS_SEED replays)`, () => {
  const totals = { compared: 0, bothAnswered: 0 };

  test.each(TYPES.map((t, k) => [t.name, t, k] as const))('%s: every case equal or refused by both', (_n, t, k) => {
    const tally = runType(t, SEED + k);
    totals.compared += tally.compared;
    totals.bothAnswered += tally.bothAnswered;
    expect(tally.differences.slice(0, 5)).toEqual([]);
    expect(tally.bothAnswered).toBeGreaterThan(tally.compared * (t.answered ?? 0.5));
  });

  test('ERC-4626 buffers, the deployed Vault and the unguarded one: every case equal or refused by both', () => {
    const tally = runBuffers(SEED + TYPES.length);
    totals.compared += tally.compared;
    totals.bothAnswered += tally.bothAnswered;
    expect(tally.differences.slice(0, 5)).toEqual([]);
    expect(tally.bothAnswered).toBeGreaterThan(tally.compared / 2);
  });

  test('over 10,000 cases compared, and the named divergences a small share of them', () => {
    expect(totals.compared).toBeGreaterThanOrEqual(10_000);
    const diverged = [...count.values()].reduce((a, b) => a + b, 0);
    expect(diverged).toBeLessThan(totals.compared / 5);
    // The run's figures, and what each divergence is, for the record.
    const lines = [...count].map(([name, n]) => `  ${name} (${n}): ${DIVERGENCES[name]}`);
    process.stdout.write(
      `balancer-maths differential (seed ${SEED}): ${totals.compared} cases equal, ` +
        `${totals.bothAnswered} of them answered by both; cases under a named divergence:\n${lines.join('\n')}\n`,
    );
  });
});
