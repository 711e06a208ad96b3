import { devAccount } from '../../../src/devnet/accounts';
import { Devnet, DEVNET_CHAIN_ID } from '../../../src/devnet/devnet';
import { ensureDevnet } from '../../../src/devnet/ensure';
import { connectChain, LocalChain, serveChain, startInProcessChain } from '../../../src/devnet/localChain';
import { DevnetUpstreams, startDevnetUpstreams } from '../../../src/devnet/upstreams';
import { startTestServer, TestServer } from '../../helpers/testServer';

/**
 * Everything the end-to-end suite talks to, honouring the old end-to-end settings:
 * - `LOCALFORK_URL`: a running node (e.g. `npm run demo`'s 127.0.0.1:8545) instead of an
 *   in-process hardhat; `RPC_URL` is used the same way when it answers chain id 31337 (a mainnet
 *   RPC_URL in a developer's shell is ignored, with a note).
 * - `ENDPOINT_URL`: an already running API (configured for chain 31337 against the same node)
 *   instead of starting one in-process.
 * - `ROUTER_ENGINE` (and `ROUTER_WORKERS`) reach the in-process API, so `ROUTER_ENGINE=sor` runs
 *   the suite against the fallback router.
 * The devnet is deployed when the node is fresh and read back when it already holds it.
 */
export interface E2eEnvironment {
  readonly chain: LocalChain;
  readonly devnet: Devnet;
  readonly apiUrl: string;
  /** The devnet subgraph the in-process API reads (undefined with ENDPOINT_URL). */
  readonly subgraphUrl?: string;
  /** How the pieces were provided, for the suite's summary line. */
  readonly description: string;
  close(): Promise<void>;
}

export interface E2eOptions {
  /**
   * Serve the in-process chain on a loopback port so the API gets RPC_URL_31337 (stETH routes read
   * Lido's ratio through the node). A node from LOCALFORK_URL / RPC_URL has its URL anyway.
   */
  readonly rpc?: boolean;
  /**
   * Start the API's background work, so it follows the chain's head through its RPC URL (every
   * 250 ms). Suites that rewind the chain between cases (evm_revert) leave it off: a rewind is a
   * reorg made faster than any poll, so they turn following off (FOLLOW_HEAD=off) and index
   * through POST /pools/31337/update as before.
   */
  readonly follow?: boolean;
  /**
   * With `follow`: give the API the node's WebSocket URL (hardhat serves one on its HTTP port), so
   * the follower subscribes to new heads as the demo's does, polling only while that is down.
   */
  readonly subscribe?: boolean;
  /** Serve a subgraph frozen at its first answer (a subgraph that stopped indexing). */
  readonly frozenSubgraph?: boolean;
  /** Serve a subgraph this many seconds of chain time behind the head (upstreams.ts `subgraphLagSeconds`). */
  readonly subgraphLagSeconds?: number;
  /**
   * With `follow`: the catalogue update from the subgraph runs every this many seconds (the
   * embedded timer), so a lagging subgraph's old values keep reaching the store.
   */
  readonly poolUpdateSeconds?: number;
  /**
   * With `rpc`: the URL the API is given instead of the node's (a proxy in front of it, started
   * here with the node's URL and closed with the environment).
   */
  readonly rpcThrough?: (nodeUrl: string) => Promise<{ readonly url: string; close(): Promise<void> }>;
  /**
   * Give the API the devnet's V3 catalogue (SUBGRAPH_V3_URL_31337 and its pools subgraph), as the
   * demo does: V3 pools are quoted and `/order` without protocolVersion picks the better Vault.
   * Off by default, so the V2 suites keep their V2 answers.
   */
  readonly v3?: boolean;
}

async function pickChain(options: E2eOptions = {}): Promise<{ chain: LocalChain; how: string }> {
  const fork = process.env.LOCALFORK_URL?.trim();
  if (fork) {
    const chain = await connectChain(fork);
    const id = Number((await chain.provider.getNetwork()).chainId);
    if (id !== DEVNET_CHAIN_ID) {
      await chain.close();
      throw new Error(
        `LOCALFORK_URL ${fork} is chain ${id}; the end-to-end suite needs the local devnet chain ${DEVNET_CHAIN_ID} (e.g. npm run demo's node)`,
      );
    }
    return { chain, how: `node at LOCALFORK_URL ${fork}` };
  }
  const rpc = process.env.RPC_URL?.trim();
  if (rpc) {
    const chain = await connectChain(rpc).catch(() => undefined);
    const id = chain ? Number((await chain.provider.getNetwork()).chainId) : undefined;
    if (chain && id === DEVNET_CHAIN_ID) return { chain, how: `node at RPC_URL ${rpc}` };
    await chain?.close();
    process.stdout.write(
      `e2e: RPC_URL ${rpc} is not a chain ${DEVNET_CHAIN_ID} node; using an in-process hardhat chain instead\n`,
    );
  }
  if (options.rpc) {
    const chain = await serveChain('127.0.0.1', 0);
    return { chain, how: `in-process hardhat served at ${chain.rpcUrl}` };
  }
  return { chain: startInProcessChain(), how: 'in-process hardhat' };
}

