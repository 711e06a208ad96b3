import type { StoredPool } from '../domain/pool';
import { isRoutable, toRoutingPool, toRoutingPools, type RoutingPool } from './routingPools';
import { encodeShared } from './sharedJson';

/**
 * How a chain's pool versions travel to the quote threads. A new version that shares most stored
 * pool objects with the last one (the read model keeps the objects of pools a block left alone)
 * travels as a delta: the pools that changed, appeared or went, on top of the last full set (the
 * base). A task carries the base and every delta since, all in SharedArrayBuffers (no copy): a
 * thread that holds an earlier version applies only the deltas after it, a new one decodes the
 * base first. A version that changes much, or a delta chain grown long, becomes the next base;
 * it also carries the delta from the version before it (`bridge`), so a thread that holds that
 * version applies the delta rather than decoding the new base and building every model afresh.
 */

export interface PoolDelta {
  /** Pools new or changed in this version, as the threads route over them. */
  readonly upserts: readonly RoutingPool[];
  /** Ids of pools that left the routable set. */
  readonly removed: readonly string[];
}

export interface SharedPart {
  readonly key: string;
  readonly data: SharedArrayBuffer;
}

export interface PoolsInput {
  /** Unique per pool version (chain, version, sequence). */
  readonly key: string;
  /** The last full set: `RoutingPool[]` as JSON. */
  readonly base: SharedPart;
  /** Deltas from the base to this version, oldest first (`PoolDelta` as JSON); empty for a base. */
  readonly deltas: readonly SharedPart[];
  /**
   * The delta to the base from the version before it (key `from`), carried by the base and the
   * deltas on it: a thread that held that version but no version since crosses to the base by it.
   */
  readonly bridge?: { readonly from: string; readonly delta: SharedPart };
}

/** A delta chain longer than this, or carrying more pools than this share of the set, is folded into a new base. */
const MAX_DELTAS = 64;
const MAX_DELTA_SHARE = 0.25;

interface ChainLine {
  readonly pools: readonly StoredPool[];
  readonly input: PoolsInput;
  /** Pools carried by the deltas since the base. */
  readonly carried: number;
}

export class PoolVersions {
  private readonly inputs = new WeakMap<readonly StoredPool[], PoolsInput>();
  private readonly last = new Map<number, ChainLine>();
  private seq = 0;

  input(chainId: number, version: number, pools: readonly StoredPool[]): PoolsInput {
    const known = this.inputs.get(pools);
    if (known) return known;
    const key = `${chainId}:p${version}:${++this.seq}`;
    const prev = this.last.get(chainId);
    const delta = prev ? poolDelta(prev.pools, pools) : undefined;
    const size = delta ? delta.upserts.length + delta.removed.length : 0;
    let line: ChainLine;
    if (
      prev &&
      delta &&
      prev.input.deltas.length < MAX_DELTAS &&
      prev.carried + size <= Math.max(1, pools.length * MAX_DELTA_SHARE)
    ) {
      const part = { key, data: encodeShared(delta) };
      line = {
        pools,
        input: {
          key,
          base: prev.input.base,
          deltas: [...prev.input.deltas, part],
          ...(prev.input.bridge ? { bridge: prev.input.bridge } : {}),
        },
        carried: prev.carried + size,
      };
    } else {
      const base = { key, data: encodeShared(toRoutingPools(pools)) };
      const bridge = prev && delta ? { from: prev.input.key, delta: { key, data: encodeShared(delta) } } : undefined;
      line = { pools, input: { key, base, deltas: [], ...(bridge ? { bridge } : {}) }, carried: 0 };
    }
    this.last.set(chainId, line);
    this.inputs.set(pools, line.input);
    return line.input;
  }
}

/** What turns `prev` into `next`, by stored object identity: O(n) lookups, k pools converted. */
export function poolDelta(prev: readonly StoredPool[], next: readonly StoredPool[]): PoolDelta {
  const before = new Map(prev.map((p) => [p.id, p]));
  const upserts: RoutingPool[] = [];
  const removed: string[] = [];
  for (const p of next) {
    const old = before.get(p.id);
    before.delete(p.id);
    if (old === p) continue;
    if (isRoutable(p)) upserts.push(toRoutingPool(p));
    else if (old && isRoutable(old)) removed.push(p.id);
  }
  for (const old of before.values()) if (isRoutable(old)) removed.push(old.id);
  return { upserts, removed };
}

function byId(a: RoutingPool, b: RoutingPool): number {
  return a.spec.id < b.spec.id ? -1 : a.spec.id > b.spec.id ? 1 : 0;
}

/**
 * The set after `delta`, keeping the objects of pools it leaves alone (a router built from the
 * previous set keeps their models). Pools keep their place; new ones go where id order puts
 * them, which is the order the read model lists pools in, so the result is the set a full
 * encode of the new version gives.
 */
export function applyPoolDelta(pools: readonly RoutingPool[], delta: PoolDelta): RoutingPool[] {
  const gone = new Set(delta.removed);
  const changed = new Map(delta.upserts.map((p) => [p.spec.id, p]));
  const out: RoutingPool[] = [];
  for (const p of pools) {
    if (gone.has(p.spec.id)) continue;
    const next = changed.get(p.spec.id);
    out.push(next ?? p);
    if (next) changed.delete(p.spec.id);
  }
  if (changed.size === 0) return out;
  return [...out, ...changed.values()].sort(byId);
}
