import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import {
  buildSchema,
  execute,
  getNamedType,
  GraphQLError,
  GraphQLObjectType,
  GraphQLSchema,
  isObjectType,
  Kind,
  parse,
  validate,
} from 'graphql';
import type { DocumentNode, OperationDefinitionNode, SelectionSetNode } from 'graphql';
import { compareDecimal } from '../../src/domain/decimal';
import { subgraphSdl } from '../../src/sources/subgraph/subgraphSdl';

/**
 * A local stand-in for a Balancer V2 subgraph (graph-node): a real HTTP server on 127.0.0.1 that
 * executes GraphQL against a schema with the subgraph's names for `pools`, `Pool`, `PoolToken` and
 * `Pool_filter`, over an in-memory pools array. Unknown fields or arguments are GraphQL errors, as
 * on graph-node, so a typo in the service's query fails the tests instead of production.
 *
 * Paging follows graph-node: `first` (default 100, at most 1000), `skip`, `orderBy: id`,
 * `orderDirection`, `where: {id, id_gt, id_lt, id_in, totalShares_gt, poolType, poolType_in,
 * swapEnabled}`. Values are served as stored (pools files spell BigDecimal/BigInt as strings).
 *
 * Faults are switched at run time through `fake.faults`; every pools query is logged in
 * `fake.queries` with the page number its cursor lands on.
 *
 * With `indexesBlocks`, the fake also keeps a block number, moved by every change to its pools,
 * serves it as `_meta.block.number`, and applies `_change_block: {number_gte}` to the pools whose
 * served object changed at or after that block, as graph-node does. Without it, `_meta` is null and
 * the filter is refused, as on a graph-node too old to have it.
 */

export interface SubgraphFaults {
  /** Answer HTTP 500 to requests whose cursor lands on this 1-based page. */
  failPage?: number;
  /** How many times `failPage` fails before it is served (default: every time). */
  failPageTimes?: number;
  /** Answer this many requests with HTTP 429 (and `Retry-After`) before serving again. */
  rateLimitTimes?: number;
  /** Seconds sent in `Retry-After` with a 429 (default 0). */
  retryAfterSeconds?: number;
  /** Wait this long before answering each request. */
  delayMs?: number;
  /** Answer HTTP 200 with a GraphQL `errors` array (and `data: null`) instead of data. */
  graphqlErrors?: {
    readonly message: string;
    /** Only on this 1-based page (default: every page). */ readonly page?: number;
  };
  /** Pool ids served with a token balance that is not a number. */
  malformPoolIds?: readonly string[];
}

export interface PoolsQueryLog {
  readonly first: number;
  readonly skip: number | undefined;
  readonly idGt: string | undefined;
  readonly totalSharesGt: string | undefined;
  readonly orderBy: string | undefined;
  readonly orderDirection: string | undefined;
  /** 1-based page the request's cursor lands on (pools before it / first + 1). */
  readonly page: number;
  /** Pools in the answer (0 when a fault answered instead). */
  readonly returned: number;
  /** How it was answered: served, 500, 429 or graphql-errors. */
  readonly outcome: 'served' | '500' | '429' | 'graphql-errors';
}

export interface FakeSubgraphOptions {
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /** Apply `totalShares_gt` like graph-node does (default true). */
  readonly honourTotalSharesFilter?: boolean;
  /** Serve `_meta.block` and the `_change_block` filter (default false). */
  readonly indexesBlocks?: boolean;
}

/** The `Pool_filter` fields this fake applies; the schema has more (the devnet endpoint serves them all). */
const FILTERS_SERVED = new Set([
  'id',
  'id_gt',
  'id_lt',
  'id_in',
  'totalShares_gt',
  'poolType',
  'poolType_in',
  'swapEnabled',
  '_change_block',
]);

/** Rebuilt when the registered pool types (and so the schema) change. */
let built: { sdl: string; schema: GraphQLSchema } | undefined;
const getSchema = (): GraphQLSchema => {
  const sdl = subgraphSdl();
  if (built?.sdl !== sdl) built = { sdl, schema: buildSchema(sdl) };
  return built.schema;
};

