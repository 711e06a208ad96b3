import type { StoredPool } from '../domain/pool';
import { isV2Routable, toRoutingPool, type RoutingPool } from './routingPools';
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
  /** Per chain and line (`input`'s `line`), the latest version. */
  private readonly last = new Map<string, ChainLine>();
  /**
   * Each stored pool object's routing form, made once: a delta converts the pools it carries, and
   * a new base would otherwise convert every pool again (a stall of the request thread that grows
   * with the catalogue) though all but the last deltas' pools were converted before.
   */
  private readonly routing = new WeakMap<StoredPool, RoutingPool>();
  private readonly convert = (p: StoredPool): RoutingPool => {
    let r = this.routing.get(p);
    if (!r) {
      r = toRoutingPool(p);
      this.routing.set(p, r);
    }
    return r;
  };
  private seq = 0;

  /**
   * The input of a pools array. `lineName` keeps apart versions that do not follow each other: a
   * subset of the chain's pools a client chose (`restricted`) would otherwise become the chain's
   * latest version, and the next full version would travel as a new base.
   */
  input(
    chainId: number,
    version: number,
    pools: readonly StoredPool[],
    lineName: 'chain' | 'restricted' = 'chain',
  ): PoolsInput {
    const known = this.inputs.get(pools);
    if (known) return known;
    const key = `${chainId}:${lineName === 'chain' ? '' : 'r'}p${version}:${++this.seq}`;
    const lineKey = `${chainId}:${lineName}`;
    const prev = this.last.get(lineKey);
    const delta = prev ? poolDelta(prev.pools, pools, this.convert) : undefined;
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
      const base = { key, data: encodeShared(pools.filter(isV2Routable).map(this.convert)) };
      const bridge = prev && delta ? { from: prev.input.key, delta: { key, data: encodeShared(delta) } } : undefined;
      line = { pools, input: { key, base, deltas: [], ...(bridge ? { bridge } : {}) }, carried: 0 };
    }
    this.last.set(lineKey, line);
    this.inputs.set(pools, line.input);
    return line.input;
  }
}

/**
 * What turns `prev` into `next`, by stored object identity: k pools converted. The read model
 * lists pools in id order and keeps the objects of pools a version left alone, so the two lists
 * are walked side by side (a pointer comparison per pool); only from where their ids part (a pool
 * came or went) are the rest matched by id.
 */
export function poolDelta(
  prev: readonly StoredPool[],
  next: readonly StoredPool[],
  convert: (p: StoredPool) => RoutingPool = toRoutingPool,
): PoolDelta {
  const upserts: RoutingPool[] = [];
  const removed: string[] = [];
  const changedTo = (old: StoredPool | undefined, p: StoredPool) => {
    if (isV2Routable(p)) upserts.push(convert(p));
    else if (old && isV2Routable(old)) removed.push(p.id);
  };
  let at = 0;
  for (; at < prev.length && at < next.length; at++) {
    const old = prev[at]!;
    const p = next[at]!;
    if (old === p) continue;
    if (old.id !== p.id) break;
    changedTo(old, p);
  }
  if (at === prev.length && at === next.length) return { upserts, removed };
  const before = new Map(prev.slice(at).map((p) => [p.id, p]));
  for (const p of next.slice(at)) {
    const old = before.get(p.id);
    before.delete(p.id);
    if (old !== p) changedTo(old, p);
  }
  for (const old of before.values()) if (isV2Routable(old)) removed.push(old.id);
  return { upserts, removed };
}

function byId(a: RoutingPool, b: RoutingPool): number {
  return a.spec.id < b.spec.id ? -1 : a.spec.id > b.spec.id ? 1 : 0;
}

/** Per pool set a thread holds: each pool id's place, shared by the sets a delta derives in place. */
const places = new WeakMap<readonly RoutingPool[], ReadonlyMap<string, number>>();

function placesOf(pools: readonly RoutingPool[]): ReadonlyMap<string, number> {
  let map = places.get(pools);
  if (!map) {
    map = new Map(pools.map((p, k) => [p.spec.id, k]));
    places.set(pools, map);
  }
  return map;
}

/**
 * The set after `delta`, keeping the objects of pools it leaves alone (a router built from the
 * previous set keeps their models). Pools keep their place; new ones go where id order puts
 * them, which is the order the read model lists pools in, so the result is the set a full
 * encode of the new version gives. A delta that only changes pools replaces them in a copy (k
 * lookups), the usual block.
 */
export function applyPoolDelta(pools: readonly RoutingPool[], delta: PoolDelta): RoutingPool[] {
  if (delta.removed.length === 0) {
    const at = placesOf(pools);
    if (delta.upserts.every((p) => at.has(p.spec.id))) {
      const out = [...pools];
      for (const p of delta.upserts) out[at.get(p.spec.id)!] = p;
      places.set(out, at);
      return out;
    }
  }
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
