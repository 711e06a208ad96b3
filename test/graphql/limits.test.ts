import type { StoredPool } from '../../src/domain/pool';
import { graphqlFeature } from '../../src/graphql/feature';
import { startTestServer, TestServer } from '../helpers/testServer';
import { gql } from './fixtures';
import { syntheticPools } from '../fakes/syntheticPools';

/** Every refusal is a GraphQL error that names the problem and never shows a stack trace. */
function expectCleanError(
  r: { errors?: { message: string; extensions?: { code?: string } }[]; raw: string },
  code: string,
  message: RegExp,
): Record<string, unknown> {
  expect(r.errors).toHaveLength(1);
  expect(r.errors![0]!.extensions?.code).toBe(code);
  expect(r.errors![0]!.message).toMatch(message);
  expect(r.raw).not.toMatch(/stack|\.ts:\d+|\bat [\w.<>]+ \(/);
  return r.errors![0]!.extensions ?? {};
}

const POOL_FIELDS = `chainId id address poolType poolTypeVersion factory symbol name swapEnabled swapFee owner
  tokens { id symbol name decimals address priceRate balance weight token { pool { id address poolType totalShares mainIndex tokens { address balance weight priceRate symbol decimals } } latestUSDPrice } }
  tokensList totalWeight totalSwapVolume totalSwapFee totalLiquidity totalShares volumeSnapshot feesSnapshot createTime swapsCount holdersCount
  amp expiryTime unitSeconds managementFee mainIndex wrappedIndex lowerTarget upperTarget
  apr { swapFees tokenAprs { total breakdown } stakingApr { min max } rewardAprs { total breakdown } protocolApr min max }
  maxApr isNew isInRecoveryMode isPaused protocolYieldFeeCache priceRateProviders { address token { address } }`;

describe('GraphQL limits and errors', () => {
  let server: TestServer;
  const pools = syntheticPools(60);

  beforeAll(async () => {
    server = await startTestServer(
      { NETWORKS: '1,42161' },
      { seed: [{ chainId: 1, pools }], features: [graphqlFeature] },
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses first above 1000 or below 1, and accepts 1000', async () => {
    const q = `query($n: Int) { pools(chainId: 1, first: $n) { pools { id } } }`;
    const big = await gql(server.url, q, { n: 1001 });
    expectCleanError(big, 'BAD_USER_INPUT', /first must be between 1 and 1000, got 1001/);
    expect(big.data).toEqual({ pools: null });
    expectCleanError(await gql(server.url, q, { n: 0 }), 'BAD_USER_INPUT', /first must be between 1 and 1000, got 0/);
    const max = await gql<{ pools: { pools: unknown[] } }>(server.url, q, { n: 1000 });
    expect(max.errors).toBeUndefined();
    expect(max.data!.pools.pools).toHaveLength(pools.length);
  });

  it('refuses an unknown orderBy or orderDirection, listing what is accepted', async () => {
    const r = await gql(server.url, `{ pools(chainId: 1, orderBy: "tvl") { pools { id } } }`);
    expectCleanError(
      r,
      'BAD_USER_INPUT',
      /orderBy 'tvl' is not supported; use one of totalLiquidity, volume, apr, .*totalShares/,
    );
    expectCleanError(
      await gql(server.url, `{ pools(chainId: 1, orderBy: "poolType") { pools { id } } }`),
      'BAD_USER_INPUT',
      /orderBy 'poolType' is not supported/,
    );
    // Names every JavaScript object answers to are not fields of the catalogue.
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      expectCleanError(
        await gql(server.url, `{ pools(chainId: 1, orderBy: "${name}") { pools { id } } }`),
        'BAD_USER_INPUT',
        new RegExp(`orderBy '${name}' is not supported; use one of totalLiquidity`),
      );
    }
    expectCleanError(
      await gql(server.url, `{ pools(chainId: 1, orderDirection: "up") { pools { id } } }`),
      'BAD_USER_INPUT',
      /orderDirection must be 'asc' or 'desc'/,
    );
    const upper = await gql(server.url, `{ pools(chainId: 1, orderDirection: "ASC") { pools { id } } }`);
    expect(upper.errors).toBeUndefined();
  });

  it('refuses a chain that is not enabled or not known, and one that is still empty answers empty', async () => {
    expect(
      expectCleanError(
        await gql(server.url, `{ pools(chainId: 137) { pools { id } } }`),
        'CHAIN_NOT_ENABLED',
        /chain 137 \(polygon\) is not enabled.*enabled: 1, 42161/,
      ),
    ).toMatchObject({ reason: 'CHAIN_NOT_ENABLED', field: 'chainId', details: { enabled: [1, 42161] } });
    expectCleanError(
      await gql(server.url, `{ tokens(chainId: 5) { address } }`),
      'CHAIN_NOT_ENABLED',
      /unknown chain 5/,
    );
    expect(
      expectCleanError(
        await gql(server.url, `{ poolsCount(chainId: -1) }`),
        'BAD_USER_INPUT',
        /chainId must be a positive integer/,
      ),
    ).toMatchObject({ reason: 'BAD_FIELD', field: 'chainId' });
    const empty = await gql(
      server.url,
      `{ pools(chainId: 42161) { pools { id } nextToken } poolsCount(chainId: 42161) }`,
    );
    expect(empty).toMatchObject({ data: { pools: { pools: [], nextToken: null }, poolsCount: 0 } });
  });

  it('refuses a nextToken it did not issue, or one from a differently ordered query', async () => {
    expectCleanError(
      await gql(server.url, `{ pools(chainId: 1, nextToken: "bm90IGEgdG9rZW4") { pools { id } } }`),
      'BAD_USER_INPUT',
      /nextToken is not a token this service issued/,
    );
    const first = await gql<{ pools: { nextToken: string } }>(
      server.url,
      `{ pools(chainId: 1, first: 5, orderBy: "totalShares") { nextToken } }`,
    );
    const token = first.data!.pools.nextToken;
    expectCleanError(
      await gql(server.url, `query($t: String) { pools(chainId: 1, first: 5, nextToken: $t) { pools { id } } }`, {
        t: token,
      }),
      'BAD_USER_INPUT',
      /nextToken belongs to a query ordered by totalShares desc, this one is ordered by totalLiquidity desc/,
    );
  });

  it('refuses bad filters with the field named', async () => {
    expectCleanError(
      await gql(server.url, `{ pools(chainId: 1, where: { totalShares: { between: [1] } }) { pools { id } } }`),
      'BAD_USER_INPUT',
      /between takes exactly two values/,
    );
    const unknown = await gql(server.url, `{ pools(chainId: 1, where: { tvl: { gt: 1 } }) { pools { id } } }`);
    expect(unknown.errors![0]!.message).toMatch(/tvl/);
    expect(unknown.raw).not.toMatch(/stack/);
  });

  it('refuses queries nested deeper than 10 levels', async () => {
    const nest = (levels: number): string =>
      levels === 0 ? 'id' : `id tokens { token { pool { ${nest(levels - 1)} } } }`;
    // pools > pools > (tokens > token > pool) x 3 > id = 12 levels.
    const deep = await gql(server.url, `{ pools(chainId: 1, first: 1) { pools { ${nest(3)} } } }`);
    expect(expectCleanError(deep, 'QUERY_TOO_DEEP', /query depth 12 exceeds the limit of 10/)).toMatchObject({
      reason: 'QUERY_TOO_LARGE',
    });
    const broken = await gql(server.url, '{ pools(chainId: 1 { id }');
    expect(broken.errors?.[0]?.extensions).toMatchObject({ reason: 'BAD_QUERY' });
    const unknownField = await gql(server.url, '{ pools(chainId: 1) { pools { nope } } }');
    expect(unknownField.errors?.[0]?.extensions).toMatchObject({ reason: 'BAD_QUERY' });
    // Via a fragment it is the same query.
    const viaFragment = await gql(
      server.url,
      `{ pools(chainId: 1, first: 1) { pools { ...P } } } fragment P on Pool { ${nest(3)} }`,
    );
    expectCleanError(viaFragment, 'QUERY_TOO_DEEP', /query depth 12/);
    const ok = await gql(server.url, `{ pools(chainId: 1, first: 1) { pools { ${nest(2)} } } }`);
    expect(ok.errors).toBeUndefined();
  });

  it('refuses queries that would return too much, counting first from variables and every alias', async () => {
    const one = `query($n: Int) { a: pools(chainId: 1, first: $n) { pools { ${POOL_FIELDS} } } }`;
    const full = await gql(server.url, one, { n: 1000 });
    expect(full.errors).toBeUndefined();
    const thrice = `query($n: Int) { a: pools(chainId: 1, first: $n) { pools { ${POOL_FIELDS} } } b: pools(chainId: 1, first: $n) { pools { ${POOL_FIELDS} } } c: pools(chainId: 1, first: $n) { pools { ${POOL_FIELDS} } } }`;
    expectCleanError(
      await gql(server.url, thrice, { n: 1000 }),
      'QUERY_TOO_COSTLY',
      /query cost \d+ exceeds the limit of 1500000/,
    );
    const small = await gql(server.url, thrice, { n: 10 });
    expect(small.errors).toBeUndefined();
  });

  it('masks unexpected failures as "Unexpected error." and keeps the rest of the answer', async () => {
    const { store, readModel } = server.ctx;
    const victim = (await store.listPools(1))[0]!;
    // A stored record that breaks the pool shape (as a bad migration might leave it).
    const broken = { ...victim, priceRateProviders: null } as unknown as StoredPool;
    await store.commit(1, { pools: [broken], bumpPoolsVersion: true });
    await readModel.refresh(1);
    const r = await gql<{ pool: { id: string; priceRateProviders: unknown } }>(
      server.url,
      `{ pool(chainId: 1, id: "${victim.id}") { id priceRateProviders { address } } }`,
    );
    expect(r.errors![0]!.message).toBe('Unexpected error.');
    expect(r.raw).not.toMatch(/stack|TypeError|Cannot read|\.ts:\d+/);
    expect(r.data).toEqual({ pool: { id: victim.id, priceRateProviders: null } });
    await store.commit(1, { pools: [victim], bumpPoolsVersion: true });
    await readModel.refresh(1);
  });

  it('answers malformed HTTP requests with a JSON error', async () => {
    const text = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{ poolsCount(chainId: 1) }',
    });
    expect(text.status).toBe(415);
    expect(await text.json()).toEqual({
      error: expect.stringMatching(/JSON body .*Content-Type: application\/json/),
      code: 415,
      reason: 'UNSUPPORTED_MEDIA_TYPE',
    });
    const broken = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({
      error: expect.stringMatching(/malformed JSON body/),
      code: 400,
      reason: 'MALFORMED_JSON',
    });
    const noQuery = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(noQuery.status).toBe(400);
    expect(await noQuery.json()).toEqual({
      error: expect.stringMatching(/^query: missing/),
      code: 400,
      reason: 'BAD_FIELD',
      field: 'query',
    });
  });
});
