import { decimalToUnits } from '../../decimal';
import { divDown, divUp, mulDown, mulUp, ONE, complement } from './gyroFixedPoint';
import { UnsupportedPoolError, type SwapKind } from '../../swap/poolModel';
import { parseFee } from '../../protocols/v2/vaultPool';
import type { GyroParamName, GyroSpec } from './gyroParams';

/**
 * What the Gyroscope pools (2-CLP, 3-CLP, E-CLP) share around their math: parameters read from
 * the stored pool, scaling factors, and the swap scaling every one of them runs (fee off the raw
 * amount in, upscale, math, downscale; given out: fee added to the downscaled amount in).
 */

/** A Gyro parameter by its subgraph name as a fixed-point integer (18 decimals, 38 for the E-CLP's derived ones). */
export function gyroParam(spec: GyroSpec, name: GyroParamName, decimals: number): bigint {
  const value = spec.gyro?.[name];
  if (value === undefined || value === null || value === '')
    throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} lacks its ${name} parameter`);
  return decimalToUnits(value, decimals);
}

/**
 * The pools' scaling factor: 10^(18 - decimals) as an 18-decimal number, times the token's rate
 * (mulDown) for the pool versions with rate providers; the rate is the stored token priceRate.
 */
export function gyroScalingFactor(
  spec: GyroSpec,
  decimals: number,
  priceRate: string | null | undefined,
  withRate: boolean,
): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18)
    throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has a token with ${decimals} decimals`);
  const base = ONE * 10n ** BigInt(18 - decimals);
  if (!withRate) return base;
  const rate = decimalToUnits(priceRate ?? '1', 18);
  if (rate <= 0n)
    throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has a token rate of ${String(priceRate)}`);
  return mulDown(base, rate);
}

export interface GyroSwapScaling {
  readonly fee: bigint;
  readonly scalingFactors: readonly bigint[];
}

export function gyroSwapScaling(spec: GyroSpec, withRates: boolean): GyroSwapScaling {
  return {
    fee: parseFee(spec),
    scalingFactors: spec.tokens.map((t) => gyroScalingFactor(spec, t.decimals, t.priceRate, withRates)),
  };
}

export const upscale = (amount: bigint, sf: bigint): bigint => mulDown(amount, sf);

/**
 * One swap through the pools' common fee and scaling: `math(kind, upscaledAmount)` is the pool's curve on
 * upscaled units (amount out for given in, amount in before the fee for given out).
 */
export function scaledSwap(
  scaling: GyroSwapScaling,
  kind: SwapKind,
  i: number,
  j: number,
  amount: bigint,
  math: (upscaled: bigint) => bigint,
): bigint {
  const sfIn = scaling.scalingFactors[i]!;
  const sfOut = scaling.scalingFactors[j]!;
  if (kind === 'givenIn') {
    const afterFee = amount - mulUp(amount, scaling.fee);
    return divDown(math(mulDown(afterFee, sfIn)), sfOut);
  }
  const amountIn = divUp(math(mulDown(amount, sfOut)), sfIn);
  return divUp(amountIn, complement(scaling.fee));
}
