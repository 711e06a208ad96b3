import type { StoredPool } from '../../domain/pool';
import type { StoredBuffer } from '../../domain/protocols/v3/stored/storedV3';
import type { ChainSnapshot } from '../../readModel/chainSnapshot';
import { applyDelta, storedDelta, VersionLine, type LineName, type PoolDelta, type PoolsInput } from '../poolVersions';
import type { V3Universe } from './v3Router';

/**
 * How a chain's V3 Vault travels to the quote threads, as the V2 Vault's pools do
 * (`poolVersions.ts`): a base (the V3 pools, the buffers and the decimals of the buffers' tokens)
 * and deltas on it, found by stored object identity (the read model keeps the objects of the
 * pools and buffers a block left alone, so a block costs the V3 pools and buffers it moved). A
 * thread applies the deltas after the version it holds, keeping the objects the deltas leave
 * alone and with them their models (`V3ModelCache` in `V3Router`).
 */

/** A buffer as it travels: its key (the ERC-4626 token, lower case) and its stored form. */
export type BufferEntry = readonly [string, StoredBuffer];

/** The full set of one version. */
export interface V3Set {
  /** The V3 Vault's pools, in id order. */
  readonly pools: readonly StoredPool[];
  /** In the snapshot's order. */
  readonly buffers: readonly BufferEntry[];
  /** The chain token list's decimals of the buffers' tokens (what no V3 pool may hold). */
  readonly decimals: Readonly<Record<string, number>>;
}

export interface V3Delta {
  readonly pools: PoolDelta<StoredPool>;
  readonly buffers: PoolDelta<BufferEntry>;
  /** The buffers' tokens' decimals when they differ from the version before. */
  readonly decimals?: Readonly<Record<string, number>>;
}

interface V3Source {
  readonly pools: readonly StoredPool[];
  readonly buffers: ReadonlyMap<string, StoredBuffer>;
  readonly decimals: Readonly<Record<string, number>>;
  /** `decimals` as text, to tell two versions' apart. */
  readonly decimalsKey: string;
}

const isV3 = (p: StoredPool): boolean => p.protocolVersion === 3;
const same = <T>(p: T): T => p;

function bufferDelta(
  prev: ReadonlyMap<string, StoredBuffer>,
  next: ReadonlyMap<string, StoredBuffer>,
): PoolDelta<BufferEntry> {
  const upserts: BufferEntry[] = [];
  const removed: string[] = [];
  for (const [key, b] of next) if (prev.get(key) !== b) upserts.push([key, b]);
  for (const key of prev.keys()) if (!next.has(key)) removed.push(key);
  return { upserts, removed };
}

function bufferDecimals(snap: ChainSnapshot): Record<string, number> {
  const out: Record<string, number> = {};
  if (snap.buffers.size === 0) return out;
  const tokens = new Map(snap.tokens.map((t) => [t.address.toLowerCase(), t.decimals]));
  for (const b of snap.buffers.values())
    for (const t of [b.wrappedToken.toLowerCase(), b.underlyingToken.toLowerCase()]) {
      const d = tokens.get(t);
      if (d !== undefined) out[t] = d;
    }
  return out;
}

/** Main-thread side: each snapshot's V3 input, one version per change of its pools, buffers or buffer decimals. */
export class V3Versions {
  private readonly line = new VersionLine<V3Source, V3Set, V3Delta>({
    full: (s) => ({ pools: s.pools.filter(isV3), buffers: [...s.buffers], decimals: s.decimals }),
    delta: (prev, next) => {
      const pools = storedDelta(prev.pools, next.pools, isV3, same);
      const buffers = bufferDelta(prev.buffers, next.buffers);
      const delta = {
        pools,
        buffers,
        ...(prev.decimalsKey === next.decimalsKey ? {} : { decimals: next.decimals }),
      };
      return {
        delta,
        size: pools.upserts.length + pools.removed.length + buffers.upserts.length + buffers.removed.length,
      };
    },
    size: (s) => s.pools.filter(isV3).length + s.buffers.size,
  });
  private readonly inputs = new WeakMap<
    readonly StoredPool[],
    { readonly source: V3Source; readonly tokens: ChainSnapshot['tokens']; readonly input: PoolsInput }
  >();

  /** The input of a snapshot, on line `lineName` (a subset of the pools a client chose is `restricted`). */
  input(snap: ChainSnapshot, lineName: LineName = 'chain'): PoolsInput {
    const known = this.inputs.get(snap.pools);
    if (known && known.source.buffers === snap.buffers && known.tokens === snap.tokens) return known.input;
    const decimals = bufferDecimals(snap);
    const source = { pools: snap.pools, buffers: snap.buffers, decimals, decimalsKey: JSON.stringify(decimals) };
    // A new token list (prices) over the same pools and buffers is the same version unless a
    // buffer token's decimals moved.
    const sameAs = (s: V3Source | undefined) =>
      s !== undefined &&
      s.pools === source.pools &&
      s.buffers === source.buffers &&
      s.decimalsKey === source.decimalsKey;
    const last = this.line.lastSource(snap.chainId, lineName);
    const input = sameAs(known?.source)
      ? known!.input
      : sameAs(last)
        ? this.line.lastInput(snap.chainId, lineName)!
        : this.line.next(snap.chainId, `p${snap.poolsVersion}`, source, lineName);
    this.inputs.set(snap.pools, { source, tokens: snap.tokens, input });
    return input;
  }
}

/** Thread side: what a thread holds of one version, and the universe the router reads from it. */
export interface V3Held {
  readonly set: V3Set;
  readonly universe: V3Universe;
}

export function heldV3(chainId: number, set: V3Set): V3Held {
  return {
    set,
    universe: {
      chainId,
      pools: set.pools,
      buffers: new Map(set.buffers),
      decimalsOf: (t) => set.decimals[t],
    },
  };
}

/** The version after `delta`, keeping the pool and buffer objects it leaves alone. */
export function applyV3Delta(chainId: number, held: V3Held, delta: V3Delta): V3Held {
  return heldV3(chainId, {
    pools: applyDelta(held.set.pools, delta.pools, (p) => p.id),
    buffers: applyDelta(held.set.buffers, delta.buffers, (b) => b[0]),
    decimals: delta.decimals ?? held.set.decimals,
  });
}
