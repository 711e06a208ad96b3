import { StableMathBigInt } from '@balancer-labs/sor';
import { decimalToUnits } from '../decimal';
import { complement, divDown, divUp, mulDown, mulUp, ONE, powUp, sub } from '../swap/math/fixedPoint';

/**
 * One pool's `onSwap` as the contract computes it, for the pool types whose on-chain math we
 * reproduce exactly: weighted pools and composable stable pools (token for token). Amounts and
 * balances are raw token units. Pure apart from the balances it is handed, which the caller owns.
 */
export type SwapKind = 'givenIn' | 'givenOut';

export class UnsupportedPoolError extends Error {}
export class PoolMathError extends Error {}

/**
 * What the math needs of a pool: satisfied by the stored pool (`StoredPool`) and by the SOR's
 * pool shape (`SubgraphPoolBase`), so routing can replay a route over either. Decimal strings.
 */
export interface ReplayPool {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly poolTypeVersion?: number;
  readonly swapFee: string;
  readonly amp?: string | null;
  readonly tokens: readonly {
    readonly address: string;
    readonly balance: string;
    readonly decimals: number;
    readonly weight?: string | null;
    readonly priceRate?: string | null;
  }[];
}

export interface PoolState {
  readonly pool: ReplayPool;
  /** Raw balances in the pool's token order; the batch simulation updates them swap by swap. */
  readonly balances: bigint[];
  readonly scalingFactors: readonly bigint[];
}

const MAX_IN_RATIO = 3n * 10n ** 17n;
const MAX_OUT_RATIO = 3n * 10n ** 17n;
const AMP_PRECISION_DIGITS = 3;

/**
 * Which pools this module reproduces exactly. Checked against the real contracts by the e2e suite:
 * weighted v1 and v2, composable stable v3. Weighted v3/v4 share v2's arithmetic; composable
 * stable v4/v5 share v3's token-for-token swap. Everything else keeps the router's own estimate.
 */
export function supportsPool(pool: ReplayPool): boolean {
  const version = pool.poolTypeVersion ?? 1;
  return (pool.poolType === 'Weighted' && version <= 4) || (pool.poolType === 'ComposableStable' && version >= 3 && version <= 5);
}

export function poolState(pool: ReplayPool): PoolState {
  if (!supportsPool(pool)) throw new UnsupportedPoolError(`${pool.poolType} v${pool.poolTypeVersion ?? 1} pools are not simulated`);
  return {
    pool,
    balances: pool.tokens.map((t) => decimalToUnits(t.balance, t.decimals)),
    // FixedPoint scaling factor: 10^(18 - decimals) as 18-decimal number, times the token's rate.
    scalingFactors: pool.tokens.map((t) => mulDown(ONE * 10n ** BigInt(18 - t.decimals), decimalToUnits(t.priceRate ?? '1', 18))),
  };
}

/** Index of a token in the pool, by case-insensitive address; -1 when absent. */
export function tokenIndex(pool: ReplayPool, address: string): number {
  const a = address.toLowerCase();
  return pool.tokens.findIndex((t) => t.address.toLowerCase() === a);
}

const upscale = (amount: bigint, sf: bigint) => mulDown(amount, sf);
const downscaleDown = (amount: bigint, sf: bigint) => divDown(amount, sf);
const downscaleUp = (amount: bigint, sf: bigint) => divUp(amount, sf);

function weightedSwap(state: PoolState, kind: SwapKind, i: number, j: number, amount: bigint, fee: bigint): bigint {
  const { pool, scalingFactors: sf } = state;
  const wIn = decimalToUnits(pool.tokens[i]!.weight ?? '0', 18);
  const wOut = decimalToUnits(pool.tokens[j]!.weight ?? '0', 18);
  const shortcuts = (pool.poolTypeVersion ?? 1) >= 2;
  const bIn = upscale(state.balances[i]!, sf[i]!);
  const bOut = upscale(state.balances[j]!, sf[j]!);
  if (kind === 'givenIn') {
    // Fee off the raw amount first, then scale (the pool's own order of rounding).
    const aIn = upscale(amount - mulUp(amount, fee), sf[i]!);
    if (aIn > mulDown(bIn, MAX_IN_RATIO)) throw new PoolMathError('amount in above 30 % of the balance (BAL#304)');
    const base = divUp(bIn, bIn + aIn);
    const power = powUp(base, divDown(wIn, wOut), shortcuts);
    return downscaleDown(mulDown(bOut, complement(power)), sf[j]!);
  }
  const aOut = upscale(amount, sf[j]!);
  if (aOut > mulDown(bOut, MAX_OUT_RATIO)) throw new PoolMathError('amount out above 30 % of the balance (BAL#305)');
  const base = divUp(bOut, sub(bOut, aOut));
  const power = powUp(base, divUp(wOut, wIn), shortcuts);
  const aIn = mulUp(bIn, sub(power, ONE));
  return divUp(downscaleUp(aIn, sf[i]!), complement(fee));
}

function stableSwap(state: PoolState, kind: SwapKind, i: number, j: number, amount: bigint, fee: bigint): bigint {
  const { pool, scalingFactors: sf } = state;
  const bptIndex = tokenIndex(pool, pool.address);
  if (i === bptIndex || j === bptIndex) throw new UnsupportedPoolError('swaps into or out of the pool token (joins/exits) are not simulated');
  const skip = (k: number) => (bptIndex >= 0 && k > bptIndex ? k - 1 : k);
  const balances = state.balances.map((b, k) => upscale(b, sf[k]!)).filter((_, k) => k !== bptIndex);
  const amp = decimalToUnits(pool.amp ?? '0', AMP_PRECISION_DIGITS);
  if (kind === 'givenIn') {
    const aIn = upscale(amount - mulUp(amount, fee), sf[i]!);
    const out = StableMathBigInt._calcOutGivenIn(amp, balances, skip(i), skip(j), aIn, 0n);
    return downscaleDown(out, sf[j]!);
  }
  const aOut = upscale(amount, sf[j]!);
  const aIn = StableMathBigInt._calcInGivenOut(amp, balances, skip(i), skip(j), aOut, 0n);
  return divUp(downscaleUp(aIn, sf[i]!), complement(fee));
}

/** The pool's answer to one swap: the amount out (givenIn) or the amount in (givenOut). */
export function onSwap(state: PoolState, kind: SwapKind, indexIn: number, indexOut: number, amount: bigint): bigint {
  const fee = decimalToUnits(state.pool.swapFee, 18);
  return state.pool.poolType === 'Weighted'
    ? weightedSwap(state, kind, indexIn, indexOut, amount, fee)
    : stableSwap(state, kind, indexIn, indexOut, amount, fee);
}
