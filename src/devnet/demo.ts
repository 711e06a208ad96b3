import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Contract, MaxUint256 } from 'ethers';
import pino from 'pino';
import { ConfigError, loadConfig } from '../config/env';
import { decoratePools } from '../jobs/decoratePools';
import { JobAlreadyRunning } from '../jobs/exclusive';
import { updatePools } from '../jobs/updatePools';
import { updatePrices } from '../jobs/updatePrices';
import { createLogger } from '../log/logger';
import { createContext, RunningServer, startServer } from '../server';
import { traderAccounts } from './accounts';
import { demoBanner } from './demoBanner';
import { routedPairs, v2PairTokens, v3PairTokens } from './routedPairs';
import { DEVNET_CHAIN_ID } from './devnet';
import { ensureDevnet } from './ensure';
import { ensureGauges, gaugeGenesis } from './gauges';
import { lbpWeightUpdateInProgress, startLbpWeightUpdate } from './lbpWeightUpdate';
import { LocalChain, serveChain } from './localChain';
import { DEMO_LBP_WEIGHT_UPDATE } from './universe';
import { compileBalancerV3 } from './v3/compile';
import { DEVNET_BLOCKED_ADDRESS, DevnetUpstreams, startDevnetUpstreams } from './upstreams';

/**
 * `npm run demo`: the whole universe on one machine, offline. A hardhat chain served on
 * 127.0.0.1:8545 (wallets can connect) with the real Balancer V2 contracts, the pools of universe.ts and a gauge
 * system paying BAL and reward tokens to some of them (gauges.ts), the local subgraph, gauges
 * subgraph, price, sanctions and simulator endpoints, and the service on port 8090 with a throw-away
 * SQLite store and its embedded timers. Runs the first pool, price and decoration update, prints
 * where everything is and a curl command per endpoint, and stops cleanly on Ctrl-C / SIGTERM.
 *
 * Ports: PORT (8090), DEMO_RPC_PORT (8545), DEMO_UPSTREAMS_PORT (8000). DEBUG=1 shows the
 * service's logs at debug level (otherwise warnings only, on stderr).
 */
const HOST = '127.0.0.1';

function port(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new ConfigError(`${name}: expected a port number 0-65535, got '${raw}'`);
  return n;
}

function explainListenError(e: unknown, what: string, variable: string): Error {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'EADDRINUSE' || /EADDRINUSE|address already in use/i.test(String(err.message))) {
    return new Error(
      `${what}: the port is already in use (another demo or node running?); stop it or set ${variable} to a free port`,
    );
  }
  return err instanceof Error ? err : new Error(String(err));
}

