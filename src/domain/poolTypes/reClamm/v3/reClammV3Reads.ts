import type { StoredPool } from '../../../pool';
import { AT_POOL, chainCall, chainEvent, getter, type ChainReads } from '../../chainReads';
import type { ReClammState } from './reClammV3State';

/**
 * What a ReClamm pool (v1 and v2 alike) reads at the head beside the Vault reads: the state its
 * swaps start from, through the pool's own getters. The virtual balances and the price range a
 * swap uses move with time from these (`reClammV3VirtualBalances.ts`), evaluated by the math at the
 * quote's block; what is read only changes when the pool writes it, each write with its event
 * (a swap or liquidity change writes the virtual balances and the timestamp; governance the
 * margin, the shift rate and the price ratio), so nothing is read again without one.
 */
export interface ReClammChainState extends Omit<ReClammState, 'version'> {
  /** What the shift base derives from (shown with the pool, not priced with). */
  readonly dailyPriceShiftExponent?: bigint;
}

interface ReClammDraft {
  dailyPriceShiftExponent?: bigint;
  lastTimestamp?: bigint;
  lastVirtualBalances?: readonly [bigint, bigint];
  centerednessMargin?: bigint;
  dailyPriceShiftBase?: bigint;
  priceRatio?: ReClammState['priceRatio'];
}

const GET_LAST_TIMESTAMP = getter('getLastTimestamp', [], ['uint256']);
const GET_LAST_VIRTUAL_BALANCES = getter('getLastVirtualBalances', [], ['uint256', 'uint256']);
const GET_CENTEREDNESS_MARGIN = getter('getCenterednessMargin', [], ['uint256']);
const GET_DAILY_PRICE_SHIFT_BASE = getter('getDailyPriceShiftBase', [], ['uint256']);
const GET_DAILY_PRICE_SHIFT_EXPONENT = getter('getDailyPriceShiftExponent', [], ['uint256']);
// `PriceRatioState`: uint96 start and end fourth roots, uint32 start and end times.
const GET_PRICE_RATIO_STATE = getter('getPriceRatioState', [], ['uint256', 'uint256', 'uint256', 'uint256']);

const EVENTS = [
  chainEvent('VirtualBalancesUpdated(uint256,uint256)'),
  chainEvent('LastTimestampUpdated(uint32)'),
  chainEvent('PriceRatioStateUpdated(uint256,uint256,uint256,uint256)'),
  chainEvent('DailyPriceShiftExponentUpdated(uint256,uint256)'),
  chainEvent('CenterednessMarginUpdated(uint256)'),
];

export const RECLAMM_CHAIN: ChainReads<ReClammChainState | undefined, ReClammDraft, undefined> = {
  events: EVENTS,
  draft: () => ({}),
  first: () => [
    chainCall(AT_POOL, GET_LAST_TIMESTAMP, [], (d: ReClammDraft, [t]) => (d.lastTimestamp = t)),
    chainCall(AT_POOL, GET_LAST_VIRTUAL_BALANCES, [], (d: ReClammDraft, [a, b]) => (d.lastVirtualBalances = [a, b])),
    chainCall(AT_POOL, GET_CENTEREDNESS_MARGIN, [], (d: ReClammDraft, [m]) => (d.centerednessMargin = m)),
    chainCall(AT_POOL, GET_DAILY_PRICE_SHIFT_BASE, [], (d: ReClammDraft, [b]) => (d.dailyPriceShiftBase = b)),
    chainCall(AT_POOL, GET_DAILY_PRICE_SHIFT_EXPONENT, [], (d: ReClammDraft, [e]) => (d.dailyPriceShiftExponent = e)),
    chainCall(AT_POOL, GET_PRICE_RATIO_STATE, [], (d: ReClammDraft, [start, end, startTime, endTime]) => {
      d.priceRatio = {
        startFourthRootPriceRatio: start,
        endFourthRootPriceRatio: end,
        priceRatioUpdateStartTime: startTime,
        priceRatioUpdateEndTime: endTime,
      };
    }),
  ],
  // A pool that reverted a getter keeps its stored (subgraph) values rather than half a state.
  finish(d) {
    const { lastTimestamp, lastVirtualBalances, centerednessMargin, dailyPriceShiftBase, priceRatio } = d;
    if (
      lastTimestamp === undefined ||
      lastVirtualBalances === undefined ||
      centerednessMargin === undefined ||
      dailyPriceShiftBase === undefined ||
      priceRatio === undefined
    )
      return undefined;
    const state = { lastTimestamp, lastVirtualBalances, centerednessMargin, dailyPriceShiftBase, priceRatio };
    const exponent = d.dailyPriceShiftExponent;
    return exponent === undefined ? state : { ...state, dailyPriceShiftExponent: exponent };
  },
  apply(pool, s): StoredPool {
    if (s === undefined) return pool;
    const r = s.priceRatio;
    return {
      ...pool,
      lastTimestamp: Number(s.lastTimestamp),
      lastVirtualBalances: s.lastVirtualBalances.map(String),
      dailyPriceShiftBase: String(s.dailyPriceShiftBase),
      ...(s.dailyPriceShiftExponent !== undefined
        ? { dailyPriceShiftExponent: String(s.dailyPriceShiftExponent) }
        : {}),
      centerednessMargin: String(s.centerednessMargin),
      startFourthRootPriceRatio: String(r.startFourthRootPriceRatio),
      endFourthRootPriceRatio: String(r.endFourthRootPriceRatio),
      priceRatioUpdateStartTime: Number(r.priceRatioUpdateStartTime),
      priceRatioUpdateEndTime: Number(r.priceRatioUpdateEndTime),
    };
  },
};
