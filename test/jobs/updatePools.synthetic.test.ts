import { syntheticPools } from '../fakes/subgraphServer';
import { Harness, startHarness, ViewPool } from './poolUpdateHarness';

describe('pool update of a 10,000-pool subgraph', () => {
  const pools = syntheticPools(10_000);
  const ids = pools.map((p) => p.id).sort();
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(pools);
  });
  afterAll(async () => h.close());

  test('every pool is stored, read across 10 full pages by id cursor', async () => {
    expect(new Set(ids).size).toBe(10_000);
    expect((await h.update()).status).toBe(201);

    const stored = (await h.getJson('/pools/1')).body as ViewPool[];
    expect(stored.map((p) => p.id).sort()).toEqual(ids);
    // Ten pages of 1000, each starting after the last id of the previous page, then the empty
    // page that proves the end; `skip` never used.
    const expectedCursors = ['', ...Array.from({ length: 10 }, (_, k) => ids[(k + 1) * 1000 - 1]!)];
    expect(h.fake.queries.map((q) => q.idGt)).toEqual(expectedCursors);
    expect(h.fake.queries.map((q) => q.returned)).toEqual([...Array(10).fill(1000), 0]);
    expect(h.fake.queries.every((q) => q.first === 1000 && q.skip === undefined)).toBe(true);
    expect(h.fake.maxInFlight).toBe(1);
  });

  test('token metadata from the subgraph is stored for every token the pools use', async () => {
    const tokens = (await h.getJson('/tokens/1')).body as { address: string; symbol: string; decimals: number }[];
    const expected = new Map(pools.flatMap((p) => p.tokens.map((t) => [t.address, t] as const)));
    expect(tokens).toHaveLength(expected.size);
    for (const t of tokens) {
      expect({ symbol: t.symbol, decimals: t.decimals }).toEqual({
        symbol: expected.get(t.address)!.symbol,
        decimals: expected.get(t.address)!.decimals,
      });
    }
  });
});
