import { ConfigError, loadConfig, parseNetworks } from '../../src/config/env';

describe('configuration', () => {
  test('defaults are the old API defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8090);
    expect(c.chains.map((x) => x.id)).toEqual([1, 137, 42161]);
    expect(c.updatePoolsIntervalMinutes).toBe(5);
    expect(c.decoratePoolsIntervalMinutes).toBe(5);
    expect(c.store).toBe('sqlite');
    expect(c.dataDir).toBe('./data');
    expect(c.jobRunner).toBe('timers');
    expect(c.debug).toBe(false);
    expect(c.subgraphUrls.get(1)).toMatch(/^https:\/\//);
    // Job deadlines below the scheduler's attempt deadlines (infra/scheduler.ts).
    expect(c.updatePoolsDeadlineSeconds).toBe(60);
    expect(c.prices).toMatchObject({ timeoutMs: 10_000, runDeadlineSeconds: 90 });
  });

  test('NETWORKS takes ids and names, tolerates spaces and drops duplicates', () => {
    expect(parseNetworks(' mainnet, 137 ,ARBITRUM,1, polygon ').map((c) => c.id)).toEqual([1, 137, 42161]);
    expect(parseNetworks('gnosis,base,zkevm,avalanche,fraxtal,mode,sepolia,optimism').map((c) => c.id)).toEqual([
      100, 8453, 1101, 43114, 252, 34443, 11155111, 10,
    ]);
  });

  test('an unknown chain stops start-up with one line naming the known chains', () => {
    expect(() => loadConfig({ NETWORKS: '1,foo' })).toThrow(ConfigError);
    expect(() => loadConfig({ NETWORKS: '1,foo' })).toThrow(
      /^NETWORKS: unknown chain 'foo' \(known: mainnet=1, optimism=10, .*polygon=137/,
    );
    expect(() => loadConfig({ NETWORKS: ' , ' })).toThrow(/^NETWORKS: no chain given/);
  });

  test.each([
    ['PORT', 'abc', /^PORT: expected a whole number/],
    ['PORT', '70000', /^PORT: expected a whole number from 0 to 65535/],
    ['STORE', 'postgres', /^STORE: expected one of sqlite, firestore/],
    ['UPDATE_POOLS_INTERVAL_IN_MINUTES', '-1', /^UPDATE_POOLS_INTERVAL_IN_MINUTES: expected a number >= 0/],
    ['DATABASE_POOLS_WRITE_CAPACITY', '0', /^DATABASE_POOLS_WRITE_CAPACITY: expected a whole number from 1/],
    ['SUBGRAPH_URL_1', 'not a url', /^SUBGRAPH_URL_1: expected an http\(s\) or ws\(s\) URL/],
    ['SUBGRAPH_URL_10', 'http://127.0.0.1:1/x', /^SUBGRAPH_URL_10: chain 10 is not in NETWORKS/],
    ['RPC_URL_999', 'http://127.0.0.1:1', /^RPC_URL_999: unknown chain id 999/],
    ['GAUGES_SUBGRAPH_URL_10', 'http://127.0.0.1:1/g', /^GAUGES_SUBGRAPH_URL_10: chain 10 is not in NETWORKS/],
    ['GAUGES_SUBGRAPH_URL_1', 'gauges', /^GAUGES_SUBGRAPH_URL_1: expected an http\(s\) or ws\(s\) URL/],
    ['JOB_RUNNER', 'cron', /^JOB_RUNNER: expected one of timers, scheduler/],
    ['BATCH_RELAYER_1', '0x1234', /^BATCH_RELAYER_1: expected a 0x-prefixed 20-byte address, or none/],
    ['BATCH_RELAYER_10', 'none', /^BATCH_RELAYER_10: chain 10 is not in NETWORKS/],
    [
      'SIMULATOR_ALLOWED_CONTRACTS',
      '0xba12222222228d8ba445958a75a0704d566bf2c8,vault',
      /^SIMULATOR_ALLOWED_CONTRACTS: 'vault' is not an address/,
    ],
    ['UPDATE_POOLS_DEADLINE_SECONDS', '0', /^UPDATE_POOLS_DEADLINE_SECONDS: expected a whole number from 1 to 1800/],
    ['PRICE_RUN_DEADLINE_SECONDS', '1h', /^PRICE_RUN_DEADLINE_SECONDS: expected a whole number/],
    [
      'DECORATE_POOLS_DEADLINE_SECONDS',
      '1801',
      /^DECORATE_POOLS_DEADLINE_SECONDS: expected a whole number from 1 to 1800/,
    ],
    ['SIMULATOR_SAVE', 'sometimes', /^SIMULATOR_SAVE: expected true or false/],
    ['FOLLOW_RECHECK_CALLS_PER_SECOND', '-1', /^FOLLOW_RECHECK_CALLS_PER_SECOND: expected a number from 0 to 1000/],
    ['FOLLOW_RECHECK_CALLS_PER_SECOND', '5000', /^FOLLOW_RECHECK_CALLS_PER_SECOND: expected a number from 0 to 1000/],
    ['FOLLOW_RECHECK_CALLS_PER_SECOND', 'fast', /^FOLLOW_RECHECK_CALLS_PER_SECOND: expected a number from 0 to 1000/],
    [
      'FOLLOW_RECHECK_CALLS_PER_BLOCK',
      '20',
      /^FOLLOW_RECHECK_CALLS_PER_BLOCK: replaced by FOLLOW_RECHECK_CALLS_PER_SECOND/,
    ],
    [
      'TRUST_PROXY',
      'yes',
      /^TRUST_PROXY: expected a number of proxy hops or a comma-separated list of addresses or CIDR ranges, got 'yes'/,
    ],
    ['TRUST_PROXY', '10.0.0.0/33', /^TRUST_PROXY: '10.0.0.0\/33' is not an address or CIDR range/],
  ])('%s=%s is refused with a clear message', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  test('the slow re-read of followed pools: 2 calls a second by default, fractions allowed, 0 turns it off', () => {
    expect(loadConfig({}).follow.recheckCallsPerSecond).toBe(2);
    expect(loadConfig({ FOLLOW_RECHECK_CALLS_PER_SECOND: '0.5' }).follow.recheckCallsPerSecond).toBe(0.5);
    expect(loadConfig({ FOLLOW_RECHECK_CALLS_PER_SECOND: '0' }).follow.recheckCallsPerSecond).toBe(0);
  });

  test('HTTP timeouts: 30 s for a whole request and 10 s for its headers by default, never above the request timeout', () => {
    expect(loadConfig({}).http).toEqual({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000 });
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '5' }).http).toEqual({
      requestTimeoutMs: 5_000,
      headersTimeoutMs: 5_000,
    });
    expect(loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '0.5', HTTP_HEADERS_TIMEOUT_SECONDS: '0.25' }).http).toEqual({
      requestTimeoutMs: 500,
      headersTimeoutMs: 250,
    });
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '0' })).toThrow(
      /^HTTP_REQUEST_TIMEOUT_SECONDS: expected a number >= 0.1, got '0'/,
    );
    expect(() => loadConfig({ HTTP_REQUEST_TIMEOUT_SECONDS: '10', HTTP_HEADERS_TIMEOUT_SECONDS: '20' })).toThrow(
      /^HTTP_HEADERS_TIMEOUT_SECONDS: must not exceed HTTP_REQUEST_TIMEOUT_SECONDS \(10\)/,
    );
  });

  test('TRUST_PROXY: off by default, a hop count, or proxy address ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: ' 35.191.0.0/16, 130.211.0.0/22 ,::1, loopback' }).trustProxy).toEqual([
      '35.191.0.0/16',
      '130.211.0.0/22',
      '::1',
      'loopback',
    ]);
  });

  test('per-chain overrides, Infura URL from NODEPROVIDER_PROJECT_ID, budgets', () => {
    const c = loadConfig({
      NETWORKS: '1,137',
      SUBGRAPH_URL_137: 'http://127.0.0.1:9999/subgraph/',
      RPC_URL_1: 'http://127.0.0.1:8545',
      NODEPROVIDER_PROJECT_ID: 'abc123',
      DATABASE_POOLS_READ_CAPACITY: '50',
      DATABASE_AUTOSCALE_MAX_MULTIPLIER: '3',
      DEBUG: 'balancer:*',
    });
    expect(c.subgraphUrls.get(137)).toBe('http://127.0.0.1:9999/subgraph');
    expect(c.rpcUrls.get(1)).toBe('http://127.0.0.1:8545');
    expect(c.rpcUrls.get(137)).toBe('https://polygon-mainnet.infura.io/v3/abc123');
    expect(c.database.pools.readsPerSecond).toBe(50);
    expect(c.database.autoscaleMaxMultiplier).toBe(3);
    expect(c.debug).toBe(true);
  });

  test('a WebSocket RPC URL is subscribed to there and read over HTTP(S) at the same address', () => {
    const c = loadConfig({
      NETWORKS: '1,137,42161',
      RPC_URL_1: 'wss://eth.example.org/v2/key',
      RPC_URL_137: 'ws://127.0.0.1:8545',
      RPC_URL_42161: 'https://arb.example.org',
    });
    expect(c.rpcSocketUrls.get(1)).toBe('wss://eth.example.org/v2/key');
    expect(c.rpcUrls.get(1)).toBe('https://eth.example.org/v2/key');
    expect(c.rpcSocketUrls.get(137)).toBe('ws://127.0.0.1:8545');
    expect(c.rpcUrls.get(137)).toBe('http://127.0.0.1:8545');
    expect(c.rpcSocketUrls.has(42161)).toBe(false);
    expect(c.rpcUrls.get(42161)).toBe('https://arb.example.org');
  });

  test('how long answers wait for the head, and the lag limits', () => {
    expect(loadConfig({}).follow).toMatchObject({ waitMs: 3000, maxLagBlocks: 10, maxLagSeconds: 30 });
    const c = loadConfig({ FOLLOW_WAIT_MS: '0', FOLLOW_MAX_LAG_BLOCKS: '3', FOLLOW_MAX_LAG_SECONDS: '12' });
    expect(c.follow).toMatchObject({ waitMs: 0, maxLagBlocks: 3, maxLagSeconds: 12 });
    expect(() => loadConfig({ FOLLOW_WAIT_MS: '90000' })).toThrow(
      /^FOLLOW_WAIT_MS: expected a whole number from 0 to 60000/,
    );
    expect(() => loadConfig({ FOLLOW_MAX_LAG_BLOCKS: '0' })).toThrow(
      /^FOLLOW_MAX_LAG_BLOCKS: expected a whole number from 1/,
    );
  });

  test('each quote thread heap is capped by chains (ROUTER_THREAD_HEAP_MB), 0 leaves V8 its own limit', () => {
    expect(loadConfig({ NETWORKS: '1' }).routing.threadHeapMb).toBe(160);
    expect(loadConfig({ NETWORKS: '1,137,42161' }).routing.threadHeapMb).toBe(288);
    expect(loadConfig({ ROUTER_THREAD_HEAP_MB: '512' }).routing.threadHeapMb).toBe(512);
    expect(loadConfig({ ROUTER_THREAD_HEAP_MB: '0' }).routing.threadHeapMb).toBe(0);
    expect(() => loadConfig({ ROUTER_THREAD_HEAP_MB: '32' })).toThrow(
      /^ROUTER_THREAD_HEAP_MB: expected 0 \(V8's own limit\) or at least 64 MiB per quote thread, got '32'/,
    );
  });

  test('the batch relayer per chain: the chain default, an override, or none (no join/exit routes)', () => {
    const c = loadConfig({
      NETWORKS: '1,137,42161',
      BATCH_RELAYER_137: 'none',
      BATCH_RELAYER_42161: '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01',
    });
    expect(c.routing.batchRelayers.get(1)).toBe('0x35cea9e57a393ac66aaa7e25c391d52c74b5648f');
    expect(c.routing.batchRelayers.get(137)).toBeNull();
    expect(c.routing.batchRelayers.get(42161)).toBe('0xabcdef0123456789abcdef0123456789abcdef01');
  });

  test('gauges subgraph per chain: the chain default or GAUGES_SUBGRAPH_URL_<id>; none for chains without gauges', () => {
    const c = loadConfig({ NETWORKS: '1,137,sepolia', GAUGES_SUBGRAPH_URL_137: 'http://127.0.0.1:9999/gauges/' });
    expect(c.gaugesSubgraphUrls.get(1)).toBe(
      'https://api.studio.thegraph.com/query/75376/balancer-gauges/version/latest',
    );
    expect(c.gaugesSubgraphUrls.get(137)).toBe('http://127.0.0.1:9999/gauges');
    expect(c.gaugesSubgraphUrls.has(11155111)).toBe(false);
    expect(() => loadConfig({ NETWORKS: 'sepolia', GAUGES_SUBGRAPH_URL_11155111: 'http://127.0.0.1:1/g' })).toThrow(
      /^GAUGES_SUBGRAPH_URL_11155111: chain 11155111 has no gauges/,
    );
  });

  test('what Cloud Run says about the deployment (K_SERVICE, K_REVISION) comes through the configuration', () => {
    expect(loadConfig({}).deployment).toEqual({ service: undefined, revision: undefined });
    expect(loadConfig({ K_SERVICE: 'pools-api', K_REVISION: 'pools-api-00042' }).deployment).toEqual({
      service: 'pools-api',
      revision: 'pools-api-00042',
    });
  });
});
