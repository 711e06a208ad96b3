import { LRUCache } from 'lru-cache';
import type { AppContext } from '../appContext';
import { appStateKey } from '../appState';
import type { ChainInfo } from '../config/chains';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import { callBatch, RPC_UPSTREAM, type JsonRpcOptions } from '../sources/rpc/jsonRpc';
import { NO_RETRY, UpstreamError } from '../sources/upstream';
import { followersKey, followStatusKey } from './headFollower';
import { lagReason } from './follow/followStatus';

/**
 * No answer older than the head the client may have seen (docs/ARCHITECTURE.md, "Chain state"):
 * `/order` asks the chain's node for its head and, while the served state is older, nudges the
 * follower and waits for it to publish that block, up to `FOLLOW_WAIT_MS`; a `minBlockNumber`
 * and the pool update wait the same way. What cannot be had in time is a `StateBehindHead`,
 * answered as 503 with Retry-After naming the node: never an answer built on the older block.
 */

/** The served state is not at the block a request needs, and did not get there in time. */
export class StateBehindHead extends Error {
  override readonly name = 'StateBehindHead';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * `eth_blockNumber` for one chain, one request at a time shared by every caller that arrived
 * before it was sent. A caller arriving while a request is in flight waits for the next one: the
 * one in flight may have been answered before the block the caller has just seen.
 */
class HeadProbe {
  private inFlight: Promise<number> | undefined;
  private next: Promise<number> | undefined;

  constructor(private readonly rpc: JsonRpcOptions) {}

  latest(): Promise<number> {
    if (this.next) return this.next;
    if (!this.inFlight) {
      this.inFlight = this.ask().finally(() => (this.inFlight = undefined));
      return this.inFlight;
    }
    this.next = this.inFlight
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.latest();
      });
    return this.next;
  }

  private async ask(): Promise<number> {
    const [answer] = await callBatch(this.rpc, [{ method: 'eth_blockNumber', params: [] }]);
    if (!answer?.ok || typeof answer.result !== 'string' || !/^0x[0-9a-f]+$/i.test(answer.result))
      throw new UpstreamError(
        RPC_UPSTREAM,
        `eth_blockNumber failed: ${answer && !answer.ok ? answer.error : 'no block number in the answer'}`,
      );
    return Number(BigInt(answer.result));
  }
}

const headProbesKey = appStateKey('head probes', () => new Map<number, HeadProbe>());

/** Whether the chain's head is followed here: only then can a request ask for a block. */
export function isFollowed(ctx: AppContext, chainId: number): boolean {
  return ctx.state.get(followersKey).has(chainId);
}

const nodeName = (chain: ChainInfo) => `the RPC node of chain ${chain.id} (RPC_URL_${chain.id})`;

/** The node's head now, asked once for every caller waiting for it (`HeadProbe`). */
export async function nodeHead(ctx: AppContext, chain: ChainInfo): Promise<number> {
  const probes = ctx.state.get(headProbesKey);
  let probe = probes.get(chain.id);
  if (!probe) {
    const url = ctx.config.rpcUrls.get(chain.id);
    if (!url) throw new StateBehindHead(`chain ${chain.id} has no RPC URL (RPC_URL_${chain.id}) to ask its head`, 60);
    // Short: a node that cannot say its head in a second will not give a state at it in time.
    probe = new HeadProbe({ url, timeoutMs: Math.max(1000, ctx.config.follow.waitMs), retry: NO_RETRY, batchSize: 1 });
    probes.set(chain.id, probe);
  }
  try {
    return await probe.latest();
  } catch (e) {
    throw new StateBehindHead(
      `${nodeName(chain)} did not say its head (${(e as Error).message}), so the service cannot tell whether its pool state is current; no answer is built on it; retry later`,
      5,
    );
  }
}

/**
 * How far past the node's head a `minBlockNumber` may be and still be waited for: a client's own
 * provider may be a block or a few ahead of this node. Past that the block cannot come within
 * `FOLLOW_WAIT_MS`, and waiting for it would only make the follower poll fast for nothing.
 */
export const MIN_BLOCK_PAST_HEAD = 10;

