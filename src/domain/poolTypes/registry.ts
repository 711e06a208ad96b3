import { DECORATION_FIELDS, type ProtocolVersion } from '../pool';
import { COMPOSABLE_STABLE, STABLE_PHANTOM } from './composableStable/composableStableDef';
import { ELEMENT } from './element/elementDef';
import { POOL_CORE_FIELDS } from './poolCoreFields';
import { GYRO2, GYRO3, GYRO_E } from './gyro/gyroDef';
import { GYRO_2CLP_V3, GYRO_ECLP_V3 } from './gyro/v3/gyroV3Def';
import { LINEAR } from './linear/linearDef';
import { QUANT_AMM_WEIGHTED } from './quantAmm/v3/quantAmmV3Def';
import { RECLAMM } from './reClamm/v3/reClammV3Def';
import type { ParamField } from './paramField';
import type { PathRole, PoolTypeDef } from './poolTypeDef';
import { STABLE, META_STABLE } from './stable/stableDef';
import { STABLE_V3 } from './stable/v3/stableV3Def';
import { FIXED_PRICE_LBP_V3 } from './weighted/v3/fixedPriceLbpV3Def';
import { LBP_V3 } from './weighted/v3/lbpV3Def';
import { WEIGHTED_V3 } from './weighted/v3/weightedV3Def';
import { INVESTMENT, LIQUIDITY_BOOTSTRAPPING, MANAGED, WEIGHTED } from './weighted/weightedDef';

/**
 * The one list of pool types the service carries, and what every layer asks of it. A new type is
 * a folder beside these (its params, its def) and one line in `BUILT_IN`; a caller (a test, a
 * deployment with its own pools) may add one at run time with `registerPoolType`. The order of
 * the list is the order stored parameters are written in (stored pools keep their field order).
 */
const BUILT_IN: readonly PoolTypeDef[] = [
  ELEMENT,
  LINEAR,
  WEIGHTED,
  LIQUIDITY_BOOTSTRAPPING,
  INVESTMENT,
  MANAGED,
  STABLE_PHANTOM,
  COMPOSABLE_STABLE,
  STABLE,
  META_STABLE,
  GYRO2,
  GYRO3,
  GYRO_E,
  WEIGHTED_V3,
  STABLE_V3,
  GYRO_ECLP_V3,
  GYRO_2CLP_V3,
  RECLAMM,
  QUANT_AMM_WEIGHTED,
  LBP_V3,
  FIXED_PRICE_LBP_V3,
];

const defs: PoolTypeDef[] = [];
const byName = new Map<string, PoolTypeDef>();
let lookups = new Map<string, PoolTypeDef | undefined>();
let fields: StoredFields | undefined;
let version = 0;

export interface StoredFields {
  /** Parameters stored as top-level pool fields, in storage order. */
  readonly top: readonly ParamField[];
  /** Parameters stored together under a key (e.g. `gyro`), by key. */
  readonly groups: ReadonlyMap<string, readonly ParamField[]>;
  /** Every parameter, top-level and grouped, once. */
  readonly all: readonly ParamField[];
  /** The parameters the V2 subgraph has: V2 types' (`all` without the chain-only and the V3-only ones). */
  readonly subgraph: readonly ParamField[];
  /** Parameters stored on each token (`tokenParams`), in storage order. */
  readonly token: readonly ParamField[];
  /** The token parameters the V2 subgraph has. */
  readonly tokenSubgraph: readonly ParamField[];
}

/** Adds a pool type. Throws when a name is taken or a parameter is declared differently elsewhere. */
export function registerPoolType(def: PoolTypeDef): void {
  const protocol = protocolOfDef(def);
  for (const name of def.names)
    if (byName.has(key(protocol, name)))
      throw new Error(
        `pool type ${name} is already registered for V${protocol} (family ${byName.get(key(protocol, name))!.family})`,
      );
  const next = collectFields([...defs, def]);
  defs.push(def);
  for (const name of def.names) byName.set(key(protocol, name), def);
  lookups = new Map();
  fields = next;
  version++;
}

/** The protocol a definition's pools belong to. */
export function protocolOfDef(def: PoolTypeDef): ProtocolVersion {
  return def.protocol ?? 2;
}

const key = (protocol: ProtocolVersion, name: string): string => `${protocol}:${name}`;

/**
 * The definition of a subgraph `poolType` of `protocol`'s Vault (V2 unless named), or undefined
 * when the service does not carry it.
 */
export function poolTypeDef(poolType: string, protocol: ProtocolVersion = 2): PoolTypeDef | undefined {
  const k = key(protocol, poolType);
  if (lookups.has(k)) return lookups.get(k);
  const def =
    byName.get(k) ??
    defs.find((d) => protocolOfDef(d) === protocol && d.nameSuffix !== undefined && poolType.endsWith(d.nameSuffix));
  lookups.set(k, def);
  return def;
}

