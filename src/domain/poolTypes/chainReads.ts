import type { StoredPool } from '../pool';

/**
 * What a pool type reads from the chain at a block, beside what its Vault reads for every
 * pool, and what it makes of the answers: its own typed state, how that state replaces the stored
 * (subgraph) values, when the pool must be read again and how the state moves with time. A type
 * declares it as `chain` in its definition (`poolTypeDef.ts`), in its family folder; the
 * chain-state reader (`sources/chainState/chainStateReader.ts`) only batches the calls, pins them
 * to the block and decodes the answers into the values the getters declare. Pure.
 */

/**
 * Return types the reader decodes; the getters a pool type reads return only these. A static
 * struct returned by value is its fields' words in order (a narrower integer is read as its
 * 256-bit word); `(uint256,address,bool)[]` is the V3 Vault's `TokenInfo[]` (token type, rate
 * provider, pays yield fees).
 */
export type AbiWord =
  'uint256' | 'int256' | 'bool' | 'address' | 'uint256[]' | 'int256[]' | 'address[]' | '(uint256,address,bool)[]';

/** One `(uint256,address,bool)` of such an array. */
export type UintAddressBool = readonly [bigint, string, boolean];
/** Argument types of those getters. */
export type AbiInput = 'uint256' | 'uint8' | 'address' | 'bytes32' | 'uint256[]';
/** An argument's value (a `uint256[]` argument is a list of bigints). */
export type AbiArg = bigint | number | string | readonly bigint[];

type WordValue<W extends AbiWord> = W extends 'uint256' | 'int256'
  ? bigint
  : W extends 'bool'
    ? boolean
    : W extends 'address'
      ? string
      : W extends 'uint256[]' | 'int256[]'
        ? readonly bigint[]
        : W extends 'address[]'
          ? readonly string[]
          : readonly UintAddressBool[];

/** The decoded answer of a getter returning `O`: addresses in lower case. */
export type WordValues<O extends readonly AbiWord[]> = { readonly [K in keyof O]: WordValue<O[K]> };
export type AbiValue = bigint | boolean | string | readonly bigint[] | readonly string[] | readonly UintAddressBool[];

/** A view function: its name, argument types and return types (its selector is the reader's). */
export interface Getter<O extends readonly AbiWord[] = readonly AbiWord[]> {
  readonly name: string;
  readonly inputs: readonly AbiInput[];
  readonly outputs: O;
  /**
   * It returns one struct holding an array (`returns (SomeData memory data)`): the answer is the
   * struct's offset, then the struct, whose fields are `outputs`.
   */
  readonly struct?: true;
}

export function getter<const O extends readonly AbiWord[]>(
  name: string,
  inputs: readonly AbiInput[],
  outputs: O,
): Getter<O> {
  return { name, inputs, outputs };
}

/** A getter returning one struct that holds an array, whose fields are `outputs` in order. */
export function structGetter<const O extends readonly AbiWord[]>(
  name: string,
  inputs: readonly AbiInput[],
  outputs: O,
): Getter<O> {
  return { name, inputs, outputs, struct: true };
}

/**
 * An event a contract emits: its canonical signature (the reader hashes it into the topic) and,
 * for an event whose fields are read, the types of its data (the fields not indexed).
 */
export interface ChainEvent<O extends readonly AbiWord[] = readonly AbiWord[]> {
  readonly signature: string;
  readonly data?: O;
}

export function chainEvent<const O extends readonly AbiWord[]>(signature: string, data?: O): ChainEvent<O> {
  return data === undefined ? { signature } : { signature, data };
}

/** Where a call goes: the pool's own contract, the Vault of its protocol, or another contract. */
export type CallTarget = { readonly pool: true } | { readonly vault: true } | { readonly address: string };
export const AT_POOL: CallTarget = { pool: true };
export const AT_VAULT: CallTarget = { vault: true };
export const at = (address: string): CallTarget => ({ address });

/**
 * One `eth_call` and what its answer sets in the draft `D`. A call that reverts (a getter the
 * contract lacks) or answers something else than its declared values sets nothing.
 */
export interface ChainCall<D> {
  readonly to: CallTarget;
  readonly getter: Getter;
  readonly args: readonly AbiArg[];
  apply(draft: D, values: readonly AbiValue[]): void;
}