/** A `minBlockNumber` more than `MIN_BLOCK_PAST_HEAD` past the node's head: the caller's to fix. */
export class BlockPastHead extends Error {
  override readonly name = 'BlockPastHead';
}

export interface StateWanted {
  /** Ask the node for its head and wait for the state at it. */
  readonly atNodeHead: boolean;
  /** A block the client needs the state to include (`minBlockNumber`). */
  readonly minBlock?: number;
}

/**
 * The chain's snapshot once its state includes what `wanted` asks, waiting for the follower up
 * to `FOLLOW_WAIT_MS`; the current snapshot when the chain is not followed. Throws
 * `StateBehindHead` when the node cannot say its head or the block is not published in time
 * (naming the lag when it is past `FOLLOW_MAX_LAG_BLOCKS` or `FOLLOW_MAX_LAG_SECONDS`). Waiting
 * comes first: a state the follower brings to the head within the bound lags by nothing.
 */
export async function servedStateAt(ctx: AppContext, chain: ChainInfo, wanted: StateWanted): Promise<ChainSnapshot> {
  const follower = ctx.state.get(followersKey).get(chain.id);
  const status = ctx.state.get(followStatusKey).get(chain.id);
  const current = () => ctx.readModel.get(chain.id);
  if (!follower || !status) return current()!;
  const head = wanted.atNodeHead ? await nodeHead(ctx, chain) : undefined;
  const target = Math.max(head ?? -1, wanted.minBlock ?? -1);
  const served = () => current()?.block?.number ?? -1;
  if (served() >= target) return current()!;
  if (wanted.minBlock !== undefined) await refuseFarBlock(ctx, chain, wanted.minBlock, head ?? status.head?.number);
  // The node reported a head past the state: the lag counts from now (`lagReason`).
  if (head !== undefined && head > served()) status.behindSince ??= ctx.now();
  const waitMs = ctx.config.follow.waitMs;
  const snap = await publishedAt(ctx, chain.id, target, () => follower.nudge(target, waitMs));
  if (snap) return snap;
  // Too far behind to catch up soon: say how far, and ask for a later retry.
  const { maxLagBlocks, maxLagSeconds } = ctx.config.follow;
  const lag =
    head === undefined
      ? null
      : lagReason(status, head, ctx.now(), { maxBlocks: maxLagBlocks, maxSeconds: maxLagSeconds });
  if (lag)
    throw new StateBehindHead(
      `${nodeName(chain)} ${lag}; pool state is block ${served()}, so no answer is built on it; retry later`,
      5,
    );
  throw new StateBehindHead(
    `chain ${chain.id}'s pool state is ${served() < 0 ? 'not read from the chain yet (the first full read is under way)' : `block ${served()}`} and the block asked for is ${target}` +
      `${head === target ? ` (${nodeName(chain)} reports it as its head)` : ''}; the state, read through ${head === target ? 'that node' : nodeName(chain)}, did not reach it within ${waitMs} ms (FOLLOW_WAIT_MS), so no answer is built on the older block; retry in a moment`,
    1,
  );
}

/**
 * Throws `BlockPastHead` when `minBlock` is more than `MIN_BLOCK_PAST_HEAD` past the node's head.
 * The head the follower last saw settles most asks; only one past it asks the node (`nodeHead`),
 * since the follower's head may be a poll old.
 */
async function refuseFarBlock(ctx: AppContext, chain: ChainInfo, minBlock: number, known: number | undefined) {
  if (known !== undefined && minBlock <= known + MIN_BLOCK_PAST_HEAD) return;
  const head = await nodeHead(ctx, chain);
  if (minBlock > head + MIN_BLOCK_PAST_HEAD)
    throw new BlockPastHead(
      `minBlockNumber: ${minBlock} is ${minBlock - head} blocks past block ${head}, the head of ${nodeName(chain)}; the service waits only for a block at most ${MIN_BLOCK_PAST_HEAD} past it. Send a block you have seen mined, or leave minBlockNumber out`,
    );
}

/**
 * Resolves with the first snapshot of the chain at `block` or later, or undefined after
 * `FOLLOW_WAIT_MS`. `nudge` runs at once and after each publish still short of the block (a node
 * whose `latest` lags the head another of its servers announced).
 */