type Projector = (value: Record<string, unknown>) => Record<string, unknown>;

/** A query checked against the schema once, with a fast projection when it is a plain `pools` query. */
interface PreparedQuery {
  readonly document?: DocumentNode;
  readonly errors: readonly GraphQLError[];
  /** Set when the only root field is `pools` selected with plain fields (no fragments). */
  readonly pools?: { readonly key: string; readonly project: Projector };
}

const prepared = new Map<string, PreparedQuery>();

function prepare(query: string): PreparedQuery {
  let p = prepared.get(query);
  if (p) return p;
  try {
    const document = parse(query);
    const errors = validate(getSchema(), document);
    p = { document, errors, pools: errors.length === 0 ? poolsProjection(document) : undefined };
  } catch (e) {
    p = { errors: [e as GraphQLError] };
  }
  if (prepared.size > 100) prepared.clear();
  prepared.set(query, p);
  return p;
}

function poolsProjection(document: DocumentNode): PreparedQuery['pools'] {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (ops.length !== 1 || ops[0]!.operation !== 'query' || document.definitions.length !== 1) return undefined;
  const roots = ops[0]!.selectionSet.selections;
  const root = roots[0];
  if (roots.length !== 1 || root?.kind !== Kind.FIELD || root.name.value !== 'pools' || !root.selectionSet)
    return undefined;
  const project = projector(getSchema().getType('Pool') as GraphQLObjectType, root.selectionSet);
  return project ? { key: root.alias?.value ?? 'pools', project } : undefined;
}

/**
 * What graph-node's executor would produce for plain field selections, without graphql-js's
 * per-field machinery: serving 10,000 pools through `execute` took longer than the job under test.
 */
function projector(type: GraphQLObjectType, selectionSet: SelectionSetNode): Projector | undefined {
  const fields: [string, (o: Record<string, unknown>) => unknown][] = [];
  for (const sel of selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || (sel.directives?.length ?? 0) > 0 || (sel.arguments?.length ?? 0) > 0)
      return undefined;
    const name = sel.name.value;
    const key = sel.alias?.value ?? name;
    if (name === '__typename') {
      fields.push([key, () => type.name]);
      continue;
    }
    const named = getNamedType(type.getFields()[name]!.type);
    if (sel.selectionSet) {
      if (!isObjectType(named)) return undefined;
      const sub = projector(named, sel.selectionSet);
      if (!sub) return undefined;
      fields.push([
        key,
        (o) => {
          const v = o[name];
          if (v === null || v === undefined) return null;
          return Array.isArray(v)
            ? v.map((x) => (x === null || x === undefined ? null : sub(x as Record<string, unknown>)))
            : sub(v as Record<string, unknown>);
        },
      ]);
    } else if (named.name === 'Int') {
      fields.push([key, (o) => (o[name] === null || o[name] === undefined ? null : Number(o[name]))]);
    } else {
      fields.push([key, (o) => o[name] ?? null]);
    }
  }
  return (o) => {
    const out: Record<string, unknown> = {};
    for (const [k, f] of fields) out[k] = f(o);
    return out;
  };
}

interface PoolsArgs {
  first: number;
  skip: number;
  orderBy?: string;
  orderDirection?: 'asc' | 'desc';
  where?: {
    id?: string;
    id_gt?: string;
    id_lt?: string;
    id_in?: string[];
    totalShares_gt?: string | number;
    poolType?: string;
    poolType_in?: string[];
    swapEnabled?: boolean;
    _change_block?: { number_gte: number };
  };
}

type Pool = Record<string, unknown> & { id: string };

/** Per-request bookkeeping the resolvers fill in. */
interface RequestState {
  page?: number;
  log?: Omit<PoolsQueryLog, 'outcome' | 'returned'>;
  returned?: number;
}

class ResolverError extends Error {}