/** A call whose `apply` receives the values its getter declares. */
export function chainCall<D, const O extends readonly AbiWord[]>(
  to: CallTarget,
  g: Getter<O>,
  args: readonly AbiArg[],
  apply: (draft: D, values: WordValues<O>) => void,
): ChainCall<D> {
  return { to, getter: g, args, apply };
}

/**
 * The last log of `event` the pool emitted up to the block (what no getter returns: where a ramp
 * or an update started). `apply` gets its data fields; it answers false when the log does not
 * describe the state read (the pool's values then stay as read, and it is read again at every
 * block: `timeUnknown`). A node refusing the query does the same. No log: `apply` is not called.
 */
export interface LastLogRead<D> {
  readonly lastLog: ChainEvent;
  apply(draft: D, values: readonly AbiValue[]): boolean;
}

export function lastLogRead<D, const O extends readonly AbiWord[]>(
  event: ChainEvent<O>,
  apply: (draft: D, values: WordValues<O>) => boolean,
): LastLogRead<D> {
  return { lastLog: event, apply };
}

/** What the Vault reads said of the pool: its tokens in the Vault's order, lower case, and balances. */
export interface VaultTokens {
  readonly tokens: readonly { readonly address: string; readonly balance: bigint }[];
}

/**
 * A pool type's chain reads. `D` is the draft its answers fill (the state and what a second round
 * needs), `S` the state it keeps, `M` a memo the reader keeps for it across blocks (owned by the
 * follower's reader, never a module variable). Methods, not function properties: a definition of
 * any state type stands in the registry as `ChainReads` of unknown.
 */
export interface ChainReads<S = unknown, D = unknown, M = unknown> {
  /** Events the pool's own contract emits that change what its getters answer: each re-reads it. */
  readonly events: readonly ChainEvent[];
  /**
   * A V2 Vault `Swap` of the pool changes nothing the Vault reads' getters or these reads answer but the
   * Vault's balances (the pool mints no BPT and refreshes no cache on a swap). A pool that only
   * swapped since the state's block is then read by its balances alone (`getPoolTokens`), the rest
   * kept; the slow re-read (`jobs/follow/slowReread.ts`) would catch a type that claims it wrongly.
   */
  readonly swapsMoveBalancesOnly?: boolean;
  /** What its reads depend on in the stored pool beyond its address, type, version and tokens. */
  shape?(pool: StoredPool): string;
  /** A fresh draft for one read of one pool. */
  draft(): D;
  /** The calls of the first round, at the block. */
  first(pool: StoredPool): readonly ChainCall<D>[];
  /** The calls of the second round, which depend on the first's answers (providers, logs). */
  second?(pool: StoredPool, draft: D, vaultTokens: VaultTokens, memo: M): readonly (ChainCall<D> | LastLogRead<D>)[];
  /** The state, once both rounds' answers are in. */
  finish(draft: D, vaultTokens: VaultTokens): S;
  newMemo?(): M;
  /** `pool` (the Vault's state already applied) with the state's values in place of the stored ones. */
  apply(pool: StoredPool, own: S, vaultTokens: VaultTokens): StoredPool;
  /** The state as a swap at `timestamp` sees it; the same object when nothing differs. */
  at?(own: S, timestamp: bigint): S;
  /** Whether the state holds a schedule that moves it with time alone (evaluated again at each head). */
  movesWithTime?(own: S): boolean;
  /** Whether the pool's state at `timestamp` may differ from what was read with no event naming it. */
  needsReread?(own: S, timestamp: bigint): boolean;
  /** Other contracts (lower case) whose events re-read the pool (a fees collector whose fee it pays). */
  watches?(own: S): readonly string[];
  /**
   * The state as a re-read with no event must find it again (absent: the state itself): without
   * what moves freely and is read only for later (a provider's rate behind an unexpired cache).
   */
  comparable?(own: S): unknown;
}

/** The pool type's state in a pool's chain state, with the reads it came from. */
export interface OwnChainState {
  readonly reads: ChainReads;
  readonly state: unknown;
}

/**
 * The state of `own` when `reads` made it. The reader pairs each state with its reads, so the
 * identity check is what makes the type of the state known.
 */
export function ownStateOf<S, D, M>(reads: ChainReads<S, D, M>, own: OwnChainState | undefined): S | undefined {
  return own !== undefined && own.reads === reads ? (own.state as S) : undefined;
}
