import { toPlainDecimal } from '../domain/decimal';
import type { OrderKind } from './types';

/**
 * Slippage and the Vault's signed limits, in exact integer arithmetic. The Vault checks
 * `assetDeltas[i] <= limits[i]` where a positive delta is paid in and a negative one paid out, so
 * the in-token gets the most it may take (positive) and the out-token minus the least it must pay.
 */

export const INT256_MAX = (1n << 255n) - 1n;
export const INT256_MIN = -(1n << 255n);
export const UINT256_MAX = (1n << 256n) - 1n;

export class LimitError extends Error {
  override readonly name: string = 'LimitError';
}

/** A non-negative decimal ("0.01", "1e-7") as numerator / 10^scale. */
export function decimalFraction(value: string): { num: bigint; den: bigint } {
  const plain = toPlainDecimal(value);
  if (plain.startsWith('-')) throw new LimitError(`slippage must not be negative, got ${value}`);
  const [i = '0', f = ''] = plain.split('.');
  return { num: BigInt(i + f), den: 10n ** BigInt(f.length) };
}

/** floor(returnAmount * (1 - s)): the least a sell may return. */
export function minOut(returnAmount: bigint, slippage: string): bigint {
  const { num, den } = decimalFraction(slippage);
  if (num >= den) throw new LimitError('slippage must be below 1');
  return (returnAmount * (den - num)) / den;
}

/** ceil(returnAmount * (1 + s)): the most a buy may cost. */
export function maxIn(returnAmount: bigint, slippage: string): bigint {
  const { num, den } = decimalFraction(slippage);
  if (num >= den) throw new LimitError('slippage must be below 1');
  const n = returnAmount * (den + num);
  return (n + den - 1n) / den;
}

export interface SignedLimits {
  readonly limits: bigint[];
  /** What the sender pays at most (sell: the amount; buy: maxIn). */
  readonly maxPaid: bigint;
  /** What the receiver gets at least (sell: minOut; buy: the amount). */
  readonly minReceived: bigint;
}

export function signedLimits(args: {
  kind: OrderKind;
  assetCount: number;
  inIndex: number;
  outIndex: number;
  amount: bigint;
  returnAmount: bigint;
  slippage: string;
}): SignedLimits {
  const { kind, assetCount, inIndex, outIndex, amount, returnAmount, slippage } = args;
  const maxPaid = kind === 'sell' ? amount : maxIn(returnAmount, slippage);
  const minReceived = kind === 'sell' ? minOut(returnAmount, slippage) : amount;
  if (maxPaid > INT256_MAX)
    throw new LimitError(`the input limit ${maxPaid} does not fit the Vault's int256 limits; ask for a smaller amount`);
  if (minReceived > -INT256_MIN)
    throw new LimitError(
      `the output limit ${minReceived} does not fit the Vault's int256 limits; ask for a smaller amount`,
    );
  const limits = new Array<bigint>(assetCount).fill(0n);
  limits[inIndex] = maxPaid;
  limits[outIndex] = -minReceived;
  return { limits, maxPaid, minReceived };
}
