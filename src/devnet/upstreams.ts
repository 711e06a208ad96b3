import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Request, Response } from 'express';
import { graphql } from 'graphql';
import type { Provider } from 'ethers';
import type { Devnet } from './devnet';
import { OnchainPoolReader } from './indexer/onchainPools';
import { PoolsArgs, selectPools, SubgraphPool, subgraphSchema } from './indexer/subgraphSchema';
import { toSubgraphPool } from './indexer/subgraphPools';
import { COIN_PRICES_USD, pricesByAddress } from './prices';
import { readGauges } from './gauges';
import { GaugePoolEntry, gaugesRootValue, gaugesSubgraphSchema, readGaugeEntries } from './indexer/gaugesSubgraph';
import { OnchainV3PoolReader } from './indexer/onchainV3Pools';
import { selectV3Rows, toV3TypePool, toV3VaultPool, v3SubgraphSchemas, V3PoolsArgs } from './indexer/v3Subgraphs';

/**
 * The devnet's two upstreams on one loopback HTTP server:
 * - `POST /subgraphs/name/localdev`: a subgraph-shaped GraphQL endpoint whose pools are read from
 *   the chain at the latest block (so a trade shows up at the next pool update), or frozen at
 *   its first answer, or lagging a set time behind the head (`UpstreamsOptions`);
 * - `POST /subgraphs/name/localdev-v3-vault` and `/subgraphs/name/localdev-v3-pools`: Balancer
 *   V3's two subgraphs (pools, tokens and hooks; types and parameters) over the V3 Vault's pools
 *   read from the chain at the latest block (`SUBGRAPH_V3_URL_31337`, `SUBGRAPH_V3_POOLS_URL_31337`);
 *   not frozen or lagging with the V2 one (those options are about the V2 catalogue);
 * - `POST /subgraphs/name/localdev-gauges`: the gauges subgraph (pool -> preferential gauge and
 *   its reward tokens) over the gauge system on the chain (src/devnet/gauges.ts), if it has one;
 * - `GET /prices/api/v3/simple/price` and `/simple/token_price/localdev`: a CoinGecko-shaped price
 *   API with the devnet's fixed prices;
 * - `GET /sanctions/api/v1/address/:address`: a Chainalysis-shaped screening API that flags only
 *   `DEVNET_BLOCKED_ADDRESS`, so `/check-wallet` works offline too;
 * - `POST /simulator/api/v1/account/:user/project/:project/simulate`: a Tenderly-shaped simulator
 *   that runs the call on the devnet (`eth_call` at the latest block). Encoding state overrides
 *   (`contracts/encode-states`) and `state_objects` are Tenderly features it refuses with a 400.
 */
export const SUBGRAPH_PATH = '/subgraphs/name/localdev';
export const GAUGES_SUBGRAPH_PATH = '/subgraphs/name/localdev-gauges';
export const V3_VAULT_SUBGRAPH_PATH = '/subgraphs/name/localdev-v3-vault';
export const V3_POOLS_SUBGRAPH_PATH = '/subgraphs/name/localdev-v3-pools';
export const PRICES_PATH = '/prices/api/v3';
export const PRICE_PLATFORM = 'localdev';
export const SANCTIONS_PATH = '/sanctions';
export const SIMULATOR_PATH = '/simulator';
/** The one address the local sanctions list flags (a made-up address, not anybody's). */
export const DEVNET_BLOCKED_ADDRESS = '0x000000000000000000000000000000000000dead';

export interface DevnetUpstreams {
  readonly subgraphUrl: string;
  /** For GAUGES_SUBGRAPH_URL_31337. */
  readonly gaugesSubgraphUrl: string;
  /** For SUBGRAPH_V3_URL_31337 and SUBGRAPH_V3_POOLS_URL_31337 (both are needed). */
  readonly v3VaultSubgraphUrl: string;
  readonly v3PoolsSubgraphUrl: string;
  readonly priceApiUrl: string;
  /** Base URL for SANCTIONS_API_URL (provider chainalysis; any API key). */
  readonly sanctionsApiUrl: string;
  /** Base URL for SIMULATOR_API_URL (any user, project and access key). */
  readonly simulatorApiUrl: string;
  /** Subgraph requests answered (pool reads happen at most once per block). */
  readonly stats: { subgraphRequests: number; chainReads: number };
  close(): Promise<void>;
}

