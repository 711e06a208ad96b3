import { join } from 'node:path';
import { BrowserProvider, Eip1193Provider, JsonRpcApiProvider, JsonRpcProvider, Network } from 'ethers';
import { DEVNET_CHAIN_ID } from './devnet';

/**
 * The EVM the devnet runs on: hardhat's EDR in this process (tests), the same served over JSON-RPC
 * on a loopback port (the demo, so wallets can connect), or any node already running at a URL.
 */
export interface LocalChain {
  readonly provider: JsonRpcApiProvider;
  /** JSON-RPC URL others (wallets, a second process) can use; undefined for an in-process chain. */
  readonly rpcUrl: string | undefined;
  /** Saves the chain state; `revert` returns to it (evm_snapshot / evm_revert). */
  snapshot(): Promise<string>;
  revert(snapshotId: string): Promise<void>;
  close(): Promise<void>;
}

interface HardhatServer {
  listen(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}

interface HardhatRuntime {
  network: { provider: Eip1193Provider };
  run(task: string, args: Record<string, unknown>): Promise<unknown>;
}

export interface ChainStartOptions {
  /**
   * Unix seconds of the genesis block (default: now). Hardhat reads its config once per process
   * (per module registry under jest), so only the first chain started there can set it.
   */
  readonly genesisSeconds?: number;
}

function loadHardhat(options: ChainStartOptions = {}): HardhatRuntime {
  process.env.HARDHAT_DISABLE_TELEMETRY_PROMPT = 'true';
  // The config sits beside this module; name it so the working directory does not matter.
  process.env.HARDHAT_CONFIG ??= join(__dirname, 'hardhat.config.js');
  if (options.genesisSeconds === undefined) return require('hardhat') as HardhatRuntime;
  process.env.DEVNET_GENESIS_DATE = new Date(options.genesisSeconds * 1000).toISOString();
  try {
    return require('hardhat') as HardhatRuntime;
  } finally {
    // Read by the config on load; it must not reach chains started later in this process.
    delete process.env.DEVNET_GENESIS_DATE;
  }
}

const devnetNetwork = Network.from(DEVNET_CHAIN_ID);

/**
 * The chain in this process cannot change its id, so ethers need not ask it before every call:
 * without `staticNetwork` it does, 5 times a transaction (1,388 of the 3,299 calls of a deploy).
 */
const IN_PROCESS_OPTIONS = { pollingInterval: 50, cacheTimeout: -1, staticNetwork: devnetNetwork } as const;

function withControls(
  provider: JsonRpcApiProvider,
  rpcUrl: string | undefined,
  close: () => Promise<void>,
): LocalChain {
  return {
    provider,
    rpcUrl,
    snapshot: async () => String(await provider.send('evm_snapshot', [])),
    revert: async (snapshotId) => {
      const ok = (await provider.send('evm_revert', [snapshotId])) as boolean;
      if (!ok) throw new Error(`evm_revert(${snapshotId}) failed: snapshots are single-use`);
    },
    close,
  };
}

/** Hardhat's EVM inside this process: no port, about half a second to start. */
export function startInProcessChain(options: ChainStartOptions = {}): LocalChain {
  const hre = loadHardhat(options);
  const provider = new BrowserProvider(hre.network.provider, devnetNetwork, IN_PROCESS_OPTIONS);
  return withControls(provider, undefined, async () => provider.destroy());
}

/** Hardhat's EVM in this process, served as JSON-RPC on host:port (what `hardhat node` does). */
export async function serveChain(host: string, port: number, options: ChainStartOptions = {}): Promise<LocalChain> {
  const hre = loadHardhat(options);
  const server = (await hre.run('node:create-server', {
    hostname: host,
    port,
    provider: hre.network.provider,
  })) as HardhatServer;
  const bound = await server.listen();
  const rpcUrl = `http://${bound.address}:${bound.port}`;
  const provider = new BrowserProvider(hre.network.provider, devnetNetwork, IN_PROCESS_OPTIONS);
  return withControls(provider, rpcUrl, async () => {
    provider.destroy();
    await server.close();
  });
}

/** Asks a node its chain id once, with a deadline (ethers would retry an unreachable URL forever). */
async function chainIdAt(rpcUrl: string, timeoutMs: number): Promise<number> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await res.json()) as { result?: unknown };
  if (typeof body.result !== 'string') throw new Error(`${rpcUrl} answered eth_chainId without a result`);
  return Number(BigInt(body.result));
}

/** A node somebody else runs (LOCALFORK_URL / RPC_URL). */
export async function connectChain(rpcUrl: string, timeoutMs = 5_000): Promise<LocalChain> {
  const chainId = await chainIdAt(rpcUrl, timeoutMs);
  // No batching: every call is answered at once over loopback, and batching only adds a stall.
  const provider = new JsonRpcProvider(rpcUrl, undefined, {
    staticNetwork: Network.from(chainId),
    batchMaxCount: 1,
    pollingInterval: 50,
    cacheTimeout: -1,
  });
  return withControls(provider, rpcUrl, async () => provider.destroy());
}
