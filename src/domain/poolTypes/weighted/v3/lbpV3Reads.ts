import { unitsToDecimal } from '../../../decimal';
import type { StoredPool } from '../../../pool';
import {
  AT_POOL,
  chainCall,
  getter,
  structGetter,
  type ChainCall,
  type ChainReads,
  type VaultTokens,
} from '../../chainReads';
import { LBP_PARAM } from './lbpV3Stored';
import { lbpWeights } from './lbpV3Weights';

/**
 * What a V3 LBP reads at the head beside the Vault reads, from its own getters pinned to the
 * block: the token indices, whether the project token may be sold back, the migration router, and
 * for the weighted LBP its weight schedule (`getGradualWeightUpdateParams`), the seedless virtual
 * reserve and the minimum balances of the 2026 build; for the fixed-price LBP its rate and its
 * window (`getFixedPriceLBPoolImmutableData`, the only getter that returns it). A getter the build
 * lacks reverts and sets nothing.
 */
export interface LbpChainState {
  readonly projectTokenIndex?: number;
  readonly reserveTokenIndex?: number;
  readonly isProjectTokenSwapInBlocked?: boolean;
  readonly migrationRouter?: string;
  readonly startTime?: bigint;
  readonly endTime?: bigint;
  readonly startWeights?: readonly bigint[];
  readonly endWeights?: readonly bigint[];
  readonly reserveTokenVirtualBalanceScaled18?: bigint;
  readonly minTokenBalances?: readonly bigint[];
  readonly projectTokenRate?: bigint;
  /** The weighted LBP's weights at the time the state was last evaluated for (`at`), shown as the tokens' weights. */
  readonly weightsNow?: readonly bigint[];
}

type Draft = { -readonly [K in keyof LbpChainState]: LbpChainState[K] };

const GET_TOKEN_INDICES = getter('getTokenIndices', [], ['uint256', 'uint256']);
const IS_PROJECT_TOKEN_SWAP_IN_BLOCKED = getter('isProjectTokenSwapInBlocked', [], ['bool']);
const GET_MIGRATION_ROUTER = getter('getMigrationRouter', [], ['address']);
const GET_GRADUAL_WEIGHT_UPDATE_PARAMS = getter(
  'getGradualWeightUpdateParams',
  [],
  ['uint256', 'uint256', 'uint256[]', 'uint256[]'],
);
const GET_RESERVE_TOKEN_VIRTUAL_BALANCE = getter('getReserveTokenVirtualBalance', [], ['uint256', 'uint256']);
const GET_MIN_TOKEN_BALANCES = getter('getMinTokenBalances', [], ['uint256[]']);
const GET_PROJECT_TOKEN_RATE = getter('getProjectTokenRate', [], ['uint256']);
/** `FixedPriceLBPoolImmutableData`: tokens, scaling factors, start, end, project index, reserve index, rate. */
const GET_FIXED_PRICE_IMMUTABLE_DATA = structGetter(
  'getFixedPriceLBPoolImmutableData',
  [],
  ['address[]', 'uint256[]', 'uint256', 'uint256', 'uint256', 'uint256', 'uint256'],
);

function saleCalls(): ChainCall<Draft>[] {
  return [
    chainCall(AT_POOL, GET_TOKEN_INDICES, [], (d: Draft, [project, reserve]) => {
      d.projectTokenIndex = Number(project);
      d.reserveTokenIndex = Number(reserve);
    }),
    chainCall(AT_POOL, IS_PROJECT_TOKEN_SWAP_IN_BLOCKED, [], (d: Draft, [v]) => (d.isProjectTokenSwapInBlocked = v)),
    chainCall(AT_POOL, GET_MIGRATION_ROUTER, [], (d: Draft, [v]) => (d.migrationRouter = v)),
  ];
}

function weightedCalls(): ChainCall<Draft>[] {
  return [
    chainCall(AT_POOL, GET_GRADUAL_WEIGHT_UPDATE_PARAMS, [], (d: Draft, [start, end, startWeights, endWeights]) => {
      d.startTime = start;
      d.endTime = end;
      d.startWeights = [...startWeights];
      d.endWeights = [...endWeights];
    }),
    chainCall(
      AT_POOL,
      GET_RESERVE_TOKEN_VIRTUAL_BALANCE,
      [],
      (d: Draft, [, scaled18]) => (d.reserveTokenVirtualBalanceScaled18 = scaled18),
    ),
    chainCall(AT_POOL, GET_MIN_TOKEN_BALANCES, [], (d: Draft, [v]) => (d.minTokenBalances = [...v])),
  ];
}