function publishedAt(
  ctx: AppContext,
  chainId: number,
  block: number,
  nudge: () => void,
): Promise<ChainSnapshot | undefined> {
  const waitMs = ctx.config.follow.waitMs;
  if (waitMs === 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const done = (snap: ChainSnapshot | undefined) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(snap);
    };
    const unsubscribe = ctx.readModel.onReload((next) => {
      if (next.chainId !== chainId) return;
      if ((next.block?.number ?? -1) >= block) done(next);
      else nudge();
    });
    const timer = setTimeout(() => done(undefined), waitMs);
    timer.unref();
    nudge();
  });
}

/**
 * The number of the block with `hash`, as the chain's node knows it: undefined when the node has
 * no such block (a hash from another chain, or a block reorganised away). Lets a client name the
 * block it has seen by hash (CoW's `X-CURRENT-BLOCK-HASH`) and get an answer at it or later. A
 * hash's number never changes, so it is asked once: every request and alias naming it after that
 * (and concurrent ones, which share the question) costs no call.
 */
export async function blockNumberOfHash(ctx: AppContext, chain: ChainInfo, hash: string): Promise<number | undefined> {
  const known = ctx.state.get(blockHashesKey);
  let chainHashes = known.get(chain.id);
  if (!chainHashes) known.set(chain.id, (chainHashes = new LRUCache({ max: KNOWN_HASHES })));
  // The served block is the one clients name most; remember it as it goes by.
  const served = ctx.readModel.get(chain.id)?.block;
  if (served) chainHashes.set(served.hash.toLowerCase(), Promise.resolve(served.number));
  const key = hash.toLowerCase();
  let asked = chainHashes.get(key);
  if (!asked) {
    asked = askBlockNumberOfHash(ctx, chain, key);
    chainHashes.set(key, asked);
    // Only a found block is kept: a hash the node does not know yet may be known a second later.
    asked.then(
      (n) => n === undefined && chainHashes.delete(key),
      () => chainHashes.delete(key),
    );
  }
  return asked;
}

/** Per chain, the numbers of block hashes (or the question in flight), at most `KNOWN_HASHES`. */
const KNOWN_HASHES = 1024;
const blockHashesKey = appStateKey(
  'headGate.blockHashes',
  () => new Map<number, LRUCache<string, Promise<number | undefined>>>(),
);

async function askBlockNumberOfHash(ctx: AppContext, chain: ChainInfo, hash: string): Promise<number | undefined> {
  const url = ctx.config.rpcUrls.get(chain.id);
  if (!url)
    throw new StateBehindHead(`chain ${chain.id} has no RPC URL (RPC_URL_${chain.id}) to ask for block ${hash}`, 60);
  const rpc = { url, timeoutMs: Math.max(1000, ctx.config.follow.waitMs), retry: NO_RETRY, batchSize: 1 };
  let answer;
  try {
    [answer] = await callBatch(rpc, [{ method: 'eth_getBlockByHash', params: [hash, false] }]);
  } catch (e) {
    throw new StateBehindHead(
      `${nodeName(chain)} did not say which block ${hash} is (${(e as Error).message}); retry later`,
      5,
    );
  }
  if (!answer?.ok)
    throw new StateBehindHead(
      `${nodeName(chain)} refused eth_getBlockByHash for ${hash} (${answer ? answer.error : 'no answer'}); retry later`,
      5,
    );
  if (answer.result === null) return undefined;
  const block = answer.result as { number?: unknown; hash?: unknown } | undefined;
  const number = block?.number;
  if (typeof number !== 'string' || !/^0x[0-9a-f]+$/i.test(number))
    throw new UpstreamError(RPC_UPSTREAM, `eth_getBlockByHash for ${hash} answered no block number`);
  // The answer is kept for every later request naming the hash: another block's is refused.
  if (typeof block?.hash !== 'string' || block.hash.toLowerCase() !== hash)
    throw new UpstreamError(RPC_UPSTREAM, `eth_getBlockByHash for ${hash} answered block ${String(block?.hash)}`);
  return Number(BigInt(number));
}
