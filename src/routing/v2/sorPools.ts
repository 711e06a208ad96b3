import type { SubgraphPoolBase } from '@balancer-labs/sor';
import type { ParamField } from '../../domain/poolTypes/paramField';
import { storedFields } from '../../domain/poolTypes/registry';
import type { RoutingPool } from './routingPools';

/**
 * The `@balancer-labs/sor` adapter's input: our routing pool -> the SOR's `SubgraphPoolBase`.
 * The SOR reads each type's parameters as top-level fields (Gyro's too, spread from their group);
 * missing values are left out rather than sent as null, as the subgraph would. The types' token
 * fields (`tokenParams`) ride along the same way; the SOR ignores them.
 */
export function toSorPool(p: RoutingPool): SubgraphPoolBase {
  const spec = p.spec;
  const read = spec as unknown as Readonly<Record<string, unknown>>;
  const { top, groups, token } = storedFields();
  const params: Record<string, unknown> = {};
  Object.assign(params, presentParams(read, top));
  for (const key of groups.keys()) Object.assign(params, read[key] ?? {});
  const pool: SubgraphPoolBase = {
    id: spec.id,
    address: spec.address,
    poolType: spec.poolType,
    poolTypeVersion: spec.poolTypeVersion ?? 1,
    swapFee: spec.swapFee,
    swapEnabled: spec.swapEnabled ?? true,
    totalShares: spec.totalShares,
    tokens: spec.tokens.map((t) => ({
      address: t.address,
      balance: t.balance,
      decimals: t.decimals,
      // Stored pools always hold a rate (normalisation writes 1 where the subgraph has none).
      priceRate: t.priceRate ?? '1',
      weight: t.weight ?? null,
      ...presentParams(t as unknown as Readonly<Record<string, unknown>>, token),
    })),
    tokensList: [...p.tokensList],
    totalWeight: p.totalWeight,
    ...(spec.amp === null || spec.amp === undefined ? {} : { amp: spec.amp }),
    ...params,
  };
  return pool;
}

/** The fields of `fields` that `from` holds (not null), in declaration order. */
function presentParams(
  from: Readonly<Record<string, unknown>>,
  fields: readonly ParamField[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (from[f.name] !== null && from[f.name] !== undefined) out[f.name] = from[f.name];
  return out;
}