function routerSettings(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['ROUTER_ENGINE', 'ROUTER_WORKERS']) {
    const value = process.env[name]?.trim();
    if (value) out[name] = value;
  }
  return out;
}

export async function startE2eEnvironment(options: E2eOptions = {}): Promise<E2eEnvironment> {
  const { chain, how } = await pickChain(options);
  const closers: (() => Promise<void>)[] = [() => chain.close()];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  try {
    const { devnet, deployed } = await ensureDevnet(chain.provider);
    const endpoint = process.env.ENDPOINT_URL?.trim().replace(/\/+$/, '');
    if (endpoint) {
      return {
        chain,
        devnet,
        apiUrl: endpoint,
        description: `${how} (devnet ${deployed ? 'deployed' : 'reused'}), API at ENDPOINT_URL ${endpoint}`,
        close,
      };
    }
    const upstreams: DevnetUpstreams = await startDevnetUpstreams({
      provider: chain.provider,
      devnet,
      frozenSubgraph: options.frozenSubgraph === true,
      subgraphLagSeconds: options.subgraphLagSeconds,
    });
    closers.push(() => upstreams.close());
    const follow = options.follow === true;
    let rpcUrl = chain.rpcUrl;
    if (rpcUrl && options.rpcThrough) {
      const through = await options.rpcThrough(rpcUrl);
      closers.push(() => through.close());
      rpcUrl = through.url;
    }
    const api: TestServer = await startTestServer(
      {
        NETWORKS: String(DEVNET_CHAIN_ID),
        [`SUBGRAPH_URL_${DEVNET_CHAIN_ID}`]: upstreams.subgraphUrl,
        [`GAUGES_SUBGRAPH_URL_${DEVNET_CHAIN_ID}`]: upstreams.gaugesSubgraphUrl,
        ...(options.v3
          ? {
              [`SUBGRAPH_V3_URL_${DEVNET_CHAIN_ID}`]: upstreams.v3VaultSubgraphUrl,
              [`SUBGRAPH_V3_POOLS_URL_${DEVNET_CHAIN_ID}`]: upstreams.v3PoolsSubgraphUrl,
            }
          : {}),
        PRICE_API_URL: upstreams.priceApiUrl,
        // The fake price API has no rate limit: the default gate (25 a minute) only made each
        // price update wait 2.4 s a request.
        PRICE_REQUESTS_PER_MINUTE: '600000',
        ...routerSettings(),
        ...(rpcUrl
          ? {
              // A proxy (rpcThrough) speaks HTTP only: subscribing suites reach the node itself.
              [`RPC_URL_${DEVNET_CHAIN_ID}`]:
                follow && options.subscribe ? chain.rpcUrl!.replace(/^http/, 'ws') : rpcUrl,
            }
          : {}),
        ...(follow ? { FOLLOW_INTERVAL_MS: '250' } : { FOLLOW_HEAD: 'off' }),
        ...(follow && options.poolUpdateSeconds !== undefined
          ? { UPDATE_POOLS_INTERVAL_IN_MINUTES: String(options.poolUpdateSeconds / 60) }
          : {}),
      },
      { background: follow },
    );
    closers.push(() => api.close());
    const engine = routerSettings().ROUTER_ENGINE;
    return {
      chain,
      devnet,
      apiUrl: api.url,
      subgraphUrl: upstreams.subgraphUrl,
      description: `${how} (devnet ${deployed ? 'deployed' : 'reused'}), in-process API${engine ? ` (ROUTER_ENGINE=${engine})` : ''}`,
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Trader accounts funded by the deployment (see universe.ts TRADER_FUNDS). */
export function trader(env: E2eEnvironment, n: 1 | 2 | 3 | 4) {
  return devAccount(n, env.chain.provider);
}
