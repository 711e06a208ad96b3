import type { Store } from '../../src/store/Store';
import { FakeSubgraph } from '../fakes/subgraphServer';
import { startTestServer, TestServer } from '../helpers/testServer';

/**
 * The app wired to a local fake subgraph for chain 1, plus a way to capture everything the store
 * holds for the chain so a test can show that a failed update changed nothing.
 */
export interface Harness {
  readonly fake: FakeSubgraph;
  readonly server: TestServer;
  /** POST /pools/1/update (or another chain path) with fetch; status and raw body text. */
  update(chainPath?: string): Promise<{ status: number; text: string; json: unknown; retryAfter: string | null }>;
  getJson(path: string): Promise<{ status: number; body: unknown }>;
  close(): Promise<void>;
}

export async function startHarness(
  pools: readonly unknown[],
  env: Record<string, string> = {},
  options: { now?: () => number; honourTotalSharesFilter?: boolean; indexesBlocks?: boolean } = {},
): Promise<Harness> {
  const fake = await FakeSubgraph.start(pools, {
    honourTotalSharesFilter: options.honourTotalSharesFilter,
    indexesBlocks: options.indexesBlocks,
  });
  const server = await startTestServer({ NETWORKS: '1', SUBGRAPH_URL_1: fake.url, ...env }, { now: options.now });
  return {
    fake,
    server,
    async update(chainPath = '1') {
      const res = await fetch(`${server.url}/pools/${chainPath}/update`, { method: 'POST' });
      const text = await res.text();
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, text, json, retryAfter: res.headers.get('retry-after') };
    },
    async getJson(path: string) {
      const res = await fetch(`${server.url}${path}`);
      return { status: res.status, body: await res.json() };
    },
    async close() {
      await server.close();
      await fake.close();
    },
  };
}

/** Everything stored for a chain, serialized: equal strings mean the store did not change. */
export async function storeState(store: Store, chainId = 1): Promise<string> {
  const [meta, pools, tokens, history] = await Promise.all([
    store.getMeta(chainId),
    store.listPools(chainId),
    store.listTokens(chainId),
    store.readHistory(chainId, { from: 0, to: Number.MAX_SAFE_INTEGER }),
  ]);
  return JSON.stringify({ meta, pools, tokens, history });
}

export interface ViewPool {
  readonly id: string;
  readonly routable: boolean;
  readonly tokens: { readonly address: string; readonly balance: string; readonly symbol: string | null }[];
}