export function poolTypeDefs(): readonly PoolTypeDef[] {
  return defs;
}

/** Bumped by every registration: caches built from the registry (schemas, queries) compare it. */
export function registryVersion(): number {
  return version;
}

/** Every stored parameter of every registered type (a pool stores all it is given, whatever its type). */
export function storedFields(): StoredFields {
  return (fields ??= collectFields(defs));
}

/** Where a route may use pools of this type; unknown types never reach a route. */
export function pathRoleOf(poolType: string): PathRole {
  return poolTypeDef(poolType)?.pathRole ?? 'through';
}

export function isTimeDependentType(poolType: string): boolean {
  return poolTypeDef(poolType)?.timeDependent === true;
}

/** The subgraph `poolType` of the pools the devnet deploys as `kind`. */
export function devnetPoolType(kind: string): string {
  const def = defs.find((d) => d.devnetKind === kind);
  if (!def?.names[0]) throw new Error(`no registered pool type is deployed by the devnet as ${kind}`);
  return def.names[0];
}

/** Names a parameter may not take: the core fields and what the store keeps beside them. */
const RESERVED: ReadonlySet<string> = new Set<string>([
  ...POOL_CORE_FIELDS,
  'tokens',
  'priceRateProviders',
  'subgraphLiquidity',
  'routable',
  ...DECORATION_FIELDS,
]);

function collectFields(list: readonly PoolTypeDef[]): StoredFields {
  const seen = new Map<string, { field: ParamField; group: string | undefined }>();
  const top: ParamField[] = [];
  const groups = new Map<string, ParamField[]>();
  const v2 = new Set<string>();
  const declarations = [
    ...list.flatMap((def) => def.params.map((field) => ({ def, field }))),
    ...list.flatMap((def) => (def.sharedParams ?? []).map((field) => ({ def, field }))),
  ];
  for (const { def, field } of declarations) {
    if (protocolOfDef(def) === 2) v2.add(field.name);
    const group = def.paramGroup;
    if (RESERVED.has(field.name) || (group !== undefined && RESERVED.has(group)))
      throw new Error(`pool type ${def.names.join('/')} declares ${field.name}, a field every pool has`);
    if (field.graphql && (group !== undefined || field.stored === 'decimals'))
      throw new Error(
        `pool type ${def.names.join('/')} shows ${field.name} in GraphQL, which only a top-level single value can be`,
      );
    const before = seen.get(field.name);
    if (before) {
      const same =
        before.group === group &&
        before.field.subgraph === field.subgraph &&
        before.field.stored === field.stored &&
        before.field.absent === field.absent &&
        before.field.chainOnly === field.chainOnly &&
        JSON.stringify(before.field.graphql) === JSON.stringify(field.graphql);
      if (!same) throw new Error(`pool type ${def.names.join('/')} declares ${field.name} unlike another type`);
      continue;
    }
    seen.set(field.name, { field, group });
    if (group === undefined) top.push(field);
    else groups.set(group, [...(groups.get(group) ?? []), field]);
  }
  const all = [...top, ...[...groups.values()].flat()];
  const token = collectTokenFields(list);
  return {
    top,
    groups,
    all,
    subgraph: all.filter((f) => f.chainOnly !== true && v2.has(f.name)),
    token: token.fields,
    tokenSubgraph: token.fields.filter((f) => f.chainOnly !== true && token.v2.has(f.name)),
  };
}

/** Names a token parameter may not take: what every stored token has, and the subgraph's token fields. */
const RESERVED_TOKEN: ReadonlySet<string> = new Set([
  'id',
  'address',
  'symbol',
  'name',
  'decimals',
  'balance',
  'weight',
  'priceRate',
  'token',
]);

function collectTokenFields(list: readonly PoolTypeDef[]): { fields: ParamField[]; v2: Set<string> } {
  const seen = new Map<string, ParamField>();
  const v2 = new Set<string>();
  for (const def of list)
    for (const field of def.tokenParams ?? []) {
      if (protocolOfDef(def) === 2) v2.add(field.name);
      if (RESERVED_TOKEN.has(field.name) || field.graphql !== undefined || field.absent !== 'omit')
        throw new Error(
          `pool type ${def.names.join('/')} declares token field ${field.name} as no token field can be (reserved, shown in GraphQL, or stored as null)`,
        );
      const before = seen.get(field.name);
      if (before && JSON.stringify(before) !== JSON.stringify(field))
        throw new Error(`pool type ${def.names.join('/')} declares token field ${field.name} unlike another type`);
      seen.set(field.name, field);
    }
  return { fields: [...seen.values()], v2 };
}

for (const def of BUILT_IN) registerPoolType(def);
