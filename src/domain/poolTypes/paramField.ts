import type { PoolSpecCore, PoolSpecToken } from '../swap/poolModel';

/**
 * A pool type's own stored parameter, declared once in its folder: the subgraph query asks for it,
 * the subgraph schema the local stand-ins validate against declares it, normalisation parses and
 * stores it, and the engine's input (`PoolSpec`) carries it. Types below derive from these lists,
 * so a field written in one place is typed in all of them.
 */
export interface ParamField {
  /** The subgraph's field name, also the stored and the engine's name. */
  readonly name: string;
  /** How the subgraph schema types it (a list only in the V3 pools subgraph's parameter entities). */
  readonly subgraph: 'BigDecimal' | 'BigInt' | 'Int' | 'Bytes' | 'Boolean' | '[BigInt!]';
  /**
   * How it is stored: a plain decimal string, a JS integer, a lower-case address, a list of plain
   * decimals, or a boolean.
   */
  readonly stored: 'decimal' | 'int' | 'address' | 'decimals' | 'boolean';
  /**
   * A pool without it stores `null` (fields every stored pool has had from the start), or leaves
   * the key out (fields added later: older stores and pool files lack them, and pools answer as
   * before). Parameters of a group are stored together under the group's key.
   */
  readonly absent: 'null' | 'omit';
  /**
   * The subgraph has no such field: only the chain-state reader fills it (`sources/chainState/`),
   * so the pools query does not ask for it and the subgraph stand-ins' schema does not declare it.
   */
  readonly chainOnly?: boolean;
  /**
   * The GraphQL Pool type shows it, and `where` and `orderBy` filter and sort it (`graphql/poolFields.ts`).
   * Typed from `stored`: a decimal is a String compared by value, an int an Int; `scalar: 'Float'`
   * for integers that exceed GraphQL's 32-bit Int. Only top-level parameters (not a group's).
   */
  readonly graphql?: GraphqlExposure;
}

export interface GraphqlExposure {
  readonly scalar?: 'Float';
  /** The schema's description of the field. */
  readonly description?: string;
}

type StoredValue<P extends ParamField> = P['stored'] extends 'int'
  ? number
  : P['stored'] extends 'decimals'
    ? readonly string[]
    : P['stored'] extends 'boolean'
      ? boolean
      : string;

/** The engine's view of a field list: every field optional, null where the pool lacks it. */
export type SpecParamsOf<F extends readonly ParamField[]> = {
  readonly [P in F[number] as P['name']]?: StoredValue<P> | null;
};

/**
 * A pool type's spec: the core fields every pool has plus the fields `F` declares, null where the pool
 * lacks one, and on each token the token-level fields `T` declares. Its model reads this, never the
 * registry's whole `PoolSpec`: a field it reads is one its definition declares (in `params`,
 * `sharedParams` or `tokenParams`), so the registry stores it.
 */
export type SpecOf<F extends readonly ParamField[], T extends readonly ParamField[] = readonly []> = Omit<
  PoolSpecCore,
  'tokens'
> &
  SpecParamsOf<F> & { readonly tokens: readonly (PoolSpecToken & SpecParamsOf<T>)[] };

/** The stored view: `absent: 'null'` fields always present (maybe null), `'omit'` fields optional. */
export type StoredParamsOf<F extends readonly ParamField[]> = {
  readonly [P in F[number] as P['absent'] extends 'null' ? P['name'] : never]: StoredValue<P> | null;
} & {
  readonly [P in F[number] as P['absent'] extends 'null' ? never : P['name']]?: StoredValue<P>;
};

/**
 * A model read a parameter its spec does not carry at all: the spec was not built from the
 * registry's fields (`poolSpec.ts` writes each one every registered type declares, null where the
 * pool lacks it). A bug in the caller, reported as one (`buildModels` logs it at error level),
 * never a pool quoted at a default.
 */
export class MissingParamError extends Error {
  override readonly name = 'MissingParamError';
}

/**
 * A type's parameter from its spec: null where the pool lacks the value (the model's documented
 * fallback applies), `MissingParamError` where the spec has no such field.
 */
export function declaredParam<S extends { readonly id: string; readonly poolType: string }, K extends keyof S & string>(
  spec: S,
  name: K,
): Exclude<S[K], undefined> {
  const value = spec[name];
  if (value === undefined)
    throw new MissingParamError(`${spec.poolType} pool ${spec.id} has no ${name} field, which its type declares`);
  return value as Exclude<S[K], undefined>;
}
