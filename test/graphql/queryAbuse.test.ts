import { getIntrospectionQuery } from 'graphql';
import { graphqlFeature } from '../../src/graphql/feature';
import { DEFAULT_LIMITS } from '../../src/graphql/yogaServer';
import { startTestServer, TestServer } from '../helpers/testServer';
import { syntheticPools } from '../fakes/syntheticPools';
import { gql } from './fixtures';

/** Fragments that each spread the one before twice: n levels expand to 2^n fields in ~45 n bytes. */
function fragmentFanOut(levels: number): string {
  const fragments = ['fragment F0 on Query { __typename }'];
  for (let i = 1; i <= levels; i++) fragments.push(`fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`);
  return `{ ...F${levels} } ${fragments.join(' ')}`;
}

const SCHEMA_WALK = `__schema { types { name fields { name type { name fields { name } } } } }`;

describe('GraphQL queries built to exhaust the service', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(
      {},
      { seed: [{ chainId: 1, pools: syntheticPools(20) }], features: [graphqlFeature] },
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses fragments that fan out 2^26 times with a 400 naming the spread size, and stays up', async () => {
    // 26 levels: 1.2 KB of text. Walking every spread one by one takes minutes.
    const query = fragmentFanOut(26);
    expect(query.length).toBeLessThan(1300);
    const r = await gql(server.url, query);
    expect(r.status).toBe(400);
    expect(r.errors!.every((e) => e.extensions?.code === 'QUERY_TOO_LARGE')).toBe(true);
    expect(r.errors!.map((e) => e.message)).toEqual([
      'query selects 67108864 fields once its fragments are spread, the limit is 5000; spread each fragment fewer times',
      'query selects 67108864 fields side by side in one selection (fragments spread into it counted), the limit is 250; select fewer fields or spread fewer fragments at one level',
    ]);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    // A modest fan-out is still a valid query.
    const small = await gql<{ __typename: string }>(server.url, fragmentFanOut(5));
    expect(small.errors).toBeUndefined();
    expect(small.data).toEqual({ __typename: 'Query' });
  });

  it('refuses the same fan-out over a GET, and one too long, too aliased or with too many spreads', async () => {
    const get = await fetch(`${server.url}/graphql?query=${encodeURIComponent(fragmentFanOut(26))}`, {
      headers: { accept: 'application/json' },
    });
    expect(get.status).toBe(400);
    expect(await get.text()).toMatch(/fields once its fragments are spread/);

    const long = await gql(server.url, `{ ${'__typename '.repeat(1000)}}`);
    expect(long.status).toBe(400);
    expect(long.errors![0]!.message).toMatch(/query is 11003 characters, the limit is 8192; send a shorter query/);

    const aliased = await gql(
      server.url,
      `{ ${Array.from({ length: 101 }, (_, i) => `a${i}: __typename`).join(' ')} }`,
    );
    expect(aliased.status).toBe(400);
    expect(aliased.errors![0]!.message).toMatch(/query has 101 aliased fields, the limit is 100/);

    const spreads = await gql(server.url, `{ ${'...F '.repeat(201)}} fragment F on Query { __typename }`);
    expect(spreads.status).toBe(400);
    expect(spreads.errors![0]!.message).toMatch(/query has 201 fragment spreads, the limit is 200/);

    // Fields side by side are compared pair by pair by graphql's overlapping-fields rule.
    const names = ['A', 'B', 'C'];
    const wide = await gql(
      server.url,
      `{ ${names.map((n) => `...${n}`).join(' ')} } ${names.map((n) => `fragment ${n} on Query { ${'__typename '.repeat(90)}}`).join(' ')}`,
    );
    expect(wide.status).toBe(400);
    expect(wide.errors![0]!.message).toMatch(
      /query selects 270 fields side by side in one selection .*the limit is 250/,
    );
  });

  it('answers one full introspection query, refuses a second __schema, and counts introspection in the cost', async () => {
    const full = await gql<{ __schema: { types: unknown[] } }>(server.url, getIntrospectionQuery());
    expect(full.errors).toBeUndefined();
    expect(full.data!.__schema.types.length).toBeGreaterThan(10);

    // Aliases of __schema each answer the whole schema again (a 30 KB POST answered 46.7 MB).
    const twice = await gql(server.url, `{ a: ${SCHEMA_WALK} b: ${SCHEMA_WALK} }`);
    expect(twice.status).toBe(400);
    expect(twice.errors![0]!.message).toMatch(/query asks for __schema 2 times, the limit is 1; .*ask for it once/);
    expect(twice.data).toBeUndefined();

    // Each fits alone (introspection ~1,070,000, the pages ~810,000); together they do not, since
    // introspection costs as much as other fields.
    const page = (alias: string) =>
      `${alias}: pools(chainId: 1, first: 1000) { pools { id tokens { address balance weight symbol decimals token { pool { id tokens { address balance } } } } } }`;
    const pages = ['a', 'b', 'c', 'd'].map(page).join(' ');
    expect((await gql(server.url, `{ ${pages} }`)).errors).toBeUndefined();
    const both = await gql(server.url, getIntrospectionQuery().replace('query IntrospectionQuery {', `{ ${pages}`));
    expect(both.status).toBe(400);
    expect(both.errors).toHaveLength(1);
    expect(both.errors![0]!.extensions?.code).toBe('QUERY_TOO_COSTLY');
    expect(both.errors![0]!.message).toMatch(/query cost \d+ exceeds the limit of 1500000/);
  });

  it('refuses an answer over the response size limit with a 400 naming both sizes', async () => {
    // The same data as the server above, behind a 5,000-byte limit.
    const small = await startTestServer(
      {},
      {
        seed: [{ chainId: 1, pools: syntheticPools(20) }],
        features: [(ctx) => graphqlFeature(ctx, { ...DEFAULT_LIMITS, maxResponseBytes: 5000 })],
      },
    );
    try {
      const query = `{ pools(chainId: 1, first: 20) { pools { id address tokens { address balance } } } }`;
      const big = await gql(small.url, query);
      expect(big.status).toBe(400);
      expect(big.errors).toHaveLength(1);
      expect(big.errors![0]!.extensions?.code).toBe('RESPONSE_TOO_LARGE');
      expect(big.errors![0]!.extensions).toMatchObject({ reason: 'RESPONSE_TOO_LARGE' });
      expect(big.errors![0]!.message).toMatch(/^the answer would be \d+ bytes, over the limit of 5000; lower first/);
      expect(big.data).toBeUndefined();
      // The same query answers in full where the limit is the default.
      const full = await gql<{ pools: { pools: unknown[] } }>(server.url, query);
      expect(full.errors).toBeUndefined();
      expect(JSON.stringify(full.data).length).toBeGreaterThan(5000);
      const few = await gql(small.url, `{ pools(chainId: 1, first: 2) { pools { id } } }`);
      expect(few.errors).toBeUndefined();
    } finally {
      await small.close();
    }
  });
});
