import type { V3PoolState } from '../../../protocols/v3/vault/poolState';

/**
 * A ReClamm pool's own state, as its `getReClammPoolDynamicData` answers it at a block. The virtual
 * balances stored are the ones the pool last wrote (`lastVirtualBalances` at `lastTimestamp`); the
 * ones a swap uses move with time from there (reClammV3VirtualBalances.ts).
 *
 * Version 1 and 2 are the two deployed generations of the contract: version 2 caps the time since
 * the last update at 30 days and never lets the overvalued virtual balance fall below the value
 * that would centre the pool when it shifts its range.
 */
export type ReClammVersion = 1 | 2;

/** `PriceRatioState`: the fourth root of the price ratio moves geometrically from start to end. */
export interface ReClammPriceRatioState {
  readonly startFourthRootPriceRatio: bigint;
  readonly endFourthRootPriceRatio: bigint;
  /** Unix seconds. */
  readonly priceRatioUpdateStartTime: bigint;
  readonly priceRatioUpdateEndTime: bigint;
}

/** What the ReClamm math reads beyond the Vault's state. */
export interface ReClammState {
  readonly version: ReClammVersion;
  /** Scaled18, token order. */
  readonly lastVirtualBalances: readonly [bigint, bigint];
  /** Unix seconds of the pool's last virtual balance update. */
  readonly lastTimestamp: bigint;
  /** 1 - tau, 18 decimals: the overvalued virtual balance is multiplied by it once a second out of range. */
  readonly dailyPriceShiftBase: bigint;
  /** 18 decimals: below this centeredness the pool is out of its target range. */
  readonly centerednessMargin: bigint;
  readonly priceRatio: ReClammPriceRatioState;
}

/** A ReClamm pool: the Vault's state plus its own state. */
export interface ReClammV3State extends V3PoolState, ReClammState {}
