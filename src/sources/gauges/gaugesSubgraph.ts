import { isAddress, type Address } from '../../domain/address';
import { requestJson, RetryPolicy, UpstreamError } from '../upstream';
import { PREFERENTIAL_GAUGES_QUERY } from './gaugesSubgraphSdl';

/**
 * Typed client for the Balancer gauges subgraph: every pool with a preferential gauge and that
 * gauge's reward tokens. An entry that does not have the expected shape is skipped and named in
 * `skipped` (its pool keeps its last APRs); an answer that is unusable as a whole (HTTP failure,
 * GraphQL `errors`, no `data.pools`, a cursor that does not advance) is an `UpstreamError` for
 * "gauges subgraph".
 */
export const GAUGES_SUBGRAPH_UPSTREAM = 'gauges subgraph';
export const GAUGES_PAGE_SIZE = 1000;

export interface GaugesSubgraphOptions {
  readonly url: string;
  readonly timeoutMs: number;
  /** Retries after the first attempt, on network errors, timeouts, 429 and 5xx. */
  readonly retries: number;
  readonly pageSize?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
}

export interface SubgraphGauge {
  /** Lower-case Vault pool id. */
  readonly poolId: string;
  readonly gauge: Address;
  readonly isKilled: boolean;
  readonly rewardTokens: readonly Address[];
}

export interface SubgraphGauges {
  readonly gauges: readonly SubgraphGauge[];
  /** Entries left out and why; `poolId` when the entry named one. */
  readonly skipped: readonly { readonly poolId: string | undefined; readonly reason: string }[];
}

interface GraphQlAnswer {
  readonly data?: { readonly pools?: unknown } | null;
  readonly errors?: readonly { readonly message?: unknown }[];
}

const POOL_ID = /^0x[0-9a-f]{64}$/;

type Parsed =
  { ok: true; gauge: SubgraphGauge } | { ok: false; poolId: string | undefined; reason: string } | { ok: 'none' };

function lower(v: unknown): string | undefined {
  return typeof v === 'string' ? v.toLowerCase() : undefined;
}

/** One `pools` entry; pools that are not Vault pools (no poolId) have nothing to decorate. */
export function parseGaugeEntry(raw: unknown): Parsed {
  if (typeof raw !== 'object' || raw === null) return { ok: false, poolId: undefined, reason: 'not an object' };
  const entry = raw as { poolId?: unknown; preferentialGauge?: unknown };
  if (entry.poolId === null || entry.poolId === undefined) return { ok: 'none' };
  const poolId = lower(entry.poolId);
  if (!poolId || !POOL_ID.test(poolId))
    return { ok: false, poolId: undefined, reason: `poolId ${JSON.stringify(entry.poolId)} is not a 32-byte hex id` };
  const g = entry.preferentialGauge as { id?: unknown; isKilled?: unknown; tokens?: unknown } | null | undefined;
  if (!g || typeof g !== 'object') return { ok: false, poolId, reason: 'no preferentialGauge' };
  const gauge = lower(g.id);
  if (!isAddress(gauge)) return { ok: false, poolId, reason: `gauge id ${JSON.stringify(g.id)} is not an address` };
  if (typeof g.isKilled !== 'boolean') return { ok: false, poolId, reason: 'gauge isKilled is not a boolean' };
  const tokens = g.tokens ?? [];
  if (!Array.isArray(tokens)) return { ok: false, poolId, reason: 'gauge tokens is not a list' };
  const rewardTokens: Address[] = [];
  for (const t of tokens as { id?: unknown }[]) {
    // RewardToken ids are "<token>-<gauge>".
    const token = lower(t?.id)?.split('-')[0];
    if (!isAddress(token))
      return { ok: false, poolId, reason: `reward token id ${JSON.stringify(t?.id)} does not start with an address` };
    if (!rewardTokens.includes(token)) rewardTokens.push(token);
  }
  return { ok: true, gauge: { poolId, gauge, isKilled: g.isKilled, rewardTokens } };
}

export class GaugesSubgraphClient {
  private readonly pageSize: number;

  constructor(private readonly options: GaugesSubgraphOptions) {
    this.pageSize = options.pageSize ?? GAUGES_PAGE_SIZE;
  }

  private async page(
    lastId: string,
    deadline: number | undefined,
    deadlineLabel: string | undefined,
  ): Promise<unknown[]> {
    const retry: RetryPolicy = {
      attempts: this.options.retries + 1,
      baseDelayMs: this.options.baseDelayMs ?? 250,
      maxDelayMs: this.options.maxDelayMs ?? 5_000,
      deadline,
      deadlineLabel,
    };
    const res = await requestJson<GraphQlAnswer>(
      GAUGES_SUBGRAPH_UPSTREAM,
      {
        url: this.options.url,
        method: 'POST',
        body: { query: PREFERENTIAL_GAUGES_QUERY, variables: { first: this.pageSize, lastId } },
        timeoutMs: this.options.timeoutMs,
      },
      retry,
    );
    const answer = res.body;
    if (Array.isArray(answer?.errors) && answer.errors.length > 0) {
      const first = answer.errors[0]?.message;
      throw new UpstreamError(
        GAUGES_SUBGRAPH_UPSTREAM,
        `answered with GraphQL errors: ${typeof first === 'string' ? first : JSON.stringify(answer.errors[0])}`,
        res.status,
        answer,
      );
    }
    const pools = answer?.data?.pools;
    if (!Array.isArray(pools))
      throw new UpstreamError(GAUGES_SUBGRAPH_UPSTREAM, 'answered without a data.pools array', res.status, answer);
    return pools;
  }

  /** Every pool with a preferential gauge, page by page by pool address. */
  async fetchPreferentialGauges(deadline?: number, deadlineLabel?: string): Promise<SubgraphGauges> {
    const gauges: SubgraphGauge[] = [];
    const skipped: { poolId: string | undefined; reason: string }[] = [];
    let lastId = '';
    for (;;) {
      const page = await this.page(lastId, deadline, deadlineLabel);
      for (const raw of page) {
        const parsed = parseGaugeEntry(raw);
        if (parsed.ok === true) gauges.push(parsed.gauge);
        else if (parsed.ok === false) skipped.push({ poolId: parsed.poolId, reason: parsed.reason });
      }
      if (page.length < this.pageSize) return { gauges, skipped };
      const last = lower((page[page.length - 1] as { id?: unknown } | null)?.id);
      if (!last || last <= lastId)
        throw new UpstreamError(
          GAUGES_SUBGRAPH_UPSTREAM,
          `pages are not in id order (${String(last)} after '${lastId}'); refusing to loop`,
        );
      lastId = last;
    }
  }
}
