import { z } from 'zod';
import { parseAddress, type Address } from '../../../address';
import { DecimalError, isZeroDecimal, toPlainDecimal } from '../../../decimal';
import type { PoolCore, StoredPoolToken, StoredTypeParams } from '../../../pool';
import { V3_HOOK_KINDS, type StoredV3Hook } from './storedV3';

/**
 * A V3 catalogue pool (the V3 subgraph client's join of a `balancer-v3-vault` pool with its
 * `balancer-v3-pools` type and parameters, `sources/subgraph/v3/`) -> the stored `PoolCore` with
 * `protocolVersion: 3`, keyed by its lower-case address. What the subgraphs lack (aggregate fees,
 * the last live balances, pause and recovery) is stored neutral until the follower reads the
 * chain: zero aggregate fees, no yield fee basis, not paused. Pure.
 */

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, 'expected a 20-byte hex address')
  .transform((s) => parseAddress(s));
const decimalString = z.union([z.string(), z.number()]).transform((v) => String(v));
const flag = z
  .boolean()
  .nullish()
  .transform((v) => v === true);

const v3Token = z.object({
  address,
  index: z.union([z.number(), z.string()]).transform(Number).pipe(z.number().int().min(0)),
  symbol: z.string().nullish(),
  name: z.string().nullish(),
  decimals: z.union([z.number(), z.string()]).transform(Number).pipe(z.number().int().min(0).max(18)),
  balance: decimalString,
  priceRate: decimalString.nullish(),
  paysYieldFees: flag,
});

const hookConfig = z.object({
  hook: z.object({ address }),
  enableHookAdjustedAmounts: flag,
  shouldCallComputeDynamicSwapFee: flag,
  shouldCallBeforeSwap: flag,
  shouldCallAfterSwap: flag,
  shouldCallBeforeAddLiquidity: flag,
  shouldCallAfterAddLiquidity: flag,
  shouldCallBeforeRemoveLiquidity: flag,
  shouldCallAfterRemoveLiquidity: flag,
  /** Not the subgraph's: what a deployment knows the hook to be (the devnet's indexer, a config). */
  kind: z.enum(V3_HOOK_KINDS).nullish(),
  params: z.record(z.string(), decimalString).nullish(),
});

const v3Pool = z.looseObject({
  protocolVersion: z.literal(3),
  address,
  poolType: z.string().min(1),
  poolTypeVersion: z.union([z.number(), z.string()]).transform(Number).pipe(z.number().int()).nullish(),
  factory: address.nullish(),
  symbol: z.string().nullish(),
  name: z.string().nullish(),
  swapFee: decimalString,
  totalShares: decimalString,
  blockTimestamp: z.union([z.number(), z.string()]).transform(Number).nullish(),
  swapsCount: decimalString.nullish(),
  holdersCount: decimalString.nullish(),
  tokens: z.array(v3Token).min(1),
  rateProviders: z.array(z.object({ address, token: z.object({ address }) })).nullish(),
  hookConfig: hookConfig.nullish(),
  liquidityManagement: z.object({ disableUnbalancedLiquidity: flag }).nullish(),
  weights: z.array(decimalString).nullish(),
  amp: decimalString.nullish(),
  /** A type's own parameters the catalogue joined (an LBP's sale), by name. */
  typeParams: z
    .record(
      z.string(),
      z
        .union([z.string(), z.number(), z.boolean()])
        .transform((v) => (typeof v === 'string' ? v.toLowerCase() : String(v))),
    )
    .nullish(),
});

export type V3CataloguePool = z.input<typeof v3Pool>;

/** Whether a raw catalogue pool is a V3 one (the V3 client marks each). */
export function isV3CataloguePool(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && (raw as { protocolVersion?: unknown }).protocolVersion === 3;
}

function plain(value: string, field: string, maxFraction?: number): string {
  try {
    return toPlainDecimal(value, maxFraction);
  } catch (e) {
    throw new DecimalError(`${field}: ${(e as Error).message}`);
  }
}

const ZERO = /^0x0{40}$/;

export type V3NormalizeResult = { ok: true; pool: PoolCore } | { ok: false; id: string; error: string };

/**
 * `typeParams` are every registered type's own stored fields as an absent value stores them
 * (`normalizePool.ts`), so a V3 pool has the same keys as every other stored pool.
 */
