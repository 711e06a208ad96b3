import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  Kind,
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
 * same big page ten times under ten names costs ten times as much.
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
      const fragment = walk.fragments.get(name);
      if (!fragment || walk.visiting.has(name)) continue;
      walk.visiting.add(name);
      cost += selectionCost(
        fragment.selectionSet,
        conditionType(fragment.typeCondition.name.value, type, walk),
        pageSize,
        walk,
      );
      walk.visiting.delete(name);
    }
  }
  return cost;
}

function conditionType(name: string | undefined, fallback: GraphQLObjectType, walk: Walk): GraphQLObjectType {
  const t = name ? walk.schema.getType(name) : undefined;
  return t && isObjectType(t) ? t : fallback;
}

function fieldCost(node: FieldNode, parent: GraphQLObjectType, pageSize: number, walk: Walk): number {
  // Introspection is bounded by graphql's own introspection-depth rule.
  if (node.name.value.startsWith('__')) return 0;
  const def = parent.getFields()[node.name.value];
  if (!def) return 0;
  const named = getNamedType(def.type);
  if (!isObjectType(named)) return 1;
  const key = `${parent.name}.${node.name.value}`;
  const childPageSize = key === 'Query.pools' ? firstArgument(node, walk) : pageSize;
  const multiplier = isListType(getNullableType(def.type))
    ? key === 'PoolConnection.pools'
      ? pageSize
      : (LIST_SIZES[key] ?? 1)
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