/** `pool` with the sale as read in `typeParams` (token indices turned into the Vault's token addresses). */
function applyLbp(pool: StoredPool, s: LbpChainState, vaultTokens: VaultTokens): StoredPool {
  const v3 = pool.v3;
  if (v3 === undefined) return pool;
  const tokenAt = (i: number | undefined) => (i === undefined ? undefined : vaultTokens.tokens[i]?.address);
  const project = tokenAt(s.projectTokenIndex);
  const reserve = tokenAt(s.reserveTokenIndex);
  const read: Record<string, string | undefined> = {
    [LBP_PARAM.projectToken]: project,
    [LBP_PARAM.reserveToken]: reserve,
    [LBP_PARAM.blocked]: s.isProjectTokenSwapInBlocked?.toString(),
    [LBP_PARAM.migrationRouter]: s.migrationRouter,
    [LBP_PARAM.startTime]: s.startTime?.toString(),
    [LBP_PARAM.endTime]: s.endTime?.toString(),
    [LBP_PARAM.virtualBalance]: s.reserveTokenVirtualBalanceScaled18?.toString(),
    [LBP_PARAM.projectTokenRate]: s.projectTokenRate?.toString(),
  };
  const indices = s.projectTokenIndex !== undefined && s.reserveTokenIndex !== undefined;
  if (indices && s.startWeights && s.endWeights) {
    read[LBP_PARAM.projectStartWeight] = s.startWeights[s.projectTokenIndex!]?.toString();
    read[LBP_PARAM.reserveStartWeight] = s.startWeights[s.reserveTokenIndex!]?.toString();
    read[LBP_PARAM.projectEndWeight] = s.endWeights[s.projectTokenIndex!]?.toString();
    read[LBP_PARAM.reserveEndWeight] = s.endWeights[s.reserveTokenIndex!]?.toString();
  }
  const typeParams = { ...(v3.typeParams ?? {}) };
  for (const [k, value] of Object.entries(read)) if (value !== undefined) typeParams[k] = value;
  const index = new Map(vaultTokens.tokens.map((t, i) => [t.address, i]));
  const byToken = (list: readonly bigint[] | undefined, address: string) => list?.[index.get(address) ?? -1];
  const min = s.minTokenBalances;
  const tokens = s.weightsNow
    ? pool.tokens.map((t) => {
        const w = byToken(s.weightsNow, t.address);
        return w === undefined ? t : { ...t, weight: unitsToDecimal(w, 18) };
      })
    : pool.tokens;
  return {
    ...pool,
    tokens,
    v3: {
      ...v3,
      typeParams,
      ...(min !== undefined && min.length === pool.tokens.length
        ? { minTokenBalances: pool.tokens.map((t) => unitsToDecimal(byToken(min, t.address) ?? 0n, 18)) }
        : {}),
    },
  };
}

const withoutTime = ({ weightsNow: _now, ...rest }: LbpChainState): LbpChainState => rest;

/** The weighted LBP's reads: its weights move with time over the sale. */
export const LBP_V3_CHAIN: ChainReads<LbpChainState, Draft> = {
  events: [],
  draft: () => ({}),
  first: () => [...saleCalls(), ...weightedCalls()],
  finish: (d) => ({ ...d }),
  apply: applyLbp,
  at(s, timestamp) {
    const { projectTokenIndex: p, reserveTokenIndex: r, startTime, endTime, startWeights, endWeights } = s;
    if (p === undefined || r === undefined || startTime === undefined || endTime === undefined) return s;
    if (!startWeights || !endWeights) return s;
    const now = lbpWeights(
      { projectTokenIndex: p, reserveTokenIndex: r, startTime, endTime, startWeights, endWeights },
      timestamp,
    );
    const before = s.weightsNow;
    if (before && before.length === now.length && before.every((w, i) => w === now[i])) return s;
    return { ...s, weightsNow: now };
  },
  movesWithTime: (s) =>
    s.startWeights !== undefined && s.endWeights !== undefined && s.startWeights.some((w, i) => w !== s.endWeights![i]),
  comparable: withoutTime,
};

/** The fixed-price LBP's reads: nothing moves with time but whether the window is open. */
export const FIXED_PRICE_LBP_V3_CHAIN: ChainReads<LbpChainState, Draft> = {
  events: [],
  draft: () => ({}),
  first: () => [
    ...saleCalls(),
    chainCall(AT_POOL, GET_PROJECT_TOKEN_RATE, [], (d: Draft, [v]) => (d.projectTokenRate = v)),
    chainCall(AT_POOL, GET_FIXED_PRICE_IMMUTABLE_DATA, [], (d: Draft, [, , start, end]) => {
      d.startTime = start;
      d.endTime = end;
    }),
  ],
  finish: (d) => ({ ...d }),
  apply: applyLbp,
};
