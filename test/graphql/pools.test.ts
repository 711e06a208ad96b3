import type { Address } from '../../src/domain/address';
import Big from 'big.js';
import type { StoredPool } from '../../src/domain/pool';
import { graphqlFeature } from '../../src/graphql/feature';
import { describeWithSnapshot, MAINNET } from '../helpers/snapshot';
import { startTestServer, TestServer } from '../helpers/testServer';
import { expectedOrder, gql, GqlResponse, RawPool, snapshotWithLiquidity } from './fixtures';

/** The query the old Balancer front end sent to the AppSync API (field list as in the issue). */
const FRONT_END_QUERY = /* GraphQL */ `
  query Pools(
    $first: Int
    $chainId: Int!
    $where: TablePoolsFilterInput
    $orderBy: String
    $orderDirection: String
    $nextToken: String
  ) {
    pools(
      first: $first
      chainId: $chainId
      where: $where
      orderBy: $orderBy
      orderDirection: $orderDirection
      nextToken: $nextToken
    ) {
      pools {
        chainId
        id
        address
        poolType
        poolTypeVersion
        factory
        symbol
        name
        swapEnabled
        swapFee
        owner
        tokens {
          id
          symbol
          name
          decimals
          address
          priceRate
          balance
          weight
          token {
            pool {
              id
              address
              poolType
              totalShares
              mainIndex
              tokens {
                address
                balance
                weight
                priceRate
                symbol
                decimals
              }
            }
            latestUSDPrice
          }
        }
        tokensList
        totalWeight
        totalSwapVolume
        totalSwapFee
        totalLiquidity
        totalShares
        volumeSnapshot
        feesSnapshot
        createTime
        swapsCount
        holdersCount
        amp
        expiryTime
        unitSeconds
        managementFee
        mainIndex
        wrappedIndex
        lowerTarget
        upperTarget
        apr {
          swapFees
          tokenAprs {
            total
            breakdown
          }
          stakingApr {
            min
            max
          }
          rewardAprs {
            total
            breakdown
          }
          protocolApr
          min
          max
        }
        maxApr
        isNew
        isInRecoveryMode
        isPaused
        protocolYieldFeeCache
        priceRateProviders {
          address
          token {
            address
          }
        }
      }
      nextToken
    }
  }
`;

const PAGE_QUERY = /* GraphQL */ `
  query Page(
    $first: Int
    $where: TablePoolsFilterInput
    $orderBy: String
    $orderDirection: String
    $nextToken: String
  ) {
    pools(
      first: $first
      chainId: 1
      where: $where
      orderBy: $orderBy
      orderDirection: $orderDirection
      nextToken: $nextToken
    ) {
      pools {
        id
      }
      nextToken
    }
  }
`;

interface PageData {
  pools: { pools: { id: string }[]; nextToken: string | null };
}

async function pageThrough(
  url: string,
  vars: Record<string, unknown>,
  betweenPages?: (pageNo: number) => Promise<void>,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let nextToken: string | null = null;
  let pages = 0;
  do {
    if (pages > 0 && betweenPages) await betweenPages(pages);
    const r: GqlResponse<PageData> = await gql<PageData>(url, PAGE_QUERY, { ...vars, nextToken });
    expect(r.errors).toBeUndefined();
    ids.push(...r.data!.pools.pools.map((p) => p.id));
    nextToken = r.data!.pools.nextToken;
    pages++;
    if (pages > 1000) throw new Error('paging does not end');
  } while (nextToken);
  return { ids, pages };
}

