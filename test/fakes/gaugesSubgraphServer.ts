import { graphql } from 'graphql';
import { GaugePoolEntry, gaugesRootValue, gaugesSubgraphSchema } from '../../src/devnet/indexer/gaugesSubgraph';
import { HttpFake, sendJson, startHttpFake } from './httpFake';

/** One pool with a preferential gauge, in the subgraph's shape (ids lower-case). */
export function gaugeEntry(
  poolId: string,
  gauge: string,
  rewardTokens: readonly string[] = [],
  isKilled = false,
): GaugePoolEntry {
  const address = poolId.slice(0, 42).toLowerCase();
  return {
    id: address,
    poolId: poolId.toLowerCase(),
    address,
    preferentialGauge: {
      id: gauge.toLowerCase(),
      symbol: 'gauge',
      poolAddress: address,
      poolId: poolId.toLowerCase(),
      isKilled,
      isPreferentialGauge: true,
      streamer: null,
      totalSupply: '0',
      tokens: rewardTokens.map((t) => ({
        id: `${t.toLowerCase()}-${gauge.toLowerCase()}`,
        symbol: 'R',
        decimals: 18,
        totalDeposited: '0',
      })),
    },
  };
}

/**
 * A local stand-in for the Balancer gauges subgraph: GraphQL over the same schema and `pools(...)`
 * semantics as the devnet's endpoint, over an in-memory list that tests change at run time. Faults:
 * an HTTP status for every request, a GraphQL `errors` answer, or no answer at all.
 */
export class FakeGaugesSubgraph {
  /** Answer every request with this HTTP status instead. */
  failStatus: number | undefined;
  /** Never answer (the request stays open until the client gives up or the fake closes). */
  hang = false;
  /** Answer with a GraphQL `errors` array instead of data. */
  graphqlError: string | undefined;
  /** Variables of every query received (faults included). */
  readonly queries: unknown[] = [];

  private constructor(
    private http: HttpFake | undefined,
    public entries: GaugePoolEntry[],
  ) {}

  static async start(entries: GaugePoolEntry[] = []): Promise<FakeGaugesSubgraph> {
    const fake = new FakeGaugesSubgraph(undefined, entries);
    const root = gaugesRootValue(async () => fake.entries);
    fake.http = await startHttpFake(async (req, res) => {
      const body = JSON.parse(req.body || '{}') as { query?: string; variables?: Record<string, unknown> };
      fake.queries.push(body.variables);
      if (fake.hang) return;
      if (fake.failStatus !== undefined) return sendJson(res, fake.failStatus, { error: 'indexer unavailable' });
      if (fake.graphqlError !== undefined)
        return sendJson(res, 200, { data: null, errors: [{ message: fake.graphqlError }] });
      sendJson(
        res,
        200,
        await graphql({
          schema: gaugesSubgraphSchema(),
          source: body.query ?? '',
          rootValue: root,
          variableValues: body.variables,
        }),
      );
    });
    return fake;
  }

  get url(): string {
    return this.http!.url;
  }

  close(): Promise<void> {
    return this.http!.close();
  }
}
