import { parse, validate } from 'graphql';
import { v3SubgraphSchemas } from '../../src/devnet/indexer/v3Subgraphs';
import { META_QUERY } from '../../src/sources/subgraph/poolsQuery';
import { V3_VAULT_POOLS, v3PoolTypesQuery } from '../../src/sources/subgraph/v3/v3Catalogue';

/**
 * The devnet's two V3 subgraphs answer every query the service's V3 catalogue sends: a field the
 * catalogue starts asking for (a new V3 type's parameters) fails here rather than as a GraphQL
 * error in the demo's first pool update.
 */
describe("the devnet's V3 subgraphs take the V3 catalogue's queries", () => {
  const schemas = v3SubgraphSchemas();
  const errors = (schema: typeof schemas.vault, query: string) => validate(schema, parse(query)).map((e) => e.message);

  test('the vault subgraph: every pool, the pools changed since a block, its indexed block', () => {
    for (const query of [V3_VAULT_POOLS.all, V3_VAULT_POOLS.changed, META_QUERY])
      expect(errors(schemas.vault, query)).toEqual([]);
  });

  test("the pools subgraph: each pool's type, version and every registered type's parameters", () => {
    // Like an older deployment, it has no LBP sale entities: the catalogue asks again without them
    // (the sales are read at the head), and every other entity must be there.
    const { query, withoutSales } = v3PoolTypesQuery();
    expect(errors(schemas.pools, withoutSales)).toEqual([]);
    expect(errors(schemas.pools, query).filter((e) => !/"(lbpParams|fixedLBPParams)"/.test(e))).toEqual([]);
  });
});