describeWithSnapshot('GraphQL pools over the mainnet snapshot', () => {
  let server: TestServer;
  const raw: RawPool[] = snapshotWithLiquidity();
  const WETH = MAINNET.WETH;

  beforeAll(async () => {
    server = await startTestServer(
      { NETWORKS: '1' },
      { seed: [{ chainId: 1, pools: raw }], features: [graphqlFeature] },
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers the old front end's query with the right pools in the right order", async () => {
    const matching = raw.filter(
      (p) =>
        p.tokensList.map((a) => a.toLowerCase()).includes(WETH) &&
        ['Weighted', 'Stable'].includes(p.poolType) &&
        new Big(p.totalShares).gt('0.01'),
    );
    const ranked = expectedOrder(matching, (p) => p.totalLiquidity, 'desc');
    // The front end excluded known-bad pools by id; exclude the two best, spelled in upper case.
    const excluded = ranked.slice(0, 2).map((id) => '0x' + id.slice(2).toUpperCase());
    const expected = ranked.slice(2, 12);

    const r = await gql<{ pools: { pools: Record<string, unknown>[]; nextToken: string | null } }>(
      server.url,
      FRONT_END_QUERY,
      {
        first: 10,
        chainId: 1,
        orderBy: 'totalLiquidity',
        orderDirection: 'desc',
        where: {
          tokensList: { contains: [WETH.toUpperCase().replace('0X', '0x')] },
          poolType: { in: ['Weighted', 'Stable'] },
          totalShares: { gt: 0.01 },
          id: { not_in: excluded },
        },
      },
    );
    expect(r.errors).toBeUndefined();
    const pools = r.data!.pools.pools;
    expect(pools.map((p) => p.id)).toEqual(expected);
    expect(r.data!.pools.nextToken).toEqual(expect.any(String));
    const byId = new Map(raw.map((p) => [p.id.toLowerCase(), p]));
    for (const p of pools) {
      const src = byId.get(p.id as string)!;
      expect(p.chainId).toBe(1);
      expect(p.poolType).toBe(src.poolType);
      expect(new Big(p.totalShares as string).eq(new Big(src.totalShares))).toBe(true);
      expect(p.totalLiquidity).toBe(src.totalLiquidity);
      expect(p.tokensList).toEqual(src.tokensList.map((a) => a.toLowerCase()));
      const tokens = p.tokens as { id: string; address: string; balance: string }[];
      expect(tokens.map((t) => t.address)).toEqual(src.tokens.map((t) => t.address.toLowerCase()));
      expect(tokens.map((t) => t.id)).toEqual(
        src.tokens.map((t) => `${src.id.toLowerCase()}-${t.address.toLowerCase()}`),
      );
      tokens.forEach((t, i) => expect(new Big(t.balance).eq(new Big(src.tokens[i]!.balance))).toBe(true));
      // Not decorated yet: these come back null rather than failing the query.
      expect(p.apr).toBeNull();
      expect(p.volumeSnapshot).toBeNull();
    }
  });

  it("returns every snapshot pool with the front end's full field set in one page of 1000", async () => {
    const r = await gql<{ pools: { pools: { id: string; unitSeconds: number | null }[]; nextToken: string | null } }>(
      server.url,
      FRONT_END_QUERY,
      { first: 1000, chainId: 1 },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.pools.pools).toHaveLength(raw.length);
    expect(r.data!.pools.nextToken).toBeNull();
    // Element pools' unitSeconds exceed a 32-bit GraphQL Int; they must still come back whole.
    const element = raw.filter((p) => p.unitSeconds != null);
    const byId = new Map(r.data!.pools.pools.map((p) => [p.id, p]));
    for (const p of element) expect(byId.get(p.id.toLowerCase())!.unitSeconds).toBe(Number(p.unitSeconds));
  });

  it('pages through every pool exactly once, in order, with nextToken', async () => {
    const { ids, pages } = await pageThrough(server.url, { first: 50 });
    expect(pages).toBe(Math.ceil(raw.length / 50));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expectedOrder(raw, (p) => p.totalLiquidity, 'desc'));
  });

  it('pages a filtered, ascending order the same way', async () => {
    const where = { poolType: { eq: 'LiquidityBootstrapping' } };
    const { ids } = await pageThrough(server.url, { first: 7, where, orderBy: 'totalShares', orderDirection: 'asc' });
    const lbps = raw.filter((p) => p.poolType === 'LiquidityBootstrapping');
    expect(ids).toEqual(expectedOrder(lbps, (p) => p.totalShares, 'asc'));
    const count = await gql<{ poolsCount: number }>(
      server.url,
      `{ poolsCount(chainId: 1, where: { poolType: { eq: "LiquidityBootstrapping" } }) }`,
    );
    expect(count.data!.poolsCount).toBe(lbps.length);
  });

  it('finds one pool by id in any letter case, and answers null for an unknown id', async () => {
    const target = raw[5]!;
    const r = await gql<{ hit: { id: string; address: string } | null; miss: unknown }>(
      server.url,
      `query($id: String!) { hit: pool(chainId: 1, id: $id) { id address } miss: pool(chainId: 1, id: "0x${'ab'.repeat(32)}") { id } }`,
      { id: target.id.toUpperCase().replace('0X', '0x') },
    );
    expect(r.errors).toBeUndefined();
    expect(r.data!.hit).toEqual({ id: target.id.toLowerCase(), address: target.address.toLowerCase() });
    expect(r.data!.miss).toBeNull();
  });

  it('serves GET queries and application/graphql-response+json', async () => {
    const query = `{ poolsCount(chainId: 1) }`;
    const res = await fetch(`${server.url}/graphql?query=${encodeURIComponent(query)}`, {
      headers: { accept: 'application/graphql-response+json' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/graphql-response+json');
    expect(await res.json()).toEqual({ data: { poolsCount: raw.length } });
  });

  it("resolves a token that is another pool's BPT to that pool, and latestUSDPrice to the token's USD price", async () => {
    const { store, readModel } = server.ctx;
    const tokens = await store.listTokens(1);
    const weth = tokens.find((t) => t.address === WETH)!;
    await store.commit(1, {
      tokens: [{ ...weth, price: '1', priceUsd: '2845.12', lastUpdate: 1, noPriceData: false }],
      bumpTokensVersion: true,
    });
    await readModel.refresh(1);

    // A boosted (StablePhantom) pool holds the BPTs of linear pools.
    const phantom = raw.find((p) => p.poolType === 'StablePhantom')!;
    const addresses = new Map(raw.map((p) => [p.address.toLowerCase(), p]));
    const r = await gql<{
      pool: {
        tokens: {
          address: string;
          token: { pool: { id: string; poolType: string } | null; latestUSDPrice: string | null };
        }[];
      };
    }>(
      server.url,
      `{ pool(chainId: 1, id: "${phantom.id}") { tokens { address token { pool { id poolType } latestUSDPrice } } } }`,
    );
    expect(r.errors).toBeUndefined();
    const got = r.data!.pool.tokens;
    expect(got.length).toBe(phantom.tokens.length);
    for (const t of got) {
      const owner = addresses.get(t.address);
      expect(t.token.pool).toEqual(owner ? { id: owner.id.toLowerCase(), poolType: owner.poolType } : null);
    }
    expect(got.filter((t) => t.token.pool !== null).length).toBeGreaterThanOrEqual(3);

    const wethPool = raw.find((p) => p.tokensList.includes(WETH))!;
    const w = await gql<{
      pool: { tokens: { address: string; token: { latestUSDPrice: string | null; pool: unknown } }[] };
    }>(
      server.url,
      `{ pool(chainId: 1, id: "${wethPool.id}") { tokens { address token { latestUSDPrice pool { id } } } } }`,
    );
    const wethToken = w.data!.pool.tokens.find((t) => t.address === WETH)!;
    expect(wethToken.token).toEqual({ latestUSDPrice: '2845.12', pool: null });

    const list = await gql<{ tokens: { address: string; priceUsd: string | null }[] }>(
      server.url,
      `{ tokens(chainId: 1) { address priceUsd } }`,
    );
    expect(list.data!.tokens.length).toBe(tokens.length);
    expect(list.data!.tokens.find((t) => t.address === WETH)!.priceUsd).toBe('2845.12');
  });

  it('orders by volume and apr once pools are decorated, undecorated pools last, with the APR breakdown', async () => {
    const { store, readModel } = server.ctx;
    const stored = await store.listPools(1);
    // Decorate every third pool the way the decoration job would.
    const decorated: StoredPool[] = stored
      .filter((_, i) => i % 3 === 0)
      .map((p, i) => ({
        ...p,
        volumeSnapshot: `${(i * 7919) % 1000}.${i}`,
        feesSnapshot: '1',
        maxApr: ((i * 37) % 50) / 100,
        apr: {
          swapFees: 0.01,
          tokenAprs: { total: 0, breakdown: {} },
          stakingApr: { min: 0, max: 0 },
          rewardAprs: { total: 0.02, breakdown: { [MAINNET.BAL]: 0.02 } },
          protocolApr: 0,
          min: 0.01,
          max: ((i * 37) % 50) / 100,
        },
        isNew: false,
      }));
    await store.commit(1, { pools: decorated, bumpPoolsVersion: true });
    await readModel.refresh(1);
    const after = (await store.listPools(1)) as (StoredPool & { maxApr?: number })[];

    const byVolume = await pageThrough(server.url, { first: 100, orderBy: 'volume' });
    expect(byVolume.ids).toEqual(expectedOrder(after, (p) => p.volumeSnapshot, 'desc'));
    const byApr = await pageThrough(server.url, { first: 100, orderBy: 'apr', orderDirection: 'asc' });
    expect(byApr.ids).toEqual(expectedOrder(after, (p) => (p.maxApr === undefined ? null : String(p.maxApr)), 'asc'));

    const top = await gql<{
      pools: { pools: { id: string; maxApr: number; apr: { rewardAprs: { breakdown: unknown } } }[] };
    }>(
      server.url,
      `{ pools(chainId: 1, first: 1, orderBy: "apr") { pools { id maxApr apr { rewardAprs { breakdown } } } } }`,
    );
    expect(top.data!.pools.pools[0]!.apr.rewardAprs.breakdown).toEqual({ [MAINNET.BAL]: 0.02 });
    expect(top.data!.pools.pools[0]!.maxApr).toBe(Math.max(...decorated.map((p) => p.maxApr!)));
  });
});

describeWithSnapshot('GraphQL paging across a read model reload', () => {
  let server: TestServer;
  const raw = snapshotWithLiquidity();

  beforeAll(async () => {
    server = await startTestServer(
      { NETWORKS: '1' },
      { seed: [{ chainId: 1, pools: raw }], features: [graphqlFeature] },
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('returns every unchanged pool exactly once when pools are re-ranked, added and removed between pages', async () => {
    const order = expectedOrder(raw, (p) => p.totalLiquidity, 'desc');
    const changed = new Set<string>();
    const reload = async (pageNo: number) => {
      if (pageNo !== 1) return;
      const { store, readModel } = server.ctx;
      const stored = new Map((await store.listPools(1)).map((p) => [p.id, p]));
      // After the first page (ids 0..99 seen): an unseen pool jumps to the top (an offset would
      // then repeat a pool), a seen pool drops to the bottom (an offset would skip one), one unseen
      // pool disappears and a new one appears.
      const jumper = stored.get(order[250]!)!;
      const dropper = stored.get(order[10]!)!;
      const removed = order[300]!;
      const added: StoredPool = {
        ...stored.get(order[200]!)!,
        id: `0x${'cd'.repeat(32)}`,
        address: `0x${'cd'.repeat(20)}` as Address,
        totalLiquidity: '5',
      };
      for (const id of [jumper.id, dropper.id, removed, added.id]) changed.add(id);
      await store.commit(1, {
        pools: [{ ...jumper, totalLiquidity: '999999999999' }, { ...dropper, totalLiquidity: '0' }, added],
        deletePoolIds: [removed],
        bumpPoolsVersion: true,
      });
      await readModel.refresh(1);
    };
    const { ids } = await pageThrough(server.url, { first: 100 }, reload);
    const unchanged = order.filter((id) => !changed.has(id));
    for (const id of unchanged) expect(ids.filter((x) => x === id)).toHaveLength(1);
    expect(ids).toContain(`0x${'cd'.repeat(32)}`);
    expect(ids).not.toContain(order[300]);
  });
});
