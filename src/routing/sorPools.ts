import type { SubgraphPoolBase } from '@balancer-labs/sor';
import { storedFields } from '../domain/poolTypes/registry';
import type { RoutingPool } from './routingPools';

/**
 * The `@balancer-labs/sor` adapter's input: our routing pool -> the SOR's `SubgraphPoolBase`.
 * The SOR reads each type's parameters as top-level fields (Gyro's too, spread from their group);
 * missing values are left out rather than sent as null, as the subgraph would. The ComposableStable
 * token fields (`oldPriceRate`, `isExemptFromYieldProtocolFee`) ride along; the SOR ignores them.
 */
export function toSorPool(p: RoutingPool): SubgraphPoolBase {
  const spec = p.spec;
  const read = spec as unknown as Readonly<Record<string, unknown>>;
  const { top, groups } = storedFields();
  const params: Record<string, unknown> = {};
  for (const f of top) if (read[f.name] !== null && read[f.name] !== undefined) params[f.name] = read[f.name];
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
      ...(t.oldPriceRate === null || t.oldPriceRate === undefined ? {} : { oldPriceRate: t.oldPriceRate }),
      ...(typeof t.isExemptFromYieldProtocolFee === 'boolean'
        ? { isExemptFromYieldProtocolFee: t.isExemptFromYieldProtocolFee }
        : {}),
    })),
    tokensList: [...p.tokensList],
    totalWeight: p.totalWeight,
    ...(spec.amp === null || spec.amp === undefined ? {} : { amp: spec.amp }),
    ...params,
  };
  return pool;
}