export function normalizeV3Pool(
  raw: unknown,
  typeParams: Record<string, unknown>,
  groups: Record<string, unknown>,
): V3NormalizeResult {
  const id =
    typeof raw === 'object' && raw !== null && typeof (raw as { address?: unknown }).address === 'string'
      ? (raw as { address: string }).address.toLowerCase()
      : '(no address)';
  const parsed = v3Pool.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, id, error: `${issue?.path.join('.') || 'pool'}: ${issue?.message ?? 'invalid'}` };
  }
  const p = parsed.data;
  try {
    const sorted = [...p.tokens].sort((a, b) => a.index - b.index);
    const weights = p.weights ?? null;
    if (weights !== null && weights.length !== sorted.length)
      return { ok: false, id, error: `weights: ${weights.length} for ${sorted.length} tokens` };
    const tokens: StoredPoolToken[] = sorted.map((t, i) => ({
      address: t.address,
      symbol: t.symbol ?? null,
      name: t.name ?? null,
      decimals: t.decimals,
      balance: plain(t.balance, `tokens.${i}.balance`, t.decimals),
      weight: weights === null ? null : plain(weights[i]!, `weights.${i}`),
      priceRate: t.priceRate === undefined || t.priceRate === null ? '1' : plain(t.priceRate, `tokens.${i}.priceRate`),
    }));
    const h = p.hookConfig;
    const hook: StoredV3Hook | null =
      h === undefined || h === null || ZERO.test(h.hook.address)
        ? null
        : {
            address: h.hook.address,
            kind: h.kind ?? null,
            flags: {
              enableHookAdjustedAmounts: h.enableHookAdjustedAmounts,
              shouldCallComputeDynamicSwapFee: h.shouldCallComputeDynamicSwapFee,
              shouldCallBeforeSwap: h.shouldCallBeforeSwap,
              shouldCallAfterSwap: h.shouldCallAfterSwap,
              shouldCallBeforeAddLiquidity: h.shouldCallBeforeAddLiquidity,
              shouldCallAfterAddLiquidity: h.shouldCallAfterAddLiquidity,
              shouldCallBeforeRemoveLiquidity: h.shouldCallBeforeRemoveLiquidity,
              shouldCallAfterRemoveLiquidity: h.shouldCallAfterRemoveLiquidity,
            },
            params: Object.fromEntries(
              Object.entries(h.params ?? {}).map(([k, v]) => [k, plain(v, `hookConfig.params.${k}`)]),
            ),
          };
    const pool: PoolCore = {
      id,
      address: p.address as Address,
      poolType: p.poolType,
      poolTypeVersion: p.poolTypeVersion ?? 1,
      protocolVersion: 3,
      factory: p.factory ?? null,
      owner: null,
      symbol: p.symbol ?? null,
      name: p.name ?? null,
      swapFee: plain(p.swapFee, 'swapFee'),
      swapEnabled: true,
      isPaused: false,
      isInRecoveryMode: false,
      amp: p.amp === undefined || p.amp === null ? null : plain(p.amp, 'amp'),
      totalShares: plain(p.totalShares, 'totalShares', 18),
      totalWeight: weights === null ? '0' : '1',
      totalSwapVolume: '0',
      totalSwapFee: '0',
      createTime: p.blockTimestamp ?? null,
      swapsCount: p.swapsCount === undefined || p.swapsCount === null ? null : plain(p.swapsCount, 'swapsCount'),
      holdersCount:
        p.holdersCount === undefined || p.holdersCount === null ? null : plain(p.holdersCount, 'holdersCount'),
      tokens,
      tokensList: tokens.map((t) => t.address),
      ...(typeParams as unknown as StoredTypeParams),
      priceRateProviders: (p.rateProviders ?? []).map((r) => ({ address: r.address, token: r.token.address })),
      ...(groups as { gyro: PoolCore['gyro'] }),
      v3: {
        aggregateSwapFee: '0',
        aggregateYieldFee: '0',
        paysYieldFees: sorted.map((t) => t.paysYieldFees),
        lastLiveBalances: null,
        supportsUnbalancedLiquidity: !(p.liquidityManagement?.disableUnbalancedLiquidity ?? false),
        hook,
        ...(p.typeParams ? { typeParams: p.typeParams } : {}),
      },
      subgraphLiquidity: null,
      routable: tokens.some((t) => !isZeroDecimal(t.balance)),
    };
    return { ok: true, pool };
  } catch (e) {
    return { ok: false, id, error: (e as Error).message };
  }
}
