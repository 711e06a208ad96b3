import { poolTypeDef } from '../poolTypes/registry';
import { canJoinExit, Revert, type JoinExitModel, type PoolModel, type PoolState, type SwapKind } from './poolModel';

/**
 * A pool's single-token joins and exits seen as swaps between its tokens and its BPT, so the path
 * search routes through them as through any pool: token -> BPT is a join (EXACT_TOKENS_IN_FOR_BPT_OUT),
 * BPT -> token an exit (EXACT_BPT_IN_FOR_ONE_TOKEN_OUT). The BPT is the last token. Such a hop
 * shares the pool's id and state with the pool's own swaps, so a route that both swaps in and
 * joins a pool sees one state. Joins and exits exist for an exact amount in only: a given-out
 * swap reverts (`Revert`), so buy orders never take them; `maxAmount(givenOut)` is what the
 * largest join or exit gives, a depth for ranking only.
 *
 * The Vault cannot batch them: a route with one goes through the batch relayer
 * (src/routing/v2/relayer), which is why `isJoinExitHop` marks them for serialization.
 */

/** Share of a balance (or supply) the float spot price is probed with. */
const PROBE_SHARE = 1_000_000n;

export class JoinExitPool<S extends PoolState = PoolState> implements PoolModel<S> {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  /** Index of the BPT among `tokens` (the last). */
  readonly bpt: number;

  constructor(
    readonly inner: PoolModel<S> & JoinExitModel<S>,
    private readonly joins: boolean,
    private readonly exits: boolean,
  ) {
    this.id = inner.id;
    this.address = inner.address;
    this.poolType = inner.poolType;
    this.tokens = [...inner.tokens, inner.address];
    this.decimals = [...inner.decimals, 18];
    this.bpt = inner.tokens.length;
  }

  initialState(): S {
    return this.inner.initialState();
  }

  cloneState(state: S): S {
    return this.inner.cloneState(state);
  }

  /** 'join' for token -> BPT, 'exit' for BPT -> token. */
  action(i: number, j: number): 'join' | 'exit' {
    if (j === this.bpt) return 'join';
    if (i === this.bpt) return 'exit';
    throw new RangeError(`hop ${i} -> ${j} of pool ${this.id} is neither a join nor an exit`);
  }

  canSwap(i: number, j: number): boolean {
    const n = this.bpt;
    if (j === n) return this.joins && i >= 0 && i < n;
    if (i === n) return this.exits && j >= 0 && j < n;
    return false;
  }

  swap(state: S, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (kind === 'givenOut') throw new Revert(`pool ${this.id}: joins and exits take an exact amount in`);
    return this.action(i, j) === 'join'
      ? this.inner.joinGivenIn(state, i, amount)
      : this.inner.exitGivenIn(state, j, amount);
  }

  apply(state: S, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    if (this.action(i, j) === 'join') this.inner.applyJoin(state, i, amountIn, amountOut);
    else this.inner.applyExit(state, j, amountIn, amountOut);
  }

  maxAmount(state: S, kind: SwapKind, i: number, j: number): bigint {
    const join = this.action(i, j) === 'join';
    const maxIn = join ? this.inner.maxJoin(state, i) : this.inner.maxExit(state, j);
    if (kind === 'givenIn' || maxIn <= 0n) return maxIn;
    return this.swap(state, 'givenIn', i, j, maxIn);
  }

  /** Probed with a millionth of the balance (join) or supply (exit): fees included, a float for ranking. */
  spotPrice(state: S, i: number, j: number): number {
    const join = this.action(i, j) === 'join';
    const base = join ? state.balances[i]! : this.inner.maxExit(state, j);
    const probe = base / PROBE_SHARE > 0n ? base / PROBE_SHARE : 1n;
    const out = this.swap(state, 'givenIn', i, j, probe);
    if (out <= 0n) return Infinity;
    return Number(probe) / 10 ** this.decimals[i]! / (Number(out) / 10 ** this.decimals[j]!);
  }
}

export function isJoinExitPool(pool: PoolModel): pool is JoinExitPool {
  return pool instanceof JoinExitPool;
}

function hopOf(m: PoolModel): JoinExitPool | null {
  if (!canJoinExit(m)) return null;
  // Who may join or exit is the pool type's (a liquidity bootstrapping pool takes joins from its owner only).
  const def = poolTypeDef(m.poolType);
  const joins = def?.joins === true;
  const exits = def?.exits === true;
  return joins || exits ? new JoinExitPool(m, joins, exits) : null;
}

/**
 * The join/exit hops of a pool set: one per pool that has single-token joins or exits. `cache`
 * keeps a model's hop (or its absence) so graphs of the same pool version reuse it and its edges.
 */
export function joinExitPools(
  models: readonly PoolModel[],
  cache?: WeakMap<PoolModel, JoinExitPool | null>,
): JoinExitPool[] {
  const out: JoinExitPool[] = [];
  for (const m of models) {
    let hop = cache?.get(m);
    if (hop === undefined) {
      hop = hopOf(m);
      cache?.set(m, hop);
    }
    if (hop) out.push(hop);
  }
  return out;
}
