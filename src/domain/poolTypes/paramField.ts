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
  readonly subgraph: 'BigDecimal' | 'BigInt' | 'Int' | 'Bytes' | '[BigInt!]';
  /** How it is stored: a plain decimal string, a JS integer, a lower-case address, or a list of plain decimals. */
  readonly stored: 'decimal' | 'int' | 'address' | 'decimals';
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
}

type StoredValue<P extends ParamField> = P['stored'] extends 'int'
  ? number
  : P['stored'] extends 'decimals'
    ? readonly string[]
    : string;

/** The engine's view of a field list: every field optional, null where the pool lacks it. */
export type SpecParamsOf<F extends readonly ParamField[]> = {
  readonly [P in F[number] as P['name']]?: StoredValue<P> | null;
};

/** The stored view: `absent: 'null'` fields always present (maybe null), `'omit'` fields optional. */
export type StoredParamsOf<F extends readonly ParamField[]> = {
  readonly [P in F[number] as P['absent'] extends 'null' ? P['name'] : never]: StoredValue<P> | null;
} & {
  readonly [P in F[number] as P['absent'] extends 'null' ? never : P['name']]?: StoredValue<P>;
};
