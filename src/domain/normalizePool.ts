import { z } from 'zod';
import { DecimalError, isZeroDecimal, toPlainDecimal } from './decimal';
import { parseAddress } from './address';
import type { PoolCore, StoredPoolToken, StoredTokenParams, StoredTypeParams } from './pool';
import type { ParamField } from './poolTypes/paramField';
import { storedFields } from './poolTypes/registry';
import { impossibleValue } from './poolValues';
import { isV3CataloguePool, normalizeV3Pool } from './protocols/v3/stored/normalizeV3Pool';

/**
 * Subgraph pool (as the Balancer V2 subgraph and the mainnet snapshot the tests read spell it, or a
 * V3 catalogue pool, marked `protocolVersion: 3`: `protocols/v3/stored/normalizeV3Pool.ts`) -> the
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

// Loose: each registered type's token parameters are read beside these (`tokenParamsOf`).
const subgraphToken = z.looseObject({
  address,
  symbol: z.string().nullish(),
  name: z.string().nullish(),
  decimals: z.union([z.number(), z.string()]).transform(Number).pipe(z.number().int().min(0).max(77)),
  balance: decimalString,
  weight: optDecimal,
  priceRate: optDecimal,
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
  priceRateProviders: z.array(z.object({ address, token: z.union([address, z.object({ address })]) })).nullish(),
});

export type SubgraphPoolInput = z.input<typeof subgraphPool> & Readonly<Record<string, unknown>>;

const optDecimals = z
  .array(decimalString)
  .nullish()
  .transform((v) => v ?? null);

const optBoolean = z
  .boolean()
  .nullish()
  .transform((v) => v ?? null);

const paramParsers = {
  decimal: optDecimal,
  int: optInt,
  address: optAddress,
  decimals: optDecimals,
  boolean: optBoolean,
} as const;

type ParamValue = string | number | boolean | string[] | null;

/** One parameter as stored (`path` names it in errors), or what is wrong with it. */
function readParam(
  raw: Readonly<Record<string, unknown>>,
  f: ParamField,
  path: string,
): { value: ParamValue } | { error: string } {
  const parsed = paramParsers[f.stored].safeParse(raw[f.name]);
  if (!parsed.success) return { error: `${path}: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
  const v = parsed.data;
  if (Array.isArray(v)) return { value: v.map((x, i) => plain(x, `${path}.${i}`)!) };
  return { value: f.stored === 'decimal' && typeof v === 'string' ? plain(v, path) : v };
}

/**
 * A token's own parameters (`tokenParams` of every registered type), present only where the
 * subgraph gives them, so tokens without them normalize as before. Throws on a malformed one.
 */
function tokenParamsOf(raw: Readonly<Record<string, unknown>>, i: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of storedFields().token) {
    const r = readParam(raw, f, `tokens.${i}.${f.name}`);
    if ('error' in r) throw new Error(r.error);
    if (r.value !== null) out[f.name] = r.value;
  }
  return out;
}

/**
 * Each pool type's own parameters (`poolTypes/<family>/<type>Params.ts`, every registered type), as
 * stored: top-level fields in registry order, then groups (e.g. `gyro`), null when empty.
 */
function storedParams(
  raw: Readonly<Record<string, unknown>>,
): { ok: true; top: Record<string, unknown>; groups: Record<string, unknown> } | { ok: false; error: string } {
  const { top, groups } = storedFields();
  const read = (f: ParamField): { value: ParamValue } | { error: string } => readParam(raw, f, f.name);
  const out: Record<string, unknown> = {};
  for (const f of top) {
    const r = read(f);
    if ('error' in r) return { ok: false, error: r.error };
    if (r.value !== null || f.absent === 'null') out[f.name] = r.value;
  }
  const grouped: Record<string, unknown> = {};
  for (const [key, list] of groups) {
    const values: Record<string, unknown> = {};
    for (const f of list) {
      const r = read(f);
      if ('error' in r) return { ok: false, error: r.error };
      if (r.value !== null) values[f.name] = r.value;
    }
    grouped[key] = Object.keys(values).length > 0 ? values : null;
  }
  return { ok: true, top: out, groups: grouped };
}

export type NormalizeResult = { ok: true; pool: PoolCore } | { ok: false; id: string; error: string };

function plain(value: string | null, field: string, maxFraction?: number): string | null {
  if (value === null) return null;
  try {
    return toPlainDecimal(value, maxFraction);
  } catch (e) {
    throw new DecimalError(`${field}: ${(e as Error).message}`);
  }
}

export function normalizePool(raw: unknown): NormalizeResult {
  if (isV3CataloguePool(raw)) {
    // The V3 catalogue puts a pool's parameters (its type's entity in the V3 pools subgraph) at
    // the top, as the V2 subgraph does; every other type's are absent.
    const params = storedParams(raw as Readonly<Record<string, unknown>>);
    if (!params.ok) return { ok: false, id: '(v3)', error: params.error };
    return normalizeV3Pool(raw, params.top, params.groups);
  }
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
      ...(tokenParamsOf(t, i) as StoredTokenParams),
    }));
    const params = storedParams(p);
    if (!params.ok) return { ok: false, id, error: params.error };
    const pool: PoolCore = {
      id: p.id.toLowerCase(),
      address: p.address,
      poolType: p.poolType,
      poolTypeVersion: p.poolTypeVersion ?? 1,
      // The V2 subgraph's pools are all V2 Vault pools.
      protocolVersion: 2,
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
      ...(params.top as unknown as StoredTypeParams),
      priceRateProviders: (p.priceRateProviders ?? []).map((r) => ({
        address: r.address,
        token: typeof r.token === 'string' ? r.token : r.token.address,
      })),
      ...(params.groups as { gyro: PoolCore['gyro'] }),
      subgraphLiquidity: plain(p.totalLiquidity, 'totalLiquidity'),
      routable: tokens.some((t) => t.address !== p.address && !isZeroDecimal(t.balance)),
    };
    // Well-formed but impossible (a negative balance, a fee its contract refuses): not this pool's state.
    const impossible = impossibleValue(pool);
    if (impossible) return { ok: false, id, error: impossible };
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