export interface UpstreamsOptions {
  readonly provider: Provider;
  readonly devnet: Devnet;
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /**
   * Answer every subgraph query from the first block read, like a subgraph that stopped indexing:
   * the end-to-end suite shows with it that quotes follow the chain, not the subgraph.
   */
  readonly frozenSubgraph?: boolean;
  /**
   * Answer every subgraph query from the newest copy of the index recorded at least this many
   * seconds of chain time before the head, like a hosted subgraph lagging behind the chain (a
   * copy is recorded at the head each time a query comes in; until one is that old, the first
   * copy is served). Chain time, so a suite moves it with evm_increaseTime instead of waiting.
   */
  readonly subgraphLagSeconds?: number;
}

function jsonError(res: Response, status: number, error: string): void {
  res.status(status).json({ error, code: status });
}

export async function startDevnetUpstreams(options: UpstreamsOptions): Promise<DevnetUpstreams> {
  const reader = new OnchainPoolReader(options.provider, options.devnet.addresses);
  const prices = pricesByAddress(options.devnet);
  const stats = { subgraphRequests: 0, chainReads: 0 };
  /** The index as read at one block: the pools and the block they were read at. */
  interface IndexCopy {
    readonly hash: string;
    readonly number: number;
    readonly timestamp: number;
    readonly pools: Promise<SubgraphPool[]>;
  }
  // Keyed by block hash, not number: after evm_revert a block number comes back with new state.
  let cache: IndexCopy | undefined;
  /** With a lag: the copies recorded so far, oldest first, at most one per block. */
  let copies: IndexCopy[] = [];
  const lag = options.subgraphLagSeconds;

  async function copyAtLatest(): Promise<IndexCopy> {
    const block = await options.provider.getBlock('latest');
    if (!block?.hash) throw new Error('the chain returned no latest block');
    if (cache?.hash !== block.hash) {
      stats.chainReads++;
      const read = reader.readAll().then((list) => list.map((p) => toSubgraphPool(p, prices) as SubgraphPool));
      cache = { hash: block.hash, number: block.number, timestamp: block.timestamp, pools: read };
      read.catch(() => {
        if (cache?.hash === block.hash) cache = undefined;
        copies = copies.filter((c) => c.hash !== block.hash);
      });
      if (lag !== undefined) {
        // Copies of blocks the chain no longer has (rewound past them) are not the index's past.
        copies = copies.filter((c) => c.number < block.number);
        copies.push(cache);
      }
    }
    return cache;
  }

  /** The copy a lagging subgraph serves with the head at `head`: the newest at least `lag` older. */
  function lagging(head: IndexCopy, lagSeconds: number): IndexCopy {
    let served = copies[0] ?? head;
    for (const c of copies) if (c.timestamp <= head.timestamp - lagSeconds) served = c;
    // Older copies than the one served are never served again.
    const at = copies.indexOf(served);
    if (at > 0) copies = copies.slice(at);
    return served;
  }

  async function poolsAtLatest(): Promise<{ pools: SubgraphPool[]; number: number; hash: string; timestamp: number }> {
    const c =
      options.frozenSubgraph && cache
        ? cache
        : lag !== undefined
          ? lagging(await copyAtLatest(), lag)
          : await copyAtLatest();
    return { pools: await c.pools, number: c.number, hash: c.hash, timestamp: c.timestamp };
  }

  let gaugeCache: { hash: string; entries: Promise<GaugePoolEntry[]> } | undefined;
  const gaugesAtLatest = async (): Promise<GaugePoolEntry[]> => {
    const block = await options.provider.getBlock('latest');
    if (!block?.hash) throw new Error('the chain returned no latest block');
    if (gaugeCache?.hash !== block.hash) {
      const hash = block.hash;
      const read = readGauges(options.provider).then((system) =>
        system ? readGaugeEntries(options.provider, system) : [],
      );
      gaugeCache = { hash, entries: read };
      read.catch(() => {
        if (gaugeCache?.hash === hash) gaugeCache = undefined;
      });
    }
    return gaugeCache.entries;
  };
  const gaugesRoot = gaugesRootValue(gaugesAtLatest);

  const v3Reader = new OnchainV3PoolReader(options.provider, options.devnet.v3.addresses);
  let v3Cache:
    { hash: string; number: number; rows: Promise<{ vault: SubgraphPool[]; types: SubgraphPool[] }> } | undefined;
  const v3AtLatest = async () => {
    const block = await options.provider.getBlock('latest');
    if (!block?.hash) throw new Error('the chain returned no latest block');
    if (v3Cache?.hash !== block.hash) {
      const hash = block.hash;
      const rows = v3Reader
        .readAll(block.number)
        .then((pools) => ({ vault: pools.map(toV3VaultPool), types: pools.map(toV3TypePool) }));
      v3Cache = { hash, number: block.number, rows };
      rows.catch(() => {
        if (v3Cache?.hash === hash) v3Cache = undefined;
      });
    }
    return { number: v3Cache.number, hash: v3Cache.hash, ...(await v3Cache.rows) };
  };
  const v3Meta = async () => {
    const at = await v3AtLatest();
    return { block: { number: at.number, hash: at.hash }, deployment: 'localdev-v3', hasIndexingErrors: false };
  };
  const v3VaultRoot = {
    pools: async (args: V3PoolsArgs) => selectV3Rows((await v3AtLatest()).vault, args),
    pool: async ({ id }: { id: string }) => (await v3AtLatest()).vault.find((p) => p.id === id.toLowerCase()) ?? null,
    _meta: v3Meta,
  };
  const v3PoolsRoot = {
    pools: async (args: V3PoolsArgs) => selectV3Rows((await v3AtLatest()).types, args),
    _meta: v3Meta,
  };

  const rootValue = {
    pools: async (args: PoolsArgs) => selectPools((await poolsAtLatest()).pools, args),
    pool: async ({ id }: { id: string }) =>
      (await poolsAtLatest()).pools.find((p) => p.id === id.toLowerCase()) ?? null,
    _meta: async () => {
      const s = await poolsAtLatest();
      return {
        block: { number: s.number, hash: s.hash, timestamp: s.timestamp },
        deployment: 'localdev',
        hasIndexingErrors: false,
      };
    },
  };

  const app = express();
  app.disable('x-powered-by');
  app.post(SUBGRAPH_PATH, express.json({ limit: '100kb' }), async (req: Request, res: Response) => {
    stats.subgraphRequests++;
    const body = req.body as { query?: unknown; variables?: unknown } | undefined;
    if (typeof body?.query !== 'string')
      return jsonError(res, 400, 'expected a JSON body {"query": "...", "variables": {...}}');
    const result = await graphql({
      schema: subgraphSchema(),
      source: body.query,
      rootValue,
      variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
    });
    res.json(result);
  });
  app.post(GAUGES_SUBGRAPH_PATH, express.json({ limit: '100kb' }), async (req: Request, res: Response) => {
    const body = req.body as { query?: unknown; variables?: unknown } | undefined;
    if (typeof body?.query !== 'string')
      return jsonError(res, 400, 'expected a JSON body {"query": "...", "variables": {...}}');
    res.json(
      await graphql({
        schema: gaugesSubgraphSchema(),
        source: body.query,
        rootValue: gaugesRoot,
        variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
      }),
    );
  });
  for (const [path, schema, rootValue] of [
    [V3_VAULT_SUBGRAPH_PATH, v3SubgraphSchemas().vault, v3VaultRoot],
    [V3_POOLS_SUBGRAPH_PATH, v3SubgraphSchemas().pools, v3PoolsRoot],
  ] as const)
    app.post(path, express.json({ limit: '100kb' }), async (req: Request, res: Response) => {
      const body = req.body as { query?: unknown; variables?: unknown } | undefined;
      if (typeof body?.query !== 'string')
        return jsonError(res, 400, 'expected a JSON body {"query": "...", "variables": {...}}');
      res.json(
        await graphql({
          schema,
          source: body.query,
          rootValue,
          variableValues: (body.variables ?? undefined) as Record<string, unknown> | undefined,
        }),
      );
    });
  app.get(`${PRICES_PATH}/simple/price`, (req: Request, res: Response) => {
    const ids = String(req.query.ids ?? '')
      .split(',')
      .filter((s) => s !== '');
    if (ids.length === 0 || req.query.vs_currencies !== 'usd')
      return jsonError(res, 400, 'expected ?ids=<coin ids>&vs_currencies=usd');
    res.json(
      Object.fromEntries(
        ids.filter((id) => COIN_PRICES_USD.has(id)).map((id) => [id, { usd: Number(COIN_PRICES_USD.get(id)) }]),
      ),
    );
  });
  app.get(`${PRICES_PATH}/simple/token_price/:platform`, (req: Request, res: Response) => {
    if (req.params.platform !== PRICE_PLATFORM)
      return jsonError(
        res,
        404,
        `unknown asset platform '${String(req.params.platform)}' (this devnet prices '${PRICE_PLATFORM}')`,
      );
    const addresses = String(req.query.contract_addresses ?? '')
      .toLowerCase()
      .split(',')
      .filter((s) => s !== '');
    if (addresses.length === 0 || req.query.vs_currencies !== 'usd')
      return jsonError(res, 400, 'expected ?contract_addresses=<addresses>&vs_currencies=usd');
    // Like CoinGecko, unknown addresses are simply absent. Prices are floats on the wire there too.
    res.json(
      Object.fromEntries(addresses.filter((a) => prices.has(a)).map((a) => [a, { usd: Number(prices.get(a)) }])),
    );
  });
  app.get(`${SANCTIONS_PATH}/api/v1/address/:address`, (req: Request, res: Response) => {
    const address = String(req.params.address).toLowerCase();
    const flagged = address === DEVNET_BLOCKED_ADDRESS;
    res.json({
      identifications: flagged
        ? [{ category: 'sanctions', name: 'Devnet demo list', description: 'flagged for the local demo', url: null }]
        : [],
    });
  });
  const simulatorError = (res: Response, message: string) =>
    res.status(400).json({ error: { slug: 'devnet_unsupported', message } });
  app.post(
    `${SIMULATOR_PATH}/api/v1/account/:user/project/:project/simulate`,
    express.json({ limit: '1mb' }),
    async (req: Request, res: Response) => {
      const b = (req.body ?? {}) as {
        from?: string;
        to?: string;
        input?: string;
        value?: string | number;
        gas?: string | number;
        state_objects?: Record<string, unknown>;
      };
      if (b.state_objects && Object.keys(b.state_objects).length > 0)
        return simulatorError(
          res,
          'the devnet simulator does not apply state_objects; simulate against the devnet state as it is',
        );
      if (!b.to) return simulatorError(res, 'to: missing');
      const tx = {
        from: b.from,
        to: b.to,
        data: b.input ?? '0x',
        value: b.value === undefined ? undefined : BigInt(b.value),
        gasLimit: b.gas === undefined ? undefined : BigInt(b.gas),
      };
      let status = true;
      let output: string;
      try {
        output = await options.provider.call(tx);
      } catch (e) {
        // A revert is a simulation result, not a failure of the simulator: report it with its data.
        const data = (e as { data?: unknown }).data;
        if (typeof data !== 'string')
          return simulatorError(res, `the devnet could not run the call: ${(e as Error).message}`);
        status = false;
        output = data;
      }
      res.json({ transaction: { status, transaction_info: { call_trace: { output } } }, simulation: { status } });
    },
  );
  app.post(
    `${SIMULATOR_PATH}/api/v1/account/:user/project/:project/contracts/encode-states`,
    (_req: Request, res: Response) => {
      simulatorError(res, 'the devnet simulator does not encode state overrides (a Tenderly feature)');
    },
  );
  app.use((_req: Request, res: Response) =>
    jsonError(res, 404, `not a devnet endpoint; try POST ${SUBGRAPH_PATH} or GET ${PRICES_PATH}/simple/price`),
  );

  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? 0, options.host ?? '127.0.0.1', (err?: Error) =>
      err ? reject(err) : resolve(s),
    );
  });
  const addr = server.address() as AddressInfo;
  const base = `http://${addr.address}:${addr.port}`;
  return {
    subgraphUrl: `${base}${SUBGRAPH_PATH}`,
    gaugesSubgraphUrl: `${base}${GAUGES_SUBGRAPH_PATH}`,
    v3VaultSubgraphUrl: `${base}${V3_VAULT_SUBGRAPH_PATH}`,
    v3PoolsSubgraphUrl: `${base}${V3_POOLS_SUBGRAPH_PATH}`,
    priceApiUrl: `${base}${PRICES_PATH}`,
    sanctionsApiUrl: `${base}${SANCTIONS_PATH}`,
    simulatorApiUrl: `${base}${SIMULATOR_PATH}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
