import {
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type GraphQLField,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { DEFAULT_FIRST, MAX_FIRST } from './poolsArgs';

/**
 * The estimated number of values a query returns: every field counts once per object it is read
 * on, and a list multiplies what is under it by its expected length (`first` for pages of pools,
 * the largest possible token count for a pool's tokens). Aliases each count, so asking for the
 * same big page ten times under ten names costs ten times as much. Introspection counts by the
 * same rules, a list of the schema's types or fields as long as the longest such list in the schema.
 */

/** Balancer V2 pools hold at most 8 tokens. */
export const MAX_POOL_TOKENS = 8;
/** `tokens(chainId)` returns every known token; a busy chain knows about this many. */
export const TOKENS_LIST_ESTIMATE = 1000;

const LIST_SIZES: Readonly<Record<string, number>> = {
  'Pool.tokens': MAX_POOL_TOKENS,
  'Pool.priceRateProviders': MAX_POOL_TOKENS,
  'Query.tokens': TOKENS_LIST_ESTIMATE,
};

interface Walk {
  readonly schema: GraphQLSchema;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly variableDefaults: ReadonlyMap<string, unknown>;
  readonly visiting: Set<string>;
  /** A fragment's cost by where it is spread (type, page size): each is walked once. */
  readonly fragmentCosts: Map<string, number>;
  readonly listSizes: Readonly<Record<string, number>>;
}

const introspectionListSizes = new WeakMap<GraphQLSchema, Readonly<Record<string, number>>>();

/** The longest of each introspection list this schema can answer. */
function introspectionLists(schema: GraphQLSchema): Readonly<Record<string, number>> {
  let sizes = introspectionListSizes.get(schema);
  if (sizes) return sizes;
  const types = Object.values(schema.getTypeMap());
  const longest = (lengths: number[]): number => Math.max(1, ...lengths);
  const fieldLists = types.flatMap((t) =>
    isObjectType(t) || isInterfaceType(t) ? [Object.values(t.getFields())] : [],
  );
  const args = [
    ...fieldLists.flatMap((fields) => fields.map((f) => f.args.length)),
    ...schema.getDirectives().map((d) => d.args.length),
  ];
  sizes = {
    '__Schema.types': types.length,
    '__Schema.directives': schema.getDirectives().length,
    '__Type.fields': longest(fieldLists.map((f) => f.length)),
    '__Type.interfaces': longest(
      types.map((t) => (isObjectType(t) || isInterfaceType(t) ? t.getInterfaces().length : 0)),
    ),
    '__Type.possibleTypes': longest(types.map((t) => (isInterfaceType(t) ? schema.getPossibleTypes(t).length : 0))),
    '__Type.enumValues': longest(types.map((t) => (isEnumType(t) ? t.getValues().length : 0))),
    '__Type.inputFields': longest(types.map((t) => (isInputObjectType(t) ? Object.keys(t.getFields()).length : 0))),
    '__Field.args': longest(args),
    '__Directive.args': longest(args),
  };
  introspectionListSizes.set(schema, sizes);
  return sizes;
}

export function estimateQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): number {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const op = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  const root = op ? schema.getRootType(op.operation) : undefined;
  if (!op || !root) return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const variableDefaults = new Map<string, unknown>();
  for (const v of op.variableDefinitions ?? []) {
    if (v.defaultValue?.kind === Kind.INT) variableDefaults.set(v.variable.name.value, Number(v.defaultValue.value));
  }
  return selectionCost(op.selectionSet, root, DEFAULT_FIRST, {
    schema,
    fragments,
    variables: variables ?? {},
    variableDefaults,
    visiting: new Set(),
    fragmentCosts: new Map(),
    listSizes: { ...LIST_SIZES, ...introspectionLists(schema) },
  });
}

function selectionCost(
  set: SelectionSetNode | undefined,
  type: GraphQLObjectType,
  pageSize: number,
  walk: Walk,
): number {
  if (!set) return 0;
  let cost = 0;
  for (const s of set.selections) {
    if (s.kind === Kind.FIELD) {
      cost += fieldCost(s, type, pageSize, walk);
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      cost += selectionCost(s.selectionSet, conditionType(s.typeCondition?.name.value, type, walk), pageSize, walk);
    } else {
      const name = s.name.value;
      const key = `${name} ${type.name} ${pageSize}`;
      const known = walk.fragmentCosts.get(key);
      if (known !== undefined) {
        cost += known;
        continue;
      }
      const fragment = walk.fragments.get(name);
      if (!fragment || walk.visiting.has(name)) continue;
      walk.visiting.add(name);
      const fragmentCost = selectionCost(
        fragment.selectionSet,
        conditionType(fragment.typeCondition.name.value, type, walk),
        pageSize,
        walk,
      );
      walk.visiting.delete(name);
      walk.fragmentCosts.set(key, fragmentCost);
      cost += fragmentCost;
    }
  }
  return cost;
}

function conditionType(name: string | undefined, fallback: GraphQLObjectType, walk: Walk): GraphQLObjectType {
  const t = name ? walk.schema.getType(name) : undefined;
  return t && isObjectType(t) ? t : fallback;
}

/** The schema's own meta fields are asked on the root (`__schema`, `__type`); `__typename` anywhere. */
function fieldDefinition(
  name: string,
  parent: GraphQLObjectType,
  walk: Walk,
): GraphQLField<unknown, unknown> | undefined {
  if (name === '__schema' && parent === walk.schema.getQueryType()) return SchemaMetaFieldDef;
  if (name === '__type' && parent === walk.schema.getQueryType()) return TypeMetaFieldDef;
  return parent.getFields()[name];
}

function fieldCost(node: FieldNode, parent: GraphQLObjectType, pageSize: number, walk: Walk): number {
  if (node.name.value === '__typename') return 1;
  const def = fieldDefinition(node.name.value, parent, walk);
  if (!def) return 0;
  const named = getNamedType(def.type);
  if (!isObjectType(named)) return 1;
  const key = `${parent.name}.${node.name.value}`;
  const childPageSize = key === 'Query.pools' ? firstArgument(node, walk) : pageSize;
  const multiplier = isListType(getNullableType(def.type))
    ? key === 'PoolConnection.pools'
      ? pageSize
      : (walk.listSizes[key] ?? 1)
    : 1;
  return 1 + multiplier * selectionCost(node.selectionSet, named, childPageSize, walk);
}

/** `first` of a pools query as the resolver will see it (out-of-range values are rejected there). */
function firstArgument(node: FieldNode, walk: Walk): number {
  const arg = node.arguments?.find((a) => a.name.value === 'first');
  let value: unknown = DEFAULT_FIRST;
  if (arg?.value.kind === Kind.INT) value = Number(arg.value.value);
  else if (arg?.value.kind === Kind.VARIABLE) {
    const name = arg.value.name.value;
    value = walk.variables[name] ?? walk.variableDefaults.get(name) ?? DEFAULT_FIRST;
  }
  return typeof value === 'number' && Number.isInteger(value) ? Math.min(Math.max(value, 0), MAX_FIRST) : DEFAULT_FIRST;
}
