import { isDeepStrictEqual } from 'node:util';
import type { StoredBuffer } from '../../domain/protocols/v3/stored/storedV3';
import type { ChainStateSource } from '../../sources/chainState/chainStateSource';
import type { BufferBalances } from '../../sources/chainState/movedInBlocks';
import { MalformedAnswerError } from '../../sources/rpc/jsonRpc';
import { checkBufferLogs } from './followChecks';

/** Reads in a row (tries of one step, or blocks) before a buffer's disagreeing tokens are taken at their word. */
const INCONSISTENT_BUFFER_READS = 5;

/** What the follower is told of buffers as it reads them: for `/readyz` and the log. */
export interface BufferReport {
  /** `count` tokens without a buffer were asked again by the slow re-read. */
  rechecked(count: number): void;
  /** The slow re-read found a buffer where an earlier answer said none. */
  foundBuffer(token: string, block: number): void;
  /** A buffer that answered before is refused now. */
  dropped(token: string, reason: string, block: number): void;
}

/**
 * The V3 Vault's buffers as the follower reads them, and what it remembers between blocks: tokens
 * found without a buffer (not asked again until a buffer log names them), buffers dropped after a
 * good answer (asked again at each block), and how many reads in a row a buffer's tokens disagreed.
 */
export class V3Buffers {
  private noBuffer = new Set<string>();
  private dropped = new Set<string>();
  /** Per wrapped token, the reads in a row at which its tokens' answers disagreed (`judgeInconsistent`). */
  private readonly inconsistentReads = new Map<string, number>();

  /** `source`: the chain's V3 source, undefined on a chain without V3. */
  constructor(
    private readonly source: ChainStateSource | undefined,
    private readonly report: BufferReport,
  ) {}

  /** A full read asks every token again. */
  forget(): void {
    this.noBuffer = new Set();
    this.dropped = new Set();
  }

  /** Tokens a buffer log named: asked again though found without a buffer before. */
  named(tokens: Iterable<string>): void {
    for (const t of tokens) this.noBuffer.delete(t);
  }

  /** The tokens found without a buffer. */
  withoutBuffer(): ReadonlySet<string> {
    return this.noBuffer;
  }

  /**
   * The buffers at `blockNumber`: those `known` holds, read again, and any of `candidates` (V3 pool
   * tokens, tokens the buffer logs name) not yet asked about; `{}` on a chain without V3. A token
   * found without a buffer is not asked again until a buffer log names it.
   */
  async read(
    known: ReadonlyMap<string, StoredBuffer> | undefined,
    candidates: readonly string[],
    blockNumber: number,
    logged: ReadonlyMap<string, BufferBalances | null> = new Map(),
    recheck: readonly string[] = [],
  ): Promise<{ buffers?: ReadonlyMap<string, StoredBuffer> }> {
    const source = this.source;
    if (!source?.readBuffers) return {};
    const ask = new Set([...(known?.keys() ?? []), ...this.dropped, ...recheck]);
    for (const t of candidates) if (!this.noBuffer.has(t)) ask.add(t);
    if (ask.size === 0) return known ? { buffers: known } : {};
    const { buffers, refused, inconsistent } = await source.readBuffers([...ask], blockNumber, known);
    this.judgeInconsistent(ask, inconsistent, refused);
    checkBufferLogs(buffers, logged, new Set(refused.keys()), blockNumber);
    this.report.rechecked(recheck.length);
    for (const t of recheck) {
      if (!buffers.has(t)) continue;
      // A buffer the re-read found where an earlier answer said none: counted, and served from now.
      this.noBuffer.delete(t);
      this.report.foundBuffer(t, blockNumber);
    }
    for (const t of ask) {
      const reason = refused.get(t);
      if (buffers.has(t)) this.dropped.delete(t);
      else if (reason !== undefined && (known?.has(t) || this.dropped.has(t))) {
        // Dropped after a good answer: said in /readyz, asked again at the next block.
        if (!this.dropped.has(t)) this.report.dropped(t, reason, blockNumber);
        this.dropped.add(t);
      } else this.noBuffer.add(t);
    }
    // As for pools: a buffer found as it was keeps its object, and a block that moved none keeps
    // the map, so the V3 routing universe rebuilds nothing for them.
    let moved = known === undefined || known.size !== buffers.size;
    for (const [t, b] of buffers) {
      const before = known?.get(t);
      if (before !== undefined && isDeepStrictEqual(before, b)) buffers.set(t, before);
      else moved = true;
    }
    return { buffers: moved || known === undefined ? buffers : known };
  }

  /**
   * A buffer whose tokens' answers disagree fails the step, as a lying node's answer would; one
   * that disagrees at `INCONSISTENT_BUFFER_READS` reads in a row is the token's own doing (anyone
   * can deploy such a token and give it a buffer), so it is refused instead and the chain goes on.
   */
  private judgeInconsistent(
    asked: ReadonlySet<string>,
    inconsistent: ReadonlyMap<string, string>,
    refused: Map<string, string>,
  ): void {
    for (const t of asked) if (!inconsistent.has(t)) this.inconsistentReads.delete(t);
    let lie: string | undefined;
    for (const [t, reason] of inconsistent) {
      const reads = (this.inconsistentReads.get(t) ?? 0) + 1;
      this.inconsistentReads.set(t, reads);
      if (reads >= INCONSISTENT_BUFFER_READS) refused.set(t, `${reason}, at ${reads} reads in a row`);
      else lie ??= `${reason}: another call's or block's answer`;
    }
    if (lie !== undefined) throw new MalformedAnswerError(lie);
  }
}
