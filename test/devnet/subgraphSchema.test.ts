import { graphql } from 'graphql';
import { selectPools, SubgraphPool, subgraphSchema } from '../../src/devnet/indexer/subgraphSchema';
import { toSubgraphPool } from '../../src/devnet/indexer/subgraphPools';
import { prices, weighted } from './onchainFixture';
import { poolsQuery } from '../../src/sources/subgraph/poolsQuery';

const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const pools: SubgraphPool[] = [5, 1, 4, 2, 3].map((n) => ({
  id: id(n),
  address: `0x${n.toString(16).padStart(40, '0')}`,
  poolType: n % 2 === 0 ? 'Weighted' : 'ComposableStable',
  totalShares: n === 3 ? '0' : `${n}.5`,
  totalLiquidity: n === 2 || n === 4 ? '1000' : `${n}`,
  swapEnabled: true,
}));

describe('selectPools (graph-node semantics)', () => {
  test('id_gt cursor paging walks every pool exactly once, in id order', () => {
    const seen: string[] = [];
    let lastId = '';
    for (;;) {
      const page = selectPools(pools, {
        first: 2,
        skip: 0,
        orderBy: 'id',
        orderDirection: 'asc',
        where: { id_gt: lastId },
      });
      seen.push(...page.map((p) => p.id));
      if (page.length < 2) break;
      lastId = page[page.length - 1]!.id;
    }
    expect(seen).toEqual([1, 2, 3, 4, 5].map(id));
  });

  test('totalShares_gt compares exact decimals and drops empty pools', () => {
    expect(selectPools(pools, { first: 100, skip: 0, where: { totalShares_gt: '0' } }).map((p) => p.id)).toEqual(
      [1, 2, 4, 5].map(id),
    );
    expect(selectPools(pools, { first: 100, skip: 0, where: { totalShares_gt: '4.49' } }).map((p) => p.id)).toEqual(
      [4, 5].map(id),
    );
  });

  test('orders by a decimal field with ties broken by id, then pages with skip', () => {
    const byLiquidity = selectPools(pools, { first: 3, skip: 0, orderBy: 'totalLiquidity', orderDirection: 'desc' });
    expect(byLiquidity.map((p) => p.id)).toEqual([4, 2, 5].map(id));
    expect(
      selectPools(pools, { first: 2, skip: 3, orderBy: 'totalLiquidity', orderDirection: 'desc' }).map((p) => p.id),
    ).toEqual([3, 1].map(id));
  });

  test('refuses first above 1000 as graph-node does', () => {
    expect(() => selectPools(pools, { first: 1001, skip: 0 })).toThrow(/first/);
  });
});

describe('the schema', () => {
  test("accepts the pool-update job's query and refuses unknown fields", async () => {
    const served = [1, 2, 3].map(
      (n) =>
        ({
          ...toSubgraphPool({ ...weighted, id: id(n), totalShares: BigInt(n - 1) }, prices),
          id: id(n),
        }) as SubgraphPool,
    );
    const rootValue = { pools: (args: Parameters<typeof selectPools>[1]) => selectPools(served, args) };
    const ok = await graphql({
      schema: subgraphSchema(),
      source: poolsQuery(),
      rootValue,
      variableValues: { first: 1000, lastId: '' },
    });
    expect(ok.errors).toBeUndefined();
    // The job's query filters totalShares_gt 0: the pool without shares is not served.
    expect((ok.data as { pools: { id: string; tokens: { balance: string }[] }[] }).pools.map((p) => p.id)).toEqual([
      id(2),
      id(3),
    ]);
    const bad = await graphql({ schema: subgraphSchema(), source: '{ pools { id notAField } }', rootValue });
    expect(bad.errors?.[0]?.message).toMatch(/notAField/);
  });
});
