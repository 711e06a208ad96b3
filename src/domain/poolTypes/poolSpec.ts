import { toPlainDecimal } from '../decimal';
import type { StoredPool } from '../pool';
import type { PoolSpec } from '../swap/poolModel';
import type { ParamField } from './paramField';
import { storedFields } from './registry';

/**
 * A stored pool -> the engine's input (`PoolSpec`): the core fields every pool has, then every stored
 * parameter the registry declares (`poolTypes/<family>/<type>Params.ts`), null where the pool lacks it.
 * Balances and the BPT supply are written with no more fraction digits than their decimals allow
 * (stored amounts already are; this keeps pool files with excess zeros exact). Pure.
 */
export function specFromStoredPool(p: StoredPool): PoolSpec {
  const stored = p as unknown as Readonly<Record<string, unknown>>;
  const { top, groups, token } = storedFields();
  const params: Record<string, unknown> = {};
  for (const f of top) params[f.name] = stored[f.name] ?? null;
  for (const [key, list] of groups) {
    const group = stored[key] as Readonly<Record<string, unknown>> | null | undefined;
    const values: Record<string, string> = {};
    for (const f of list) {
      const v = group?.[f.name];
      if (typeof v === 'string') values[f.name] = v;
    }
    params[key] = Object.keys(values).length > 0 ? values : null;
  }
  return {
    id: p.id,
    address: p.address,
    poolType: p.poolType,
    poolTypeVersion: p.poolTypeVersion ?? 1,
    swapFee: p.swapFee,
    totalShares: toPlainDecimal(p.totalShares, 18),
    amp: p.amp ?? null,
    swapEnabled: p.swapEnabled,
    tokens: p.tokens.map((t) => ({
      address: t.address,
      balance: toPlainDecimal(t.balance, t.decimals),
      decimals: t.decimals,
      weight: t.weight ?? null,
      priceRate: t.priceRate ?? null,
      ...tokenParams(t as unknown as Readonly<Record<string, unknown>>, token),
    })),
    ...params,
  };
}

/** A token's own parameters (`tokenParams` of every registered type), null where the token lacks one. */
function tokenParams(t: Readonly<Record<string, unknown>>, fields: readonly ParamField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f.name] = t[f.name] ?? null;
  return out;
}
