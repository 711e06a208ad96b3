import type { StoredPool } from '../domain/pool';
import { isV2Routable, toRoutingPool, type RoutingPool } from './v2/routingPools';
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

export interface PoolDelta<R = RoutingPool> {
  /** Pools new or changed in this version, as the threads route over them. */
  readonly upserts: readonly R[];
  /** Ids of pools that left the set. */
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

/** A delta chain longer than this, or carrying more items than this share of the set, is folded into a new base. */
const MAX_DELTAS = 64;
const MAX_DELTA_SHARE = 0.25;

/**
 * What a line of versions sends: the full set of a source (a base) and what turns one source
 * into the next (a delta, with how many items it carries: the share rule counts them).
 */
export interface VersionCodec<S, F, D> {
  full(source: S): F;
  delta(prev: S, next: S): { readonly delta: D; readonly size: number };
  /** Items in a source's full set. */
  size(source: S): number;
}

interface ChainLine<S> {
  readonly source: S;
  readonly input: PoolsInput;
  /** Items carried by the deltas since the base. */
  readonly carried: number;
}

/**
 * One chain's versions of one set (the V2 Vault's routable pools, or the V3 Vault's universe) as
 * a base and deltas on it, in the shape the threads apply (`PoolsInput`).
 */
export class VersionLine<S, F, D> {
  /** Per chain and line name, the latest version. */
  private readonly last = new Map<string, ChainLine<S>>();
  private seq = 0;

  constructor(private readonly codec: VersionCodec<S, F, D>) {}

  /**
   * The next version of chain `chainId`'s line `lineName`. Lines keep apart versions that do not
   * follow each other: a subset of the chain's pools a client chose (`restricted`) would otherwise
   * become the chain's latest version, and the next full version would travel as a new base.
   */
  next(chainId: number, version: string, source: S, lineName: LineName = 'chain'): PoolsInput {
    const key = `${chainId}:${lineName === 'chain' ? '' : 'r'}${version}:${++this.seq}`;
    const lineKey = `${chainId}:${lineName}`;
    const prev = this.last.get(lineKey);
    const step = prev ? this.codec.delta(prev.source, source) : undefined;
    const size = step?.size ?? 0;
    let line: ChainLine<S>;
    if (
      prev &&
      step &&
      prev.input.deltas.length < MAX_DELTAS &&
      prev.carried + size <= Math.max(1, this.codec.size(source) * MAX_DELTA_SHARE)
    ) {
      const part = { key, data: encodeShared(step.delta) };
      line = {
        source,
        input: {
          key,
          base: prev.input.base,
          deltas: [...prev.input.deltas, part],
          ...(prev.input.bridge ? { bridge: prev.input.bridge } : {}),
        },
        carried: prev.carried + size,
      };
    } else {
      const base = { key, data: encodeShared(this.codec.full(source)) };
      const bridge =
        prev && step ? { from: prev.input.key, delta: { key, data: encodeShared(step.delta) } } : undefined;
      line = { source, input: { key, base, deltas: [], ...(bridge ? { bridge } : {}) }, carried: 0 };
    }
    this.last.set(lineKey, line);
    return line.input;
  }

  /** The chain's last source, to tell whether a new one is the same. */
  lastSource(chainId: number, lineName: LineName = 'chain'): S | undefined {
    return this.last.get(`${chainId}:${lineName}`)?.source;
  }

  lastInput(chainId: number, lineName: LineName = 'chain'): PoolsInput | undefined {
    return this.last.get(`${chainId}:${lineName}`)?.input;
  }
}

/** The chain's own versions, or those of a subset of its pools a client chose. */
export type LineName = 'chain' | 'restricted';

/** The V2 Vault's routable pools of each pool version, as `RoutingPool`s. */
export class PoolVersions {
  private readonly inputs = new WeakMap<readonly StoredPool[], PoolsInput>();
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
  private readonly line = new VersionLine<readonly StoredPool[], RoutingPool[], PoolDelta>({
    full: (pools) => pools.filter(isV2Routable).map(this.convert),
    delta: (prev, next) => {
      const delta = poolDelta(prev, next, this.convert);
      return { delta, size: delta.upserts.length + delta.removed.length };
    },
    size: (pools) => pools.length,
  });

