import { z } from 'zod';
import { DecimalError, isZeroDecimal, toPlainDecimal } from './decimal';
import { parseAddress } from './address';
import type { PoolCore, StoredPoolToken } from './pool';

/**
 * Subgraph pool (as the Balancer V2 subgraph and the mainnet snapshot the tests read spell it) -> the
 * stored `PoolCore`. Pure: the same input always gives the same output, so the pool-update job can
 * diff normalized pools to find real changes.
 */

// The regex keeps the subgraph error wording; parseAddress then cannot fail and gives the brand.
const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 20-byte hex address')
  .transform((s) => parseAddress(s));
const decimalString = z.union([z.string(), z.number()]).transform((v) => String(v));
const optDecimal = decimalString.nullish().transform((v) => (v === undefined || v === null || v === '' ? null : v));
const optInt = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '') return null;
    const n = Number(v);
    if (!Number.isSafeInteger(n)) {
      ctx.addIssue({ code: 'custom', message: `expected an integer, got '${v}'` });
      return z.NEVER;
    }
    return n;
  });
const optAddress = z
  .string()
  .nullish()
  .transform((v) => (v ? v.toLowerCase() : null));

const GYRO_FIELDS = [
  'alpha',
  'beta',
  'sqrtAlpha',
  'sqrtBeta',
  'root3Alpha',
  'c',
  's',
  'lambda',
  'tauAlphaX',
  'tauAlphaY',
  'tauBetaX',
  'tauBetaY',
  'u',
  'v',
  'w',
  'z',
  'dSq',
] as const;

const subgraphToken = z.object({
  address,
  symbol: z.string().nullish(),
  name: z.string().nullish(),
  decimals: z.union([z.number(), z.string()]).transform(Number).pipe(z.number().int().min(0).max(77)),
  balance: decimalString,
  weight: optDecimal,
  priceRate: optDecimal,
  oldPriceRate: optDecimal,
  isExemptFromYieldProtocolFee: z.boolean().nullish(),
  token: z.object({ symbol: z.string().nullish(), name: z.string().nullish() }).nullish(),
});

const subgraphPool = z.looseObject({
  id: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected a 32-byte hex pool id'),
  address,
  poolType: z.string().min(1),
  poolTypeVersion: optInt,
  factory: optAddress,
  owner: optAddress,
  symbol: z.string().nullish(),
  name: z.string().nullish(),
  swapFee: decimalString,
  swapEnabled: z.boolean().nullish(),
  isPaused: z.boolean().nullish(),
  isInRecoveryMode: z.boolean().nullish(),
  amp: optDecimal,
  totalShares: decimalString,
  totalWeight: optDecimal,
  totalSwapVolume: optDecimal,
  totalSwapFee: optDecimal,
  totalLiquidity: optDecimal,
  createTime: optInt,
  swapsCount: optDecimal,
  holdersCount: optDecimal,
  tokens: z.array(subgraphToken).min(1),
  tokensList: z.array(address).nullish(),
  expiryTime: optInt,
  unitSeconds: optInt,
  principalToken: optAddress,
  baseToken: optAddress,
  mainIndex: optInt,
  wrappedIndex: optInt,
  lowerTarget: optDecimal,
  upperTarget: optDecimal,
  managementFee: optDecimal,
  protocolYieldFeeCache: optDecimal,
  protocolSwapFeeCache: optDecimal,
  lastJoinExitAmp: optDecimal,
  lastPostJoinExitInvariant: optDecimal,
  priceRateProviders: z.array(z.object({ address, token: z.union([address, z.object({ address })]) })).nullish(),
});

export type SubgraphPoolInput = z.input<typeof subgraphPool>;

export type NormalizeResult = { ok: true; pool: PoolCore } | { ok: false; id: string; error: string };

function plain(value: string | null, field: string, maxFraction?: number): string | null {
  if (value === null) return null;
  try {
    return toPlainDecimal(value, maxFraction);
  } catch (e) {
    throw new DecimalError(`${field}: ${(e as Error).message}`);
  }
}

/** `{ [key]: value }` when the value is there, `{}` otherwise (optional stored fields). */
function present<K extends string>(key: K, value: string | null): Partial<Record<K, string>> {
  return value === null ? {} : ({ [key]: value } as Record<K, string>);
}

