import { requestJson, RetryPolicy, UpstreamError } from '../upstream';
import { changedPoolsQuery, MAX_PAGE_SIZE, META_QUERY, poolsQuery, PoolsQueryVariables } from './poolsQuery';

/**
 * Typed client for a Balancer V2 subgraph (The Graph). It returns pools as the subgraph sends
 * them: validating each pool is the job's business (one bad pool must not fail the run), while
 * anything that makes the answer as a whole unusable (HTTP failure, a GraphQL `errors` array, a
 * missing `data.pools`, a cursor that does not advance) is an `UpstreamError` for "subgraph".
 */
export const SUBGRAPH_UPSTREAM = 'subgraph';

export interface SubgraphClientOptions {
  readonly url: string;
  /** Time allowed per HTTP attempt. */
  readonly timeoutMs: number;
  /** Retries after the first attempt, on network errors, timeouts, 429 and 5xx. */
  readonly retries: number;
  /** Pools per page; at most 1000 (graph-node's limit). */
  readonly pageSize?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /**
   * The pools queries (every pool, and those changed since `$since`) and the cursor before the
   * first id, for a subgraph other than the V2 one (the V3 vault subgraph's ids are Bytes).
   */
  readonly pools?: { readonly all: string; readonly changed: string; readonly firstCursor: string };
}

export interface FetchAllOptions {
  /** Stops between pages (e.g. the job lost its lease). */
  readonly signal?: AbortSignal;
  /** Absolute unix ms by which every request must be over. */
  readonly deadline?: number;
  /** How the deadline is named in errors. */
  readonly deadlineLabel?: string;
  readonly onPage?: (page: { readonly number: number; readonly pools: number }) => void;
}

export interface AllPools {
  /** Raw pools in id order, exactly as the subgraph sent them. */
  readonly pools: readonly unknown[];
  /** Requests answered (the last one is the short or empty page that ends the walk). */
  readonly pages: number;
}

interface GraphQlAnswer {
  readonly data?: { readonly pools?: unknown; readonly _meta?: unknown } | null;
  readonly errors?: readonly { readonly message?: unknown }[];
}

export class SubgraphClient {
  private readonly pageSize: number;

  constructor(private readonly options: SubgraphClientOptions) {
    this.pageSize = options.pageSize ?? MAX_PAGE_SIZE;
    if (!Number.isInteger(this.pageSize) || this.pageSize < 1 || this.pageSize > MAX_PAGE_SIZE) {
      throw new RangeError(`pageSize must be 1..${MAX_PAGE_SIZE}, got ${this.pageSize}`);
    }
  }

  /** Any query with `variables`: GraphQL errors and HTTP failures are `UpstreamError`s, as for pages. */
  async query(query: string, variables: object, deadline?: number, deadlineLabel?: string): Promise<unknown> {
    return (await this.ask(query, variables, deadline, deadlineLabel)).answer.data;
  }

  /** One page: pools with id greater than `lastId`, at most `pageSize` of them (changed since `since`, if given). */
  async fetchPoolsPage(lastId: string, deadline?: number, deadlineLabel?: string, since?: number): Promise<unknown[]> {
    const variables: PoolsQueryVariables = { first: this.pageSize, lastId, ...(since !== undefined ? { since } : {}) };
    const queries = this.options.pools;
    const { answer, status } = await this.ask(
      since === undefined ? (queries?.all ?? poolsQuery()) : (queries?.changed ?? changedPoolsQuery()),
      variables,
      deadline,
      deadlineLabel,
    );
    const pools = answer?.data?.pools;
    if (!Array.isArray(pools))
      throw new UpstreamError(SUBGRAPH_UPSTREAM, 'answered without a data.pools array', status, answer);
    if (pools.length > this.pageSize) {
      throw new UpstreamError(
        SUBGRAPH_UPSTREAM,
        `answered ${pools.length} pools to a request for at most ${this.pageSize}`,
        status,
      );
    }
    return pools;
  }

  /**
   * The block the subgraph has indexed up to (`_meta.block.number`), or undefined when it does not
   * say (a server without `_meta`): then it cannot be asked for changes since a block either.
   */
  async fetchIndexedBlock(deadline?: number, deadlineLabel?: string): Promise<number | undefined> {
    const { answer } = await this.ask(META_QUERY, {}, deadline, deadlineLabel);
    const meta = answer?.data?._meta as { block?: { number?: unknown } } | null | undefined;
    const n = meta?.block?.number;
    return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  }

  private async ask(
    query: string,
    variables: object,
    deadline: number | undefined,
    deadlineLabel: string | undefined,
  ): Promise<{ answer: GraphQlAnswer; status: number }> {
    const retry: RetryPolicy = {
      attempts: this.options.retries + 1,
      baseDelayMs: this.options.baseDelayMs ?? 250,
      maxDelayMs: this.options.maxDelayMs ?? 5_000,
      deadline,
      deadlineLabel,
    };
    const res = await requestJson<GraphQlAnswer>(
      SUBGRAPH_UPSTREAM,
      { url: this.options.url, method: 'POST', body: { query, variables }, timeoutMs: this.options.timeoutMs },
      retry,
    );
    const answer = res.body;
    if (Array.isArray(answer?.errors) && answer.errors.length > 0) {
      const first = answer.errors[0]?.message;
      const more = answer.errors.length > 1 ? ` (and ${answer.errors.length - 1} more)` : '';
      throw new UpstreamError(
        SUBGRAPH_UPSTREAM,
        `answered with GraphQL errors: ${typeof first === 'string' ? first : JSON.stringify(answer.errors[0])}${more}`,
        res.status,
        answer,
      );
    }
    return { answer, status: res.status };
  }

  /** Every pool, page by page, each page starting after the last id of the previous one. */
  fetchAllPools(opts: FetchAllOptions = {}): Promise<AllPools> {
    return this.walk(undefined, opts);
  }

  /**
   * Every pool whose entity changed at or after block `since`, emptied ones included (zero
   * shares). A subgraph that refuses the filter (an old graph-node) answers with GraphQL errors.
   */
  fetchChangedPools(since: number, opts: FetchAllOptions = {}): Promise<AllPools> {
    return this.walk(since, opts);
  }

  private async walk(since: number | undefined, opts: FetchAllOptions): Promise<AllPools> {
    const all: unknown[] = [];
    let lastId = this.options.pools?.firstCursor ?? '';
    let pages = 0;
    while (true) {
      opts.signal?.throwIfAborted();
      const page = await this.fetchPoolsPage(lastId, opts.deadline, opts.deadlineLabel, since);
      pages++;
      opts.onPage?.({ number: pages, pools: page.length });
      for (const p of page) all.push(p);
      if (page.length < this.pageSize) return { pools: all, pages };
      lastId = nextCursor(page, lastId);
    }
  }
}

/** The last id of a full page; it must sort after the previous cursor or paging would loop. */
function nextCursor(page: readonly unknown[], previous: string): string {
  const last = page[page.length - 1] as { id?: unknown } | null | undefined;
  const id = last && typeof last === 'object' ? last.id : undefined;
  if (typeof id !== 'string' || id === '') {
    throw new UpstreamError(
      SUBGRAPH_UPSTREAM,
      'the last pool of a page has no id, so the next page cannot be asked for',
    );
  }
  if (id <= previous) {
    throw new UpstreamError(SUBGRAPH_UPSTREAM, `pages are not in id order (${id} after ${previous}); refusing to loop`);
  }
  return id;
}
