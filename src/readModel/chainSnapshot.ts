import type { BlockRef } from '../domain/chainState';
import type { ChainMeta, StoredPool, StoredToken } from '../domain/pool';
import { toPoolView } from '../domain/poolView';
import type { StoredBuffer } from '../domain/protocols/v3/stored/storedV3';
import { PreparedBody } from './preparedBody';

const NO_BUFFERS: ReadonlyMap<string, StoredBuffer> = new Map();

/** Everything the read paths need for one chain, immutable once built. */
export class ChainSnapshot {
  // Built on first use: a follower makes a snapshot per block, most never asked a pool by id.
  private poolsByIdCache: ReadonlyMap<string, StoredPool> | undefined;
  private tokensByAddressCache: ReadonlyMap<string, StoredToken> | undefined;
  private poolsBodyCache: PreparedBody | undefined;
  private tokensBodyCache: PreparedBody | undefined;

  readonly chainId: number;
  readonly meta: ChainMeta;
  readonly pools: readonly StoredPool[];
  readonly tokens: readonly StoredToken[];
  readonly loadedAt: number;
  /**
   * The block whose chain state the pools carry (readModel.ts `setChainState`); null while no
   * node is followed for the chain and the pools are the subgraph's values.
   */
  readonly block: BlockRef | null;
  /**
   * The V3 Vault's buffers at `block`, by wrapped token (lower case): the chain's only (the
   * follower reads them), empty while no V3 state is followed.
   */
  readonly buffers: ReadonlyMap<string, StoredBuffer>;
  /** `ChainState.pricedAt` of the state laid over the pools; null: the block after `block`. */
  readonly pricedAt: number | null;

  constructor(init: {
    readonly chainId: number;
    readonly meta: ChainMeta;
    readonly pools: readonly StoredPool[];
    readonly tokens: readonly StoredToken[];
    readonly loadedAt: number;
    readonly block?: BlockRef | null;
    readonly buffers?: ReadonlyMap<string, StoredBuffer>;
    readonly pricedAt?: number | null;
  }) {
    this.chainId = init.chainId;
    this.meta = init.meta;
    this.pools = init.pools;
    this.tokens = init.tokens;
    this.loadedAt = init.loadedAt;
    this.block = init.block ?? null;
    this.buffers = init.buffers ?? NO_BUFFERS;
    this.pricedAt = init.pricedAt ?? null;
  }

  get poolsById(): ReadonlyMap<string, StoredPool> {
    return (this.poolsByIdCache ??= new Map(this.pools.map((p) => [p.id, p])));
  }

  get tokensByAddress(): ReadonlyMap<string, StoredToken> {
    return (this.tokensByAddressCache ??= new Map(this.tokens.map((t) => [t.address, t])));
  }

  get poolsVersion(): number {
    return this.meta.poolsVersion;
  }

  get tokensVersion(): number {
    return this.meta.tokensVersion;
  }

  /** `GET /pools/{chainId}`: every pool as the API shows it. */
  get poolsBody(): PreparedBody {
    return (this.poolsBodyCache ??= PreparedBody.json(this.pools.map((p) => toPoolView(p, this.chainId))));
  }

  /** `GET /tokens/{chainId}`. */
  get tokensBody(): PreparedBody {
    return (this.tokensBodyCache ??= PreparedBody.json(this.tokens.map((t) => ({ ...t, chainId: this.chainId }))));
  }

  /** A copy that keeps the pools (and their serialized body) and swaps in new tokens. */
  withTokens(meta: ChainMeta, tokens: readonly StoredToken[], loadedAt: number): ChainSnapshot {
    const next = new ChainSnapshot({
      chainId: this.chainId,
      meta,
      pools: this.pools,
      tokens,
      loadedAt,
      block: this.block,
      buffers: this.buffers,
      pricedAt: this.pricedAt,
    });
    next.poolsBodyCache = this.poolsBodyCache;
    next.poolsByIdCache = this.poolsByIdCache;
    return next;
  }

  /**
   * A copy at another chain block: `pools` (the same array when the block changed no pool, which
   * keeps the serialized body and every per-pools cache downstream) and the same tokens.
   */
  atBlock(
    pools: readonly StoredPool[],
    block: BlockRef,
    loadedAt: number,
    buffers: ReadonlyMap<string, StoredBuffer> = this.buffers,
    pricedAt: number | null = null,
  ): ChainSnapshot {
    const next = new ChainSnapshot({
      chainId: this.chainId,
      meta: this.meta,
      pools,
      tokens: this.tokens,
      loadedAt,
      block,
      buffers,
      pricedAt,
    });
    if (pools === this.pools) {
      next.poolsBodyCache = this.poolsBodyCache;
      next.poolsByIdCache = this.poolsByIdCache;
    }
    next.tokensBodyCache = this.tokensBodyCache;
    next.tokensByAddressCache = this.tokensByAddressCache;
    return next;
  }
}