export class FakeSubgraph {
  /** Switch faults on and off between requests. */
  faults: SubgraphFaults = {};
  /** Every `pools` query answered or refused, in arrival order. */
  readonly queries: PoolsQueryLog[] = [];
  /** HTTP requests received (any path, any outcome). */
  requests = 0;
  /** Most requests in flight at the same time (1 means the client never overlapped itself). */
  maxInFlight = 0;

  private inFlight = 0;
  private pools: Pool[] = [];
  private sorted: Pool[] | undefined;
  /** Sorted pools passing a `totalShares_gt` value, per value, until the pools change. */
  private withShares = new Map<string, Pool[]>();
  private failedPageCount = 0;
  /** With `indexesBlocks`: the indexed block, and the block each pool last changed at. */
  private block = 1;
  private readonly changedAt = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private readonly waits = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  private url_ = '';

  private constructor(
    private readonly server: Server,
    private readonly honourTotalSharesFilter: boolean,
    private readonly indexesBlocks: boolean,
  ) {}

  /** Starts a fake serving `pools` (objects in the subgraph's pool shape). */
  static async start(pools: readonly unknown[] = [], options: FakeSubgraphOptions = {}): Promise<FakeSubgraph> {
    const server = createServer();
    const fake = new FakeSubgraph(server, options.honourTotalSharesFilter ?? true, options.indexesBlocks ?? false);
    fake.setPools(pools);
    server.on('request', (req, res) => void fake.handle(req, res));
    server.on('connection', (s) => {
      fake.sockets.add(s);
      s.on('close', () => fake.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    const addr = server.address() as AddressInfo;
    fake.url_ = `http://${addr.address}:${addr.port}/subgraphs/name/balancer-labs/balancer-v2`;
    return fake;
  }

  /** The GraphQL endpoint, for `SUBGRAPH_URL_<chainId>`. */
  get url(): string {
    return this.url_;
  }

  /** Replaces the served pools (deep-copied, so later edits of the caller's objects do not leak in). */
  setPools(pools: readonly unknown[]): void {
    const before = new Map(this.pools.map((p) => [p.id, JSON.stringify(p)]));
    this.pools = structuredClone(pools) as Pool[];
    this.block++;
    for (const p of this.pools) if (before.get(p.id) !== JSON.stringify(p)) this.changedAt.set(p.id, this.block);
    this.invalidate();
  }

  /** The chain moved on by `n` blocks that changed no pool (time passing between two pool updates). */
  indexBlocks(n: number): void {
    this.block += n;
  }

  /** The block the fake has indexed (with `indexesBlocks`; every change to the pools moves it). */
  get indexedBlock(): number {
    return this.block;
  }

  /** A deep copy of the served pools, in the order given. */
  getPools(): unknown[] {
    return structuredClone(this.pools);
  }

  /** Edits one served pool in place (e.g. a balance change upstream); throws when the id is unknown. */
  updatePool(id: string, edit: (pool: Record<string, unknown>) => void): void {
    const pool = this.pools.find((p) => p.id === id);
    if (!pool) throw new Error(`fake subgraph has no pool ${id}`);
    edit(pool);
    this.changedAt.set(id, ++this.block);
    this.invalidate();
  }

  removePool(id: string): void {
    const before = this.pools.length;
    this.pools = this.pools.filter((p) => p.id !== id);
    if (this.pools.length === before) throw new Error(`fake subgraph has no pool ${id}`);
    this.block++;
    this.invalidate();
  }

  /** Clears faults, the query log and the counters. */
  reset(): void {
    this.faults = {};
    this.queries.length = 0;
    this.requests = 0;
    this.maxInFlight = 0;
    this.failedPageCount = 0;
  }

  async close(): Promise<void> {
    for (const w of this.waits) {
      clearTimeout(w.timer);
      w.resolve();
    }
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const w = {
        timer: setTimeout(() => {
          this.waits.delete(w);
          resolve();
        }, ms),
        resolve,
      };
      this.waits.add(w);
    });
  }

  private invalidate(): void {
    this.sorted = undefined;
    this.withShares.clear();
  }

  private byId(): Pool[] {
    this.sorted ??= [...this.pools].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return this.sorted;
  }

  private sharesAbove(sharesGt: string | undefined): Pool[] {
    if (sharesGt === undefined || !this.honourTotalSharesFilter) return this.byId();
    let list = this.withShares.get(sharesGt);
    if (!list) {
      list = this.byId().filter((p) => compareDecimal(String(p.totalShares ?? '0'), sharesGt) > 0);
      this.withShares.set(sharesGt, list);
    }
    return list;
  }

  private resolvePools(args: PoolsArgs, state: RequestState): Pool[] {
    if (args.first < 0 || args.first > 1000)
      throw new ResolverError(`The \`first\` argument must be between 0 and 1000, but is ${args.first}`);
    if (args.skip < 0 || args.skip > 5000)
      throw new ResolverError(`The \`skip\` argument must be between 0 and 5000, but is ${args.skip}`);
    if (args.orderBy !== undefined && args.orderBy !== 'id')
      throw new ResolverError(`this fake orders only by id, not ${args.orderBy}`);
    const w = args.where ?? {};
    const unsupported = Object.keys(w).filter(
      (k) => !FILTERS_SERVED.has(k) || (k === '_change_block' && !this.indexesBlocks),
    );
    if (unsupported.length > 0) throw new ResolverError(`this fake does not filter by ${unsupported.join(', ')}`);
    const sharesGt = w.totalShares_gt === undefined ? undefined : String(w.totalShares_gt);
    const matches = (p: Pool): boolean =>
      (w.id === undefined || p.id === w.id) &&
      (w.id_lt === undefined || p.id < w.id_lt) &&
      (w.id_in === undefined || w.id_in.includes(p.id)) &&
      (w.poolType === undefined || p.poolType === w.poolType) &&
      (w.poolType_in === undefined || w.poolType_in.includes(String(p.poolType))) &&
      (w.swapEnabled === undefined || p.swapEnabled === w.swapEnabled) &&
      (w._change_block === undefined || (this.changedAt.get(p.id) ?? 0) >= w._change_block.number_gte);
    let list = this.sharesAbove(sharesGt);
    if (
      w._change_block !== undefined ||
      w.id !== undefined ||
      w.id_lt !== undefined ||
      w.id_in !== undefined ||
      w.poolType !== undefined ||
      w.poolType_in !== undefined ||
      w.swapEnabled !== undefined
    ) {
      list = list.filter(matches);
    }
    const desc = args.orderDirection === 'desc';
    if (desc) list = [...list].reverse();
    // The page a cursor lands on: how many matching pools come before it, in pages of `first`.
    const before =
      w.id_gt === undefined ? 0 : desc ? list.filter((p) => p.id >= w.id_gt!).length : countAtMost(list, w.id_gt);
    const after = w.id_gt === undefined ? list : desc ? list.filter((p) => p.id < w.id_gt!) : list.slice(before);
    const page = args.first === 0 ? 1 : Math.floor((before + args.skip) / args.first) + 1;
    const out = after.slice(args.skip, args.skip + args.first);
    state.page = page;
    state.returned = out.length;
    state.log = {
      first: args.first,
      skip: args.skip === 0 ? undefined : args.skip,
      idGt: w.id_gt,
      totalSharesGt: sharesGt,
      orderBy: args.orderBy,
      orderDirection: args.orderDirection,
      page,
    };
    const malformed = new Set(this.faults.malformPoolIds ?? []);
    return out.map((p) => (malformed.has(p.id) ? malformPool(p) : p));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const body = await readBody(req);
      if (this.faults.delayMs) await this.sleep(this.faults.delayMs);
      if (this.faults.rateLimitTimes && this.faults.rateLimitTimes > 0) {
        this.faults.rateLimitTimes--;
        this.recordRefused(body, '429');
        return send(
          res,
          429,
          { error: 'Too many requests, slow down' },
          { 'retry-after': String(this.faults.retryAfterSeconds ?? 0) },
        );
      }
      if (req.method !== 'POST') return send(res, 405, { errors: [{ message: 'POST a GraphQL query' }] });
      let parsed: { query?: unknown; variables?: unknown; operationName?: unknown };
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        return send(res, 400, { errors: [{ message: 'the body is not JSON' }] });
      }
      if (typeof parsed.query !== 'string') return send(res, 400, { errors: [{ message: 'no query in the body' }] });

      const query = prepare(parsed.query);
      if (!query.document || query.errors.length > 0)
        return send(res, 200, { errors: query.errors.map((e) => ({ message: e.message })) });
      const state: RequestState = {};
      let page: Pool[] = [];
      const fast = query.pools;
      // graphql-js still coerces the arguments (variables, literals, defaults); on the fast path the
      // resolver hands it an empty list and the page is projected afterwards.
      const result = await execute({
        schema: getSchema(),
        document: query.document,
        variableValues: (parsed.variables ?? undefined) as Record<string, unknown> | undefined,
        operationName: typeof parsed.operationName === 'string' ? parsed.operationName : undefined,
        rootValue: {
          pools: (args: PoolsArgs) => {
            page = this.resolvePools(args, state);
            return fast ? [] : page;
          },
          pool: ({ id }: { id: string }) => this.byId().find((p) => p.id === id) ?? null,
          _meta: () =>
            this.indexesBlocks ? { block: { number: this.block }, deployment: 'fake', hasIndexingErrors: false } : null,
        },
      });
      if (fast && !result.errors) (result.data as Record<string, unknown>)[fast.key] = page.map(fast.project);
      const f = this.faults;
      if (
        state.page !== undefined &&
        f.failPage === state.page &&
        (f.failPageTimes === undefined || this.failedPageCount < f.failPageTimes)
      ) {
        this.failedPageCount++;
        this.log(state, '500', 0);
        return send(res, 500, { error: 'indexer unavailable' });
      }
      if (f.graphqlErrors && (f.graphqlErrors.page === undefined || f.graphqlErrors.page === state.page)) {
        this.log(state, 'graphql-errors', 0);
        return send(res, 200, { data: null, errors: [{ message: f.graphqlErrors.message }] });
      }
      this.log(state, 'served', state.returned ?? 0);
      send(res, 200, result);
    } catch (e) {
      send(res, 500, { error: (e as Error).message });
    } finally {
      this.inFlight--;
    }
  }

  private log(state: RequestState, outcome: PoolsQueryLog['outcome'], returned: number): void {
    if (state.log) this.queries.push({ ...state.log, returned, outcome });
  }

  /** A 429 answers before the query is executed; log what the query asked for anyway. */
  private recordRefused(body: string, outcome: PoolsQueryLog['outcome']): void {
    try {
      const { variables } = JSON.parse(body) as { variables?: { first?: number; lastId?: string } };
      this.queries.push({
        first: Number(variables?.first ?? 100),
        skip: undefined,
        idGt: variables?.lastId,
        totalSharesGt: undefined,
        orderBy: undefined,
        orderDirection: undefined,
        page: 0,
        returned: 0,
        outcome,
      });
    } catch {
      // not a JSON body: nothing to log
    }
  }
}

/** Pools in the id-sorted `list` whose id is at most `id` (binary search). */
function countAtMost(list: readonly Pool[], id: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.id <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function malformPool(p: Pool): Pool {
  const copy = structuredClone(p) as Pool & { tokens?: Record<string, unknown>[] };
  if (Array.isArray(copy.tokens) && copy.tokens[0]) copy.tokens[0].balance = 'not-a-number';
  else copy.tokens = [];
  return copy;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export { syntheticPools, syntheticTokens } from './syntheticPools';
export type { SyntheticPool, SyntheticPoolsOptions } from './syntheticPools';