export function normalizePool(raw: unknown): NormalizeResult {
  const id =
    typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'string'
      ? (raw as { id: string }).id
      : '(no id)';
  const parsed = subgraphPool.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, id, error: `${issue?.path.join('.') || 'pool'}: ${issue?.message ?? 'invalid'}` };
  }
  const p = parsed.data;
  try {
    const tokens: StoredPoolToken[] = p.tokens.map((t, i) => ({
      address: t.address,
      symbol: t.symbol ?? t.token?.symbol ?? null,
      name: t.name ?? t.token?.name ?? null,
      decimals: t.decimals,
      balance: plain(t.balance, `tokens.${i}.balance`, t.decimals) as string,
      weight: plain(t.weight, `tokens.${i}.weight`),
      priceRate: plain(t.priceRate, `tokens.${i}.priceRate`) ?? '1',
      // Present only where the subgraph gives them, so pools without them normalize as before.
      ...present('oldPriceRate', plain(t.oldPriceRate, `tokens.${i}.oldPriceRate`)),
      ...(typeof t.isExemptFromYieldProtocolFee === 'boolean'
        ? { isExemptFromYieldProtocolFee: t.isExemptFromYieldProtocolFee }
        : {}),
    }));
    const gyro: Record<string, string> = {};
    for (const f of GYRO_FIELDS) {
      const v = p[f];
      if (typeof v === 'string' || typeof v === 'number') gyro[f] = plain(String(v), f) as string;
    }
    const pool: PoolCore = {
      id: p.id.toLowerCase(),
      address: p.address,
      poolType: p.poolType,
      poolTypeVersion: p.poolTypeVersion ?? 1,
      factory: p.factory,
      owner: p.owner,
      symbol: p.symbol ?? null,
      name: p.name ?? null,
      swapFee: plain(p.swapFee, 'swapFee') as string,
      swapEnabled: p.swapEnabled ?? true,
      isPaused: p.isPaused ?? false,
      isInRecoveryMode: p.isInRecoveryMode ?? false,
      amp: plain(p.amp, 'amp'),
      totalShares: plain(p.totalShares, 'totalShares', 18) as string,
      totalWeight: plain(p.totalWeight, 'totalWeight') ?? '0',
      totalSwapVolume: plain(p.totalSwapVolume, 'totalSwapVolume') ?? '0',
      totalSwapFee: plain(p.totalSwapFee, 'totalSwapFee') ?? '0',
      createTime: p.createTime,
      swapsCount: plain(p.swapsCount, 'swapsCount'),
      holdersCount: plain(p.holdersCount, 'holdersCount'),
      tokens,
      tokensList: p.tokensList ?? tokens.map((t) => t.address),
      expiryTime: p.expiryTime,
      unitSeconds: p.unitSeconds,
      principalToken: p.principalToken,
      baseToken: p.baseToken,
      mainIndex: p.mainIndex,
      wrappedIndex: p.wrappedIndex,
      lowerTarget: plain(p.lowerTarget, 'lowerTarget'),
      upperTarget: plain(p.upperTarget, 'upperTarget'),
      managementFee: plain(p.managementFee, 'managementFee'),
      protocolYieldFeeCache: plain(p.protocolYieldFeeCache, 'protocolYieldFeeCache'),
      ...present('protocolSwapFeeCache', plain(p.protocolSwapFeeCache, 'protocolSwapFeeCache')),
      ...present('lastJoinExitAmp', plain(p.lastJoinExitAmp, 'lastJoinExitAmp')),
      ...present('lastPostJoinExitInvariant', plain(p.lastPostJoinExitInvariant, 'lastPostJoinExitInvariant')),
      priceRateProviders: (p.priceRateProviders ?? []).map((r) => ({
        address: r.address,
        token: typeof r.token === 'string' ? r.token : r.token.address,
      })),
      gyro: Object.keys(gyro).length > 0 ? gyro : null,
      subgraphLiquidity: plain(p.totalLiquidity, 'totalLiquidity'),
      routable: tokens.some((t) => t.address !== p.address && !isZeroDecimal(t.balance)),
    };
    return { ok: true, pool };
  } catch (e) {
    return { ok: false, id, error: (e as Error).message };
  }
}

/** Accepts the seed/snapshot file formats: an array of pools or `{ pools: [...] }`. */
export function poolsFromFile(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (typeof json === 'object' && json !== null && Array.isArray((json as { pools?: unknown }).pools)) {
    return (json as { pools: unknown[] }).pools;
  }
  throw new Error('expected an array of pools or an object with a "pools" array');
}
