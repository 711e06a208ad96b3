import { unitsToDecimal } from '../decimal';
import type { StoredPool } from '../pool';
import { AT_POOL, AT_VAULT, at, chainCall, chainEvent, getter, type ChainCall } from './chainReads';

/**
 * The chain reads of the protocol fee basis of pools that pay due protocol fees in tokens at a
 * join or exit (`legacyFeeBasis.ts`): `getLastInvariant()` (stable pools also answer the amp it
 * was taken at; weighted v1 the invariant alone, same selector) and the percentage the Vault
 * hands them, its ProtocolFeesCollector's, asked in the second round (once per collector: the
 * reader asks a call that several pools make once). The collector stays in the state: its fee
 * change event re-reads these pools (`watches`).
 */

export interface LegacyFeeState {
  /** `getLastInvariant()`; stable pools also the amp it was taken at, with the amp's precision. */
  readonly lastInvariant?: { readonly invariant: bigint; readonly amp?: bigint };
  /** The Vault's ProtocolFeesCollector's `getSwapFeePercentage()`. */
  readonly vaultProtocolSwapFee?: bigint;
  /** That collector, lower case. */
  readonly protocolFeesCollector?: string;
}

export type LegacyFeeDraft = { -readonly [K in keyof LegacyFeeState]: LegacyFeeState[K] };

const GET_LAST_INVARIANT = getter('getLastInvariant', [], ['uint256']);
const GET_LAST_INVARIANT_AND_AMP = getter('getLastInvariant', [], ['uint256', 'uint256']);
/** The V2 Vault's fees collector, and the collector's swap fee percentage. */
const GET_PROTOCOL_FEES_COLLECTOR = getter('getProtocolFeesCollector', [], ['address']);
const GET_SWAP_FEE_PERCENTAGE = getter('getSwapFeePercentage', [], ['uint256']);

/** The collector's event that changes what these pools pay (re-reads them through `watches`). */
export const COLLECTOR_FEE_EVENT = chainEvent('SwapFeePercentageChanged(uint256)');

export function legacyFeeCalls<D extends LegacyFeeDraft>(stable: boolean): ChainCall<D>[] {
  return [
    stable
      ? chainCall(
          AT_POOL,
          GET_LAST_INVARIANT_AND_AMP,
          [],
          (d: D, [invariant, amp]) => (d.lastInvariant = { invariant, amp }),
        )
      : chainCall(AT_POOL, GET_LAST_INVARIANT, [], (d: D, [invariant]) => (d.lastInvariant = { invariant })),
    chainCall(AT_VAULT, GET_PROTOCOL_FEES_COLLECTOR, [], (d: D, [collector]) => (d.protocolFeesCollector = collector)),
  ];
}

/** The second round: the collector's percentage (without the invariant it is of no use: the model then assumes no fee is due). */
export function collectorFeeCalls<D extends LegacyFeeDraft>(draft: D): ChainCall<D>[] {
  if (!draft.protocolFeesCollector || !draft.lastInvariant) return [];
  return [
    chainCall(
      at(draft.protocolFeesCollector),
      GET_SWAP_FEE_PERCENTAGE,
      [],
      (d: D, [fee]) => (d.vaultProtocolSwapFee = fee),
    ),
  ];
}

/** `pool` with the basis read; `ampPrecision` is the pool's amp precision (stable pools). */
export function applyLegacyFee(pool: StoredPool, s: LegacyFeeState, ampPrecision: bigint | undefined): StoredPool {
  return {
    ...pool,
    ...(s.lastInvariant ? { lastInvariant: unitsToDecimal(s.lastInvariant.invariant, 18) } : {}),
    ...(s.lastInvariant?.amp !== undefined
      ? { lastInvariantAmp: unitsToDecimal((s.lastInvariant.amp * 1000n) / (ampPrecision ?? 1000n), 3) }
      : {}),
    ...(s.vaultProtocolSwapFee !== undefined
      ? { vaultProtocolSwapFee: unitsToDecimal(s.vaultProtocolSwapFee, 18) }
      : {}),
  };
}

export function legacyFeeWatches(s: LegacyFeeState): readonly string[] {
  return s.protocolFeesCollector ? [s.protocolFeesCollector] : [];
}
