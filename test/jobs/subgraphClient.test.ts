import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SubgraphClient } from '../../src/sources/subgraph/subgraphClient';
import { UpstreamError } from '../../src/sources/upstream';
import { FakeSubgraph, syntheticPools } from '../fakes/subgraphServer';

/** A subgraph-shaped endpoint that answers every POST with `answer()` (for broken answers). */
async function cannedEndpoint(answer: () => unknown): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer()));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('subgraph client', () => {
  test("the job's query passes the subgraph schema and pages exactly by `first` and `id_gt`", async () => {
    const pools = syntheticPools(20);
    const fake = await FakeSubgraph.start(pools);
    try {
      const all = await new SubgraphClient({
        url: fake.url,
        timeoutMs: 5_000,
        retries: 0,
        pageSize: 7,
      }).fetchAllPools();
      expect(all.pages).toBe(3);
      expect(fake.queries.map((q) => q.returned)).toEqual([7, 7, 6]);
      expect((all.pools as { id: string }[]).map((p) => p.id)).toEqual(pools.map((p) => p.id).sort());
      // Every field the job asks for is served (none lost to a misspelt name).
      const first = all.pools[0] as Record<string, unknown>;
      const source = pools.find((p) => p.id === first.id)!;
      expect(first).toMatchObject({
        totalSwapFee: source.totalSwapFee,
        amp: source.amp,
        createTime: source.createTime,
        tokensList: source.tokensList,
      });
      expect((first.tokens as unknown[])[0]).toMatchObject(source.tokens[0]!); // fields the synthetic pool lacks come back null
    } finally {
      await fake.close();
    }
  });

  test('the fake answers like graph-node to a misspelt field and to first > 1000', async () => {
    const fake = await FakeSubgraph.start(syntheticPools(3));
    const ask = async (query: string) =>
      (await (
        await fetch(fake.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        })
      ).json()) as {
        errors?: { message: string }[];
        data?: unknown;
      };
    try {
      expect((await ask('{ pools(first: 5) { id totalShare } }')).errors?.[0]?.message).toContain(
        'Cannot query field "totalShare" on type "Pool"',
      );
      expect((await ask('{ pools(first: 1001) { id } }')).errors?.[0]?.message).toContain('must be between 0 and 1000');
      const sorted = syntheticPools(3)
        .map((p) => ({ id: p.id }))
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      expect((await ask('{ pools(first: 2, skip: 1) { id } }')).data).toEqual({ pools: sorted.slice(1, 3) });
      expect(fake.queries.at(-1)?.skip).toBe(1);
    } finally {
      await fake.close();
    }
  });

  test("a page size above graph-node's 1000 is refused before any request", () => {
    expect(() => new SubgraphClient({ url: 'http://127.0.0.1:1/', timeoutMs: 1, retries: 0, pageSize: 1001 })).toThrow(
      'pageSize must be 1..1000',
    );
  });

  test('an answer without data.pools is an upstream error for "subgraph"', async () => {
    const endpoint = await cannedEndpoint(() => ({ data: {} }));
    try {
      const err = await new SubgraphClient({ url: endpoint.url, timeoutMs: 5_000, retries: 0 })
        .fetchAllPools()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect((err as UpstreamError).upstream).toBe('subgraph');
      expect((err as Error).message).toBe('subgraph: answered without a data.pools array');
    } finally {
      await endpoint.close();
    }
  });

  test('a subgraph that ignores the cursor is detected instead of paged forever', async () => {
    const page = syntheticPools(2).map((p) => ({ id: p.id }));
    let requests = 0;
    const endpoint = await cannedEndpoint(() => {
      requests++;
      return { data: { pools: page } };
    });
    try {
      const err = await new SubgraphClient({ url: endpoint.url, timeoutMs: 5_000, retries: 0, pageSize: 2 })
        .fetchAllPools()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect((err as Error).message).toContain('pages are not in id order');
      expect(requests).toBe(2);
    } finally {
      await endpoint.close();
    }
  });
});
