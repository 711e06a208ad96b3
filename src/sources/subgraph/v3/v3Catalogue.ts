import { poolTypeDefs, protocolOfDef, registryVersion } from '../../../domain/poolTypes/registry';
import { SubgraphClient, SUBGRAPH_UPSTREAM, type AllPools, type FetchAllOptions } from '../subgraphClient';
import type { V3HookKind } from '../../../domain/protocols/v3/stored/storedV3';
import { UpstreamError } from '../../upstream';

/**
 * The Balancer V3 catalogue: pools from the `balancer-v3-vault` subgraph (tokens in the Vault's
 * order by `index`, balances, rate providers, hook and liquidity flags), joined by id with their
 * type, version and parameters from the `balancer-v3-pools` subgraph (`factory { type version }`,
 * `weightedParams { weights }`, `stableParams { amp }`, and each registered V3 type's parameter
 * entity with the fields its definition declares, e.g. `gyroEParams { alpha ... }`, put at the
 * top of the pool as the V2 subgraph has them; an LBP's sale from `lbpParams` or `fixedLBPParams`
 * as `typeParams`, read by the LBP types' own folder). Each joined pool is marked
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

/** An LBP's sale as the pools subgraph records it at creation (the pool's immutable data). */
const SALE_FIELDS = ['startTime', 'endTime', 'isProjectTokenSwapInBlocked', 'projectToken', 'reserveToken'];
const LBP_PARAMS = [
  ...SALE_FIELDS,
  'projectTokenStartWeight',
  'projectTokenEndWeight',
  'reserveTokenStartWeight',
  'reserveTokenEndWeight',
];
const FIXED_LBP_PARAMS = [...SALE_FIELDS, 'projectTokenRate'];
const LBP_SELECTIONS = `lbpParams { ${LBP_PARAMS.join(' ')} } fixedLBPParams { ${FIXED_LBP_PARAMS.join(' ')} }`;

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

let typesQuery: { version: number; query: string; withoutSales: string; entities: readonly string[] } | undefined;

/**
 * The pools-subgraph query for the V3 types registered now (rebuilt only when the registry
 * changes), and the same without the LBP sale entities, for a pools subgraph that has none of them
 * (an older deployment, a local stand-in): its LBPs then come without their sale, which the head
 * reads from the pools themselves.
 */
export function v3PoolTypesQuery(): {
  readonly query: string;
  readonly withoutSales: string;
  readonly entities: readonly string[];
} {
  if (typesQuery?.version !== registryVersion()) {
    const entities = paramEntities();
    const selections = entities.map((e) => `${e.entity} { ${e.fields.join(' ')} }`).join(' ');
    const queryWith = (sales: string) => `query V3PoolTypes($ids: [Bytes!]!) {
  pools(first: 1000, where: { id_in: $ids }) {
    id factory { type version } weightedParams { weights } stableParams { amp }${sales}${selections ? ` ${selections}` : ''}
  }
}`;
    typesQuery = {
      version: registryVersion(),
      entities: entities.map((e) => e.entity),
      query: queryWith(` ${LBP_SELECTIONS}`),
      withoutSales: queryWith(''),
    };
  }
  return typesQuery;
}

/** A GraphQL error of a pools subgraph that does not have the LBP sale entities. */
const NO_SALES = /lbpParams|fixedLBPParams|LBPParams/;

export interface V3CatalogueClients {
  readonly vault: SubgraphClient;
  readonly pools: SubgraphClient;
  /** Hooks contracts the chain's config names (`config/knownV3Hooks.ts`): each pool's hook gets its kind. */
  readonly knownHooks?: ReadonlyMap<string, V3HookKind>;
}

/** The raw `hookConfig` with the kind the known hooks give its address (the subgraph has none). */
function withHookKind(raw: unknown, known: ReadonlyMap<string, V3HookKind> | undefined): unknown {
  const config = (raw as { hookConfig?: { hook?: { address?: unknown } } } | null)?.hookConfig;
  const address = config?.hook?.address;
  const kind = typeof address === 'string' ? known?.get(address.toLowerCase()) : undefined;
  return kind === undefined ? config : { ...config, kind };
}

interface TypeRow {
  readonly id?: unknown;
  readonly factory?: { readonly type?: unknown; readonly version?: unknown } | null;
  readonly weightedParams?: { readonly weights?: unknown } | null;
  readonly stableParams?: { readonly amp?: unknown } | null;
  readonly lbpParams?: Readonly<Record<string, unknown>> | null;
  readonly fixedLBPParams?: Readonly<Record<string, unknown>> | null;
  readonly [entity: string]: unknown;
}

/** The type's own parameters a row carries (an LBP's sale), for `v3.typeParams`; null without. */
function typeParamsOf(row: TypeRow | undefined): Record<string, unknown> | null {
  const [params, names] = row?.lbpParams
    ? [row.lbpParams, LBP_PARAMS]
    : row?.fixedLBPParams
      ? [row.fixedLBPParams, FIXED_LBP_PARAMS]
      : [undefined, []];
  if (!params) return null;
  return Object.fromEntries(
    names.flatMap((n) => (params[n] === undefined || params[n] === null ? [] : [[n, params[n]]])),
  );
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
  const { query, withoutSales, entities } = v3PoolTypesQuery();
  let sales = true;
  const page = (from: number) =>
    clients.pools.query(
      sales ? query : withoutSales,
      { ids: ids.slice(from, from + 1000) },
      opts.deadline,
      opts.deadlineLabel,
    );
  for (let i = 0; i < ids.length; i += 1000) {
    opts.signal?.throwIfAborted();
    let answer: unknown;
    try {
      answer = await page(i);
    } catch (e) {
      if (!sales || !(e instanceof UpstreamError) || !NO_SALES.test(e.message)) throw e;
      sales = false;
      answer = await page(i);
    }
    const data = answer as { pools?: unknown } | null | undefined;
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
      hookConfig: withHookKind(raw, clients.knownHooks),
      protocolVersion: 3,
      poolType: row?.factory?.type ?? null,
      poolTypeVersion: row?.factory?.version ?? null,
      weights: row?.weightedParams?.weights ?? null,
      amp: row?.stableParams?.amp ?? null,
      typeParams: typeParamsOf(row),
    };
  });
  return { pools, pages: vault.pages };
}

const entityOf = (value: unknown): object =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
