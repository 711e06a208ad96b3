import { poolTypeDefs, protocolOfDef, registryVersion } from '../../../domain/poolTypes/registry';
import { SubgraphClient, SUBGRAPH_UPSTREAM, type AllPools, type FetchAllOptions } from '../subgraphClient';
import { UpstreamError } from '../../upstream';

/**
 * The Balancer V3 catalogue: pools from the `balancer-v3-vault` subgraph (tokens in the Vault's
 * order by `index`, balances, rate providers, hook and liquidity flags), joined by id with their
 * type, version and parameters from the `balancer-v3-pools` subgraph (`factory { type version }`,
 * `weightedParams { weights }`, `stableParams { amp }`, and each registered V3 type's parameter
 * entity with the fields its definition declares, e.g. `gyroEParams { alpha ... }`, put at the
 * top of the pool as the V2 subgraph has them). Each joined pool is marked
 * `protocolVersion: 3`, which `domain/protocols/v3/stored/normalizeV3Pool.ts` stores. Paged by
 * cursor as the V2 client; a pool the pools subgraph does not know yet comes without a type and is
 * skipped by the normaliser (the next run has it).
 */

const VAULT_POOL_FIELDS = `id address name symbol factory swapFee totalShares blockTimestamp swapsCount holdersCount
    tokens { address index name symbol decimals balance priceRate paysYieldFees }
    rateProviders { address token { address } }
    hookConfig { hook { address } enableHookAdjustedAmounts shouldCallComputeDynamicSwapFee shouldCallBeforeSwap shouldCallAfterSwap shouldCallBeforeAddLiquidity shouldCallAfterAddLiquidity shouldCallBeforeRemoveLiquidity shouldCallAfterRemoveLiquidity }
    liquidityManagement { disableUnbalancedLiquidity }`;

export const V3_VAULT_POOLS = {
  all: `query V3Pools($first: Int!, $lastId: Bytes!) {
  pools(first: $first, orderBy: id, orderDirection: asc, where: { id_gt: $lastId, totalShares_gt: "0" }) {
    ${VAULT_POOL_FIELDS}
  }
}`,
  changed: `query V3ChangedPools($first: Int!, $lastId: Bytes!, $since: Int!) {
  pools(first: $first, orderBy: id, orderDirection: asc, where: { id_gt: $lastId, _change_block: { number_gte: $since } }) {
    ${VAULT_POOL_FIELDS}
  }
}`,
  firstCursor: '0x',
} as const;

/** Each registered V3 type's parameter entity and the fields it asks of it. */
function paramEntities(): { readonly entity: string; readonly fields: readonly string[] }[] {
  const byEntity = new Map<string, Set<string>>();
  for (const def of poolTypeDefs())
    if (protocolOfDef(def) === 3 && def.paramsEntity !== undefined && def.params.length > 0) {
      const fields = byEntity.get(def.paramsEntity) ?? new Set<string>();
      for (const f of def.params) if (f.chainOnly !== true) fields.add(f.name);
      byEntity.set(def.paramsEntity, fields);
    }
  return [...byEntity].map(([entity, fields]) => ({ entity, fields: [...fields] }));
}

let typesQuery: { version: number; query: string; entities: readonly string[] } | undefined;

/** The pools-subgraph query for the V3 types registered now (rebuilt only when the registry changes). */
export function v3PoolTypesQuery(): { readonly query: string; readonly entities: readonly string[] } {
  if (typesQuery?.version !== registryVersion()) {
    const entities = paramEntities();
    const selections = entities.map((e) => `${e.entity} { ${e.fields.join(' ')} }`).join(' ');
    typesQuery = {
      version: registryVersion(),
      entities: entities.map((e) => e.entity),
      query: `query V3PoolTypes($ids: [Bytes!]!) {
  pools(first: 1000, where: { id_in: $ids }) {
    id factory { type version } weightedParams { weights } stableParams { amp }${selections ? ` ${selections}` : ''}
  }
}`,
    };
  }
  return typesQuery;
}

export interface V3CatalogueClients {
  readonly vault: SubgraphClient;
  readonly pools: SubgraphClient;
}

interface TypeRow {
  readonly id?: unknown;
  readonly factory?: { readonly type?: unknown; readonly version?: unknown } | null;
  readonly weightedParams?: { readonly weights?: unknown } | null;
  readonly stableParams?: { readonly amp?: unknown } | null;
  readonly [entity: string]: unknown;
}

/** Every V3 pool with shares, or those changed since block `since`, joined with their types. */
export async function fetchV3Pools(
  clients: V3CatalogueClients,
  since: number | undefined,
  opts: FetchAllOptions = {},
): Promise<AllPools> {
  const vault =
    since === undefined ? await clients.vault.fetchAllPools(opts) : await clients.vault.fetchChangedPools(since, opts);
  const ids = vault.pools.map((p) => String((p as { id?: unknown } | null)?.id ?? '').toLowerCase());
  const types = new Map<string, TypeRow>();
  const { query, entities } = v3PoolTypesQuery();
  for (let i = 0; i < ids.length; i += 1000) {
    opts.signal?.throwIfAborted();
    const data = (await clients.pools.query(
      query,
      { ids: ids.slice(i, i + 1000) },
      opts.deadline,
      opts.deadlineLabel,
    )) as { pools?: unknown } | null | undefined;
    if (!Array.isArray(data?.pools))
      throw new UpstreamError(SUBGRAPH_UPSTREAM, 'the V3 pools subgraph answered without a data.pools array');
    for (const row of data.pools as TypeRow[]) if (typeof row.id === 'string') types.set(row.id.toLowerCase(), row);
  }
  const pools = vault.pools.map((raw, i) => {
    const row = types.get(ids[i]!);
    const params = Object.assign({}, ...entities.map((e) => entityOf(row?.[e])));
    return {
      ...params,
      ...(raw as object),
      protocolVersion: 3,
      poolType: row?.factory?.type ?? null,
      poolTypeVersion: row?.factory?.version ?? null,
      weights: row?.weightedParams?.weights ?? null,
      amp: row?.stableParams?.amp ?? null,
    };
  });
  return { pools, pages: vault.pages };
}

const entityOf = (value: unknown): object =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