  /** The input of a pools array, on line `lineName` (`VersionLine.next`). */
  input(chainId: number, version: number, pools: readonly StoredPool[], lineName: LineName = 'chain'): PoolsInput {
    const known = this.inputs.get(pools);
    if (known) return known;
    const input = this.line.next(chainId, `p${version}`, pools, lineName);
    this.inputs.set(pools, input);
    return input;
  }
}

/**
 * What turns `prev` into `next` among the V2 Vault's routable pools, by stored object identity:
 * k pools converted. The read model lists pools in id order
 * and keeps the objects of pools a version left alone, so the two lists are walked side by side
 * (a pointer comparison per pool); only from where their ids part (a pool came or went) are the
 * rest matched by id.
 */
export function poolDelta(
  prev: readonly StoredPool[],
  next: readonly StoredPool[],
  convert: (p: StoredPool) => RoutingPool = toRoutingPool,
): PoolDelta {
  return storedDelta(prev, next, isV2Routable, convert);
}

/** `poolDelta` over the pools `holds` takes, each converted by `convert`. */
export function storedDelta<R>(
  prev: readonly StoredPool[],
  next: readonly StoredPool[],
  holds: (p: StoredPool) => boolean,
  convert: (p: StoredPool) => R,
): PoolDelta<R> {
  const upserts: R[] = [];
  const removed: string[] = [];
  const changedTo = (old: StoredPool | undefined, p: StoredPool) => {
    if (holds(p)) upserts.push(convert(p));
    else if (old && holds(old)) removed.push(p.id);
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
  for (const old of before.values()) if (holds(old)) removed.push(old.id);
  return { upserts, removed };
}

/** Per set a thread holds: each item id's place, shared by the sets a delta derives in place. */
const places = new WeakMap<readonly unknown[], ReadonlyMap<string, number>>();

function placesOf<R>(items: readonly R[], idOf: (r: R) => string): ReadonlyMap<string, number> {
  let map = places.get(items);
  if (!map) {
    map = new Map(items.map((p, k) => [idOf(p), k]));
    places.set(items, map);
  }
  return map;
}

/**
 * The set after `delta`, keeping the objects of items it leaves alone (a router built from the
 * previous set keeps their models). Items keep their place; new ones go where id order puts
 * them, which is the order the read model lists pools in, so the result is the set a full
 * encode of the new version gives. A delta that only changes items replaces them in a copy (k
 * lookups), the usual block.
 */
export function applyPoolDelta(pools: readonly RoutingPool[], delta: PoolDelta): RoutingPool[] {
  return applyDelta(pools, delta, (p) => p.spec.id);
}

/** `applyPoolDelta` over any items, each known by `idOf`. */
export function applyDelta<R>(items: readonly R[], delta: PoolDelta<R>, idOf: (r: R) => string): R[] {
  if (delta.removed.length === 0) {
    const at = placesOf(items, idOf);
    if (delta.upserts.every((p) => at.has(idOf(p)))) {
      const out = [...items];
      for (const p of delta.upserts) out[at.get(idOf(p))!] = p;
      places.set(out, at);
      return out;
    }
  }
  const gone = new Set(delta.removed);
  const changed = new Map(delta.upserts.map((p) => [idOf(p), p]));
  const out: R[] = [];
  for (const p of items) {
    const id = idOf(p);
    if (gone.has(id)) continue;
    const next = changed.get(id);
    out.push(next ?? p);
    if (next) changed.delete(id);
  }
  if (changed.size === 0) return out;
  const byId = (a: R, b: R) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0);
  return [...out, ...changed.values()].sort(byId);
}