/** The first run of a job; the embedded timer may be running the same job right now. */
async function runOnce(job: () => Promise<unknown>): Promise<void> {
  for (;;) {
    try {
      await job();
      return;
    } catch (e) {
      if (!(e instanceof JobAlreadyRunning)) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

async function approveVaultForTraders(chain: LocalChain, vault: string, tokens: readonly string[]): Promise<void> {
  for (const trader of traderAccounts(chain.provider)) {
    for (const token of tokens) {
      const c = new Contract(token, ['function approve(address spender, uint256 amount) returns (bool)'], trader);
      await (await c.getFunction('approve')(vault, MaxUint256)).wait();
    }
  }
}

async function main(): Promise<void> {
  const apiPort = port('PORT', 8090);
  const rpcPort = port('DEMO_RPC_PORT', 8545);
  const upstreamsPort = port('DEMO_UPSTREAMS_PORT', 8000);
  const debug = Boolean(process.env.DEBUG?.trim());
  const closers: (() => Promise<void>)[] = [];
  let stopping = false;

  const stop = async (code: number): Promise<never> => {
    if (!stopping) {
      stopping = true;
      for (const close of closers.reverse()) await close().catch(() => undefined);
    }
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    // Balancer V3 compiles in child processes (minutes the first time, then from the cache) before
    // the chain starts: chain time runs from genesis, and the gauges need it still before the week.
    const v3Contracts = await compileBalancerV3({ log: (line) => process.stdout.write(`${line}\n`) });
    process.stdout.write(`starting the local chain on ${HOST}:${rpcPort} ...\n`);
    // Started before the current week so the gauges' weights count at once (gauges.ts).
    const chain = await serveChain(HOST, rpcPort, {
      genesisSeconds: gaugeGenesis(Math.floor(Date.now() / 1000)),
    }).catch((e) => {
      throw explainListenError(e, `chain RPC on ${HOST}:${rpcPort}`, 'DEMO_RPC_PORT');
    });
    closers.push(() => chain.close());

    const { devnet, deployed } = await ensureDevnet(chain.provider, { v3: { contracts: v3Contracts } });
    const gauges = await ensureGauges(chain.provider, devnet);
    if (deployed)
      await approveVaultForTraders(
        chain,
        devnet.addresses.vault,
        devnet.tokens.map((t) => t.address),
      );
    process.stdout.write(
      `${deployed ? 'deployed' : 'found'} Balancer V2 with ${devnet.pools.length} pools, ${devnet.tokens.length} tokens and ${gauges.gauges.length} gauges, and Balancer V3 with ${devnet.v3.pools.length} pools and ${devnet.v3.buffers.length} buffers\n`,
    );
    // One LBP sells as LBPs do, its weights moving every second (a node reused through
    // LOCALFORK_URL keeps the update it already has).
    const moving = devnet.pools.find((p) => p.name === DEMO_LBP_WEIGHT_UPDATE.pool);
    if (moving && !(await lbpWeightUpdateInProgress(chain.provider, moving))) {
      const update = await startLbpWeightUpdate(chain.provider, devnet, DEMO_LBP_WEIGHT_UPDATE);
      process.stdout.write(
        `${moving.name} moves its weights until ${new Date(update.endTime * 1000).toISOString()} (chain time)\n`,
      );
    }

    const upstreams: DevnetUpstreams = await startDevnetUpstreams({
      provider: chain.provider,
      devnet,
      host: HOST,
      port: upstreamsPort,
    }).catch((e) => {
      throw explainListenError(e, `subgraph/price endpoints on ${HOST}:${upstreamsPort}`, 'DEMO_UPSTREAMS_PORT');
    });
    closers.push(() => upstreams.close());

    const dataDir = mkdtempSync(join(tmpdir(), 'balancer-demo-'));
    closers.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const config = loadConfig({
      NETWORKS: String(DEVNET_CHAIN_ID),
      PORT: String(apiPort),
      DATA_DIR: dataDir,
      STORE: 'sqlite',
      [`SUBGRAPH_URL_${DEVNET_CHAIN_ID}`]: upstreams.subgraphUrl,
      [`GAUGES_SUBGRAPH_URL_${DEVNET_CHAIN_ID}`]: upstreams.gaugesSubgraphUrl,
      // The V3 catalogue: the devnet's V3 Vault's pools, read from the chain (upstreams.ts).
      [`SUBGRAPH_V3_URL_${DEVNET_CHAIN_ID}`]: upstreams.v3VaultSubgraphUrl,
      [`SUBGRAPH_V3_POOLS_URL_${DEVNET_CHAIN_ID}`]: upstreams.v3PoolsSubgraphUrl,
      // Hardhat serves JSON-RPC over WebSocket on the same port: the follower subscribes to new
      // heads there and reads over HTTP (config/env.ts).
      [`RPC_URL_${DEVNET_CHAIN_ID}`]: chain.rpcUrl!.replace(/^http/, 'ws'),
      PRICE_API_URL: upstreams.priceApiUrl,
      // The gate paces CoinGecko's free tier; the demo's price endpoint is local and has none.
      PRICE_REQUESTS_PER_MINUTE: '600000',
      SANCTIONS_PROVIDER: 'chainalysis',
      SANCTIONS_API_URL: upstreams.sanctionsApiUrl,
      SANCTIONS_API_KEY: 'devnet',
      SIMULATOR_API_URL: upstreams.simulatorApiUrl,
      SIMULATOR_USER: 'devnet',
      SIMULATOR_PROJECT: 'devnet',
      SIMULATOR_ACCESS_KEY: 'devnet',
      // The API follows the chain's head through RPC_URL_31337: a trade is in GET /pools and in
      // quotes as its block lands; the timer polls only while the subscription is down. The pool
      // update (the catalogue: new pools) runs every minute.
      FOLLOW_INTERVAL_MS: '250',
      UPDATE_POOLS_INTERVAL_IN_MINUTES: '1',
      DECORATE_POOLS_INTERVAL_IN_MINUTES: '1',
      ...(debug ? { DEBUG: '1' } : {}),
    });
    const logger = createLogger({ debug, level: debug ? 'debug' : 'warn', destination: pino.destination(2) });
    const ctx = await createContext(config, { logger });
    let running: RunningServer;
    try {
      running = await startServer(ctx, apiPort, { host: HOST, background: true });
    } catch (e) {
      await ctx.store.close().catch(() => undefined);
      throw explainListenError(e, `the API on ${HOST}:${apiPort}`, 'PORT');
    }
    closers.push(() => running.close());

    await runOnce(() => updatePools(ctx, DEVNET_CHAIN_ID));
    // How many pairs route, counted while the prices and decorations load (quotes need neither);
    // the V3 pools route once the follower has read them at the head.
    const routing = v3Followed(running.url, devnet.v3.pools.length).then(() =>
      Promise.all([
        routedPairs(running.url, DEVNET_CHAIN_ID, 2, v2PairTokens(devnet)),
        routedPairs(running.url, DEVNET_CHAIN_ID, 3, v3PairTokens(devnet)),
      ]),
    );
    // Awaited below; a failure before then must not surface as an unhandled rejection too.
    routing.catch(() => undefined);
    await runOnce(() => updatePrices(ctx));
    await runOnce(() => decoratePools(ctx, DEVNET_CHAIN_ID));
    const traders = traderAccounts().map((w) => ({ address: w.address, privateKey: w.privateKey }));
    process.stdout.write(
      demoBanner({
        apiUrl: running.url,
        rpcUrl: chain.rpcUrl!,
        subgraphUrl: upstreams.subgraphUrl,
        priceApiUrl: upstreams.priceApiUrl,
        sanctionsApiUrl: upstreams.sanctionsApiUrl,
        simulatorApiUrl: upstreams.simulatorApiUrl,
        dataDir,
        devnet,
        traders,
        blockedAddress: DEVNET_BLOCKED_ADDRESS,
        routing: await routing,
      }),
    );
  } catch (e) {
    const message =
      e instanceof ConfigError
        ? `configuration error: ${e.message}`
        : `demo failed: ${(e as Error).stack ?? String(e)}`;
    process.stderr.write(`${message}\n`);
    await stop(1);
  }
}

/** Waits (up to 30 s) until `/pools` serves `count` V3 pools with the chain state the follower read. */
async function v3Followed(apiUrl: string, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const res = await fetch(`${apiUrl}/pools/${DEVNET_CHAIN_ID}`);
    const pools = (await res.json()) as { protocolVersion?: number; v3?: { lastLiveBalances: unknown } }[];
    if (pools.filter((p) => p.protocolVersion === 3 && p.v3?.lastLiveBalances).length >= count) return;
    await new Promise((r) => setTimeout(r, 200));
  }
}

void main();
