import { unitsToDecimal } from '../../decimal';
import { AT_POOL, chainCall, chainEvent, getter, lastLogRead, type ChainCall, type LastLogRead } from '../chainReads';

/**
 * The amplification every stable family reads (Stable, MetaStable, StablePhantom,
 * ComposableStable): `getAmplificationParameter()` at the block and, while it moves, the ramp in
 * progress, which no getter returns (the pool keeps it in storage): its last `AmpUpdateStarted`.
 * A swap in a later block uses the ramp's value at its timestamp
 * (`StablePoolAmplification._getAmplificationParameter`).
 */

/** Amp with its precision, as `getAmplificationParameter()` answers it. */
export interface Amp {
  readonly value: bigint;
  readonly precision: bigint;
}

/** An amp ramp as the pool stores it: values with the amp's precision, times in unix seconds. */
export interface AmpRamp {
  readonly startValue: bigint;
  readonly endValue: bigint;
  readonly startTime: bigint;
  readonly endTime: bigint;
}

export interface AmpState {
  /** At the block's timestamp or, once evaluated (`at`), at the quote's. */
  readonly amp?: Amp;
  readonly ampRamp?: AmpRamp;
}

export interface AmpDraft {
  amp?: Amp;
  ampRamp?: AmpRamp;
  /** Read in the first round, for the second (the ramp): not part of the state. */
  ampUpdating?: boolean;
}

const GET_AMP = getter('getAmplificationParameter', [], ['uint256', 'bool', 'uint256']);
const AMP_UPDATE_STARTED = chainEvent('AmpUpdateStarted(uint256,uint256,uint256,uint256)', [
  'uint256',
  'uint256',
  'uint256',
  'uint256',
]);

/** The pool events that move its amp. */
export const AMP_EVENTS = [AMP_UPDATE_STARTED, chainEvent('AmpUpdateStopped(uint256)')];

export function ampCalls<D extends AmpDraft>(): ChainCall<D>[] {
  return [
    chainCall(AT_POOL, GET_AMP, [], (d: D, [value, updating, precision]) => {
      d.amp = { value, precision };
      d.ampUpdating = updating;
    }),
  ];
}

/** The second round's read of the ramp in progress, when the first said the amp is moving. */
export function ampRampReads<D extends AmpDraft>(draft: D): LastLogRead<D>[] {
  if (!draft.ampUpdating) return [];
  return [
    lastLogRead(AMP_UPDATE_STARTED, (d: D, [startValue, endValue, startTime, endTime]) => {
      d.ampRamp = { startValue, endValue, startTime, endTime };
      return true;
    }),
  ];
}

/** The amp a pool's swap uses at `timestamp` during `ramp` (integer arithmetic, as the contract). */
export function ampAt(ramp: AmpRamp, timestamp: bigint): bigint {
  if (timestamp >= ramp.endTime) return ramp.endValue;
  const elapsed = timestamp > ramp.startTime ? timestamp - ramp.startTime : 0n;
  const duration = ramp.endTime - ramp.startTime;
  return ramp.endValue > ramp.startValue
    ? ramp.startValue + ((ramp.endValue - ramp.startValue) * elapsed) / duration
    : ramp.startValue - ((ramp.startValue - ramp.endValue) * elapsed) / duration;
}

/** The amp at `timestamp`: the same object when no ramp moves it. */
export function ampAtTime(s: AmpState, timestamp: bigint): Amp | undefined {
  if (!s.ampRamp || !s.amp) return s.amp;
  const value = ampAt(s.ampRamp, timestamp);
  return value === s.amp.value ? s.amp : { ...s.amp, value };
}

/** An amp value as stored: without its precision, to 3 decimals (Balancer's precision is 1000). */
export function storedAmp(value: bigint, precision: bigint): string {
  return unitsToDecimal((value * 1000n) / precision, 3);
}

/** The precision of the amp read, when it can divide. */
export function ampPrecision(s: AmpState): bigint | undefined {
  return s.amp && s.amp.precision > 0n ? s.amp.precision : undefined;
}
