import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { z } from 'zod';
import { isAddress, parseAddress, type Address } from '../domain/address';
import { CHAINS, ChainInfo, describeKnownChains, resolveChain } from './chains';

/**
 * Process configuration, parsed once at start-up from the environment. Every variable of the old
 * API keeps its name and default; a bad value stops the process with one line that names the
 * variable and the fix (`ConfigError`).
 */
export class ConfigError extends Error {
  override readonly name: string = 'ConfigError';
}

/** Balancer V2's protocol swap fee percentage on every chain since 2023 (50 %). */
export const DEFAULT_PROTOCOL_SWAP_FEE = 0.5;

export type StoreKind = 'sqlite' | 'firestore';
export type JobRunner = 'timers' | 'scheduler';
export type SanctionsProviderKind = 'chainalysis' | 'trm';

export interface RateBudget {
  readonly readsPerSecond: number;
  readonly writesPerSecond: number;
}

export interface Config {
  readonly port: number;
  /**
   * The instance's memory in MiB (`MEMORY_LIMIT_MIB`): a start whose chains and pools need more
   * fails (`config/memoryNeed.ts`). Unset: the container's cgroup limit; 0: no check.
   */
  readonly memoryLimitMib: number | undefined;
  readonly debug: boolean;
  /** Enabled chains in the order given by `NETWORKS`. */
  readonly chains: readonly ChainInfo[];
  readonly store: StoreKind;
  readonly dataDir: string;
  readonly googleCloudProject: string | undefined;
  readonly firestoreEmulatorHost: string | undefined;
  readonly updatePoolsIntervalMinutes: number;
  readonly decoratePoolsIntervalMinutes: number;
  readonly jobRunner: JobRunner;
  /** Client-side store budgets per table (Firestore has no provisioned capacity). */
  readonly database: {
    readonly pools: RateBudget;
    readonly tokens: RateBudget;
    readonly autoscaleMaxMultiplier: number;
  };
  readonly domainName: string | undefined;
  readonly nodeProviderProjectId: string | undefined;
  /** Subgraph URL per enabled chain (`SUBGRAPH_URL_<id>` or the chain default). */
  readonly subgraphUrls: ReadonlyMap<number, string>;
  /**
   * The Balancer V3 catalogue per enabled chain where V3 is deployed and both are set:
   * `SUBGRAPH_V3_URL_<id>` (the `balancer-v3-vault` subgraph: pools, tokens, hooks) and
   * `SUBGRAPH_V3_POOLS_URL_<id>` (the `balancer-v3-pools` subgraph: pool types and parameters).
   */
  readonly subgraphV3Urls: ReadonlyMap<number, { readonly vault: string; readonly pools: string }>;
  /**
   * HTTP(S) RPC URL per enabled chain when one is known (`RPC_URL_<id>`, `RPC_URL`, or Infura); a
   * WebSocket URL configured there is read over HTTP(S) at the same address (`ws` -> `http`,
   * `wss` -> `https`) and kept in `rpcSocketUrls` for the head follower's subscription.
   */
  readonly rpcUrls: ReadonlyMap<number, string>;
  /** The WebSocket URL per chain whose RPC URL is one (`ws://`, `wss://`): the follower subscribes to new heads there. */
  readonly rpcSocketUrls: ReadonlyMap<number, string>;
  /** Gauges subgraph URL per enabled chain that has gauges (`GAUGES_SUBGRAPH_URL_<id>` or the chain default). */
  readonly gaugesSubgraphUrls: ReadonlyMap<number, string>;
  /** Subgraph client: time allowed per attempt, and retries after the first attempt. */
  readonly subgraph: {
    readonly timeoutMs: number;
    readonly retries: number;
    /** A pool update reads every pool at least this often; between, only the pools changed since the last run (0: always every pool). */
    readonly fullEverySeconds: number;
  };
  /**
   * A pool update answers (201 or an error) within this many seconds of its request, retries and
   * waiting for a run in flight included; below the scheduler's attempt deadline (infra/).
   */
  readonly updatePoolsDeadlineSeconds: number;
  /** Whole decoration run's deadline for its upstream reads (gauges subgraph and node), in seconds. */
  readonly decoratePoolsDeadlineSeconds: number;
  readonly prices: {
    readonly apiUrl: string;
    readonly apiKey: string | undefined;
    readonly batchSize: number;
    readonly requestsPerMinute: number;
    readonly freshnessSeconds: number;
    readonly intervalSeconds: number;
    /** Time allowed per price API request attempt. */
    readonly timeoutMs: number;
    /** A price run answers within this many seconds; tokens not reached by then keep their price. */
    readonly runDeadlineSeconds: number;
  };
  readonly sanctions: {
    readonly provider: SanctionsProviderKind;
    readonly apiUrl: string;
    readonly apiKey: string | undefined;
  };
  readonly simulator: {
    readonly apiUrl: string;
    readonly user: string | undefined;
    readonly project: string | undefined;
    readonly accessKey: string | undefined;
    /** Addresses simulations may call besides the Vault, the relayer and known tokens. */
    readonly allowedContracts: readonly Address[];
    /** Let callers ask the provider to save simulations (in the operator's account). */
    readonly allowSave: boolean;
  };
  readonly jobsSecret: string | undefined;
  /**
   * Which proxies' `X-Forwarded-For` is believed for the client address (rate limits, logs): off
   * (the peer address is the client), a number of hops (Cloud Run's front end is one), or the
   * proxies' addresses and CIDR ranges.
   */
  readonly trustProxy: false | number | readonly string[];
  /**
   * How long a client may take to send a whole request (`requestTimeoutMs`) and its headers
   * (`headersTimeoutMs`, at most the former) before the server answers 408 and closes the
   * connection; Node's defaults (300 s / 60 s) let a stalled upload hold a connection for minutes.
   */
  readonly http: { readonly requestTimeoutMs: number; readonly headersTimeoutMs: number };
  /** Internal job endpoints called by Cloud Scheduler/Tasks with Google OIDC tokens. */
  readonly internalJobs: {
    /** The service's own URL: audience of accepted tokens and base of enqueued task URLs. */
    readonly serviceUrl: string | undefined;
    readonly schedulerServiceAccount: string | undefined;
    readonly tasksServiceAccount: string | undefined;
    /** Cloud Tasks queue id and location; the project is GOOGLE_CLOUD_PROJECT. */
    readonly tasksQueue: string | undefined;
    readonly tasksLocation: string | undefined;
    /** Where Google's token-signing certificates are fetched (PEM map); tests use a local one. */
    readonly oidcCertsUrl: string;
  };
  readonly rateLimits: {
    readonly quotesPerMinute: number;
    readonly readsPerMinute: number;
    readonly jobsPerMinute: number;
  };
  readonly errorTrackerDsn: string | undefined;
  /**
   * Share of swap fees the protocol takes, per enabled chain (`PROTOCOL_SWAP_FEE_<id>`, else
   * `PROTOCOL_SWAP_FEE`, else 0.5); the decoration's swap-fee APR leaves it out.
   */
  readonly protocolSwapFees: ReadonlyMap<number, number>;
  readonly routing: {
    /** Pools below this USD liquidity are not routed through (when liquidity is known). */
    readonly minLiquidityUsd: number;
    /** Quote worker threads (`ROUTER_WORKERS`, default: the machine's cores; 0 = in-process). */
    readonly workers: number;
    readonly quoteCacheSize: number;
    /**
     * Longest a quote may take on a worker thread (`QUOTE_TIMEOUT_MS`, default 30 s; it includes a
     * cold thread's router build for a new pool version, hence generous): then the
     * request answers 503 and the thread is replaced, so no quote holds a thread for good.
     */
    readonly quoteTimeoutMs: number;
    /**
     * Old-generation heap of each quote thread in MiB (`ROUTER_THREAD_HEAP_MB`; 0: V8's own limit,
     * a quarter of the machine). V8 lets a heap fill with garbage up to near its limit before a
     * full collection, so without a cap every thread grows by hundreds of MiB under a quote load.
     * The default, 96 + 64 per chain, holds a thread's live set at three chains of 11,160 pools
     * (about 200 MiB: the pool models and each chain's bounded candidate paths) with room to collect.
     */
    readonly threadHeapMb: number;
    /** `own`: the exact engine in src/domain/swap; `sor`: @balancer-labs/sor with an exact replay. */
    readonly engine: RouterEngine;
    /**
     * The BatchRelayer per enabled chain (`BATCH_RELAYER_<id>`, an address or `none`, else the
     * chain's default); null turns off routes with joins and exits on that chain.
     */
    readonly batchRelayers: ReadonlyMap<number, Address | null>;
  };
  /** `RPC_URL`: the RPC node of the only enabled chain when `RPC_URL_<id>` is not set. */
  readonly rpcUrl: string | undefined;
  /**
   * Following the chain head (`jobs/headFollower.ts`) on every chain with an RPC URL: `FOLLOW_HEAD`
   * (on by default), the poll interval, and the state age past which `/readyz` calls a chain stale.
   */
  readonly follow: {
    readonly enabled: boolean;
    readonly intervalMs: number;
    readonly staleSeconds: number;
    /**
     * `FOLLOW_RECHECK_CALLS_PER_SECOND`: `eth_call`s a second (wall time, as a node bills them)
     * spent re-reading pools nothing named, in turn, with the new blocks' reads, so a wrong answer
     * that passed every check is healed (0: off). Per second rather than per block: a 250 ms
     * chain would otherwise pay 48 times a 12 s chain's calls for the same coverage.
     */
    readonly recheckCallsPerSecond: number;
    /**
     * How long `/order`, a `minBlockNumber` and the pool update wait for the follower to publish
     * the block they need before answering 503 (`FOLLOW_WAIT_MS`; 0: do not wait).
     */
    readonly waitMs: number;
    /** Past this many blocks, or seconds, behind the node's head the state is refused for `/order` and `/readyz` degrades. */
    readonly maxLagBlocks: number;
    readonly maxLagSeconds: number;
    /**
     * `FOLLOW_AGGREGATE_CALLS`: getters per Multicall3 `aggregate3` call on chains that have it
     * (`sources/rpc/multicall.ts`); 0 sends every getter as its own `eth_call` in JSON-RPC batches.
     */
    readonly aggregateCalls: number;
  };
  /** What Cloud Run says about the running service (`K_SERVICE`, `K_REVISION`); tags error reports. */
  readonly deployment: {
    readonly service: string | undefined;
    readonly revision: string | undefined;
  };
}

type Env = Readonly<Record<string, string | undefined>>;

const nonEmpty = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === '' ? undefined : v.trim();

function fail(name: string, message: string): never {
  throw new ConfigError(`${name}: ${message}`);
}

function int(env: Env, name: string, def: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return def;
  const parsed = z.coerce.number().int().min(min).max(max).safeParse(raw);
  if (!parsed.success) fail(name, `expected a whole number from ${min} to ${max}, got '${raw}'`);
  return parsed.data;
}

function num(env: Env, name: string, def: number, min = 0): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return def;
  const parsed = z.coerce.number().finite().min(min).safeParse(raw);
  if (!parsed.success) fail(name, `expected a number >= ${min}, got '${raw}'`);
  return parsed.data;
}

/** The slow re-read's rate; the per-block setting it replaced is refused rather than ignored. */
function recheckRate(env: Env): number {
  if (nonEmpty(env.FOLLOW_RECHECK_CALLS_PER_BLOCK) !== undefined)
    fail(
      'FOLLOW_RECHECK_CALLS_PER_BLOCK',
      'replaced by FOLLOW_RECHECK_CALLS_PER_SECOND (calls a second, whatever the block time; default 2): set that instead',
    );
  const name = 'FOLLOW_RECHECK_CALLS_PER_SECOND';
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return 2;
  const parsed = z.coerce.number().finite().min(0).max(1000).safeParse(raw);
  if (!parsed.success) fail(name, `expected a number from 0 to 1000 (calls a second; 0 turns it off), got '${raw}'`);
  return parsed.data;
}

/** A quote thread's heap cap: 0 (no cap) or enough to start a thread at all. */
function threadHeap(env: Env, chains: number): number {
  const name = 'ROUTER_THREAD_HEAP_MB';
  const mb = int(env, name, 96 + 64 * chains, 0, 65_536);
  if (mb !== 0 && mb < 64)
    fail(name, `expected 0 (V8's own limit) or at least 64 MiB per quote thread, got '${env[name]}'`);
  return mb;
}

function bool(env: Env, name: string): boolean {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  // The old API treated any DEBUG value (e.g. a namespace list) as "on".
  return true;
}

export const ROUTER_ENGINES = ['own', 'sor'] as const;
export type RouterEngine = (typeof ROUTER_ENGINES)[number];

/** A yes/no setting where a typo must not silently mean yes. */
function flag(env: Env, name: string): boolean {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined || ['0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  fail(name, `expected true or false, got '${raw}'`);
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], def: T): T {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return def;
  if (!(values as readonly string[]).includes(raw)) fail(name, `expected one of ${values.join(', ')}, got '${raw}'`);
  return raw as T;
}

function url(env: Env, name: string, def?: string): string | undefined {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return def;
  if (!z.url({ protocol: /^(https?|wss?)$/ }).safeParse(raw).success)
    fail(name, `expected an http(s) or ws(s) URL, got '${raw}'`);
  return raw.replace(/\/+$/, '');
}

function relayerAddress(env: Env, name: string, def: Address): Address | null {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return def;
  if (raw === 'none' || raw === 'off') return null;
  if (!isAddress(raw))
    fail(name, `expected a 0x-prefixed 20-byte address, or none to turn relayer routes off, got '${env[name]}'`);
  return raw;
}

function email(env: Env, name: string): string | undefined {
  const raw = nonEmpty(env[name]);
  if (raw !== undefined && !z.email().safeParse(raw).success)
    fail(name, `expected a service account email, got '${raw}'`);
  return raw;
}

function addresses(env: Env, name: string): Address[] {
  const list = (nonEmpty(env[name]) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return list.map((a) => {
    try {
      return parseAddress(a);
    } catch {
      return fail(name, `'${a}' is not an address (0x followed by 40 hex digits)`);
    }
  });
}

function fraction(env: Env, name: string, def: number): number {
  const v = num(env, name, def);
  if (v > 1) fail(name, `expected a fraction from 0 to 1 (0.5 = 50 %), got '${env[name]}'`);
  return v;
}

/** Express's names for well-known ranges, accepted as they are. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function httpTimeouts(env: Env): Config['http'] {
  // Fractions allowed (tests use under a second); 0 would turn Node's timeout off, so not allowed.
  const seconds = (name: string, def: number): number => {
    const value = num(env, name, def, 0.1);
    if (value > 3600) fail(name, `expected at most 3600 seconds, got '${env[name]}'`);
    return Math.round(value * 1000);
  };
  const requestTimeoutMs = seconds('HTTP_REQUEST_TIMEOUT_SECONDS', 30);
  const headersTimeoutMs = seconds('HTTP_HEADERS_TIMEOUT_SECONDS', Math.min(10, requestTimeoutMs / 1000));
  if (headersTimeoutMs > requestTimeoutMs) {
    fail(
      'HTTP_HEADERS_TIMEOUT_SECONDS',
      `must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (${requestTimeoutMs / 1000}), got '${env.HTTP_HEADERS_TIMEOUT_SECONDS}'`,
    );
  }
  return { requestTimeoutMs, headersTimeoutMs };
}

function trustProxy(env: Env): Config['trustProxy'] {
  const raw = nonEmpty(env.TRUST_PROXY);
  if (raw === undefined || ['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) return int(env, 'TRUST_PROXY', 0, 0, 10);
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (!list.some((s) => s.includes('.') || s.includes(':') || PROXY_RANGE_NAMES.includes(s))) {
    fail(
      'TRUST_PROXY',
      `expected a number of proxy hops or a comma-separated list of addresses or CIDR ranges, got '${raw}'`,
    );
  }
  for (const entry of list) {
    const [addr = '', bits, extra] = entry.split('/');
    const family = isIP(addr);
    const maxBits = family === 6 ? 128 : 32;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (!PROXY_RANGE_NAMES.includes(entry) && (family === 0 || !bitsOk || extra !== undefined)) {
      fail(
        'TRUST_PROXY',
        `'${entry}' is not an address or CIDR range (e.g. 35.191.0.0/16), nor one of ${PROXY_RANGE_NAMES.join(', ')}`,
      );
    }
  }
  return list;
}

export function parseNetworks(raw: string | undefined): ChainInfo[] {
  const list = (raw ?? '1,137,42161')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (list.length === 0) fail('NETWORKS', `no chain given (known: ${describeKnownChains()})`);
  const out: ChainInfo[] = [];
  for (const token of list) {
    const chain = resolveChain(token);
    if (!chain) fail('NETWORKS', `unknown chain '${token}' (known: ${describeKnownChains()})`);
    if (!out.includes(chain)) out.push(chain);
  }
  return out;
}

/**
 * The process environment, with some variables replaced (the CLI narrows NETWORKS to one chain).
 * Reading the environment happens here and in `loadConfig` only, so every setting is parsed and
 * checked in one place (docs/ARCHITECTURE.md, "Configuration").
 */
export function processEnv(overrides: Env = {}): Env {
  return { ...process.env, ...overrides };
}

export function loadConfig(env: Env = process.env): Config {
  const chains = parseNetworks(env.NETWORKS);
  const nodeProviderProjectId = nonEmpty(env.NODEPROVIDER_PROJECT_ID);
  const rpcUrl = url(env, 'RPC_URL');

  const subgraphUrls = new Map<number, string>();
  const subgraphV3Urls = new Map<number, { vault: string; pools: string }>();
  const rpcUrls = new Map<number, string>();
  const rpcSocketUrls = new Map<number, string>();
  const gaugesSubgraphUrls = new Map<number, string>();
  for (const chain of chains) {
    subgraphUrls.set(chain.id, url(env, `SUBGRAPH_URL_${chain.id}`, chain.subgraphUrl) as string);
    const v3Vault = url(env, `SUBGRAPH_V3_URL_${chain.id}`);
    const v3Pools = url(env, `SUBGRAPH_V3_POOLS_URL_${chain.id}`);
    if ((v3Vault || v3Pools) && !chain.v3)
      fail(`SUBGRAPH_V3_URL_${chain.id}`, `Balancer V3 is not deployed on chain ${chain.id}; remove the variable`);
    if ((v3Vault === undefined) !== (v3Pools === undefined))
      fail(
        v3Vault ? `SUBGRAPH_V3_POOLS_URL_${chain.id}` : `SUBGRAPH_V3_URL_${chain.id}`,
        'the V3 catalogue needs both the vault and the pools subgraph: set both or neither',
      );
    if (v3Vault && v3Pools) subgraphV3Urls.set(chain.id, { vault: v3Vault, pools: v3Pools });
    const gauges = url(env, `GAUGES_SUBGRAPH_URL_${chain.id}`, chain.gauges?.subgraphUrl);
    if (gauges && !chain.gauges)
      fail(
        `GAUGES_SUBGRAPH_URL_${chain.id}`,
        `chain ${chain.id} has no gauges this service knows; remove the variable`,
      );
    if (gauges) gaugesSubgraphUrls.set(chain.id, gauges);
    const rpc =
      url(env, `RPC_URL_${chain.id}`) ??
      (chains.length === 1 ? rpcUrl : undefined) ??
      (nodeProviderProjectId && chain.infuraNetwork
        ? `https://${chain.infuraNetwork}.infura.io/v3/${nodeProviderProjectId}`
        : undefined);
    if (rpc && /^wss?:/i.test(rpc)) {
      rpcSocketUrls.set(chain.id, rpc);
      rpcUrls.set(chain.id, rpc.replace(/^ws/i, 'http'));
    } else if (rpc) rpcUrls.set(chain.id, rpc);
  }
  // Reject per-chain overrides for chains that are not enabled: almost always a typo.
  for (const key of Object.keys(env)) {
    const m =
      /^(SUBGRAPH_URL|SUBGRAPH_V3_URL|SUBGRAPH_V3_POOLS_URL|GAUGES_SUBGRAPH_URL|RPC_URL|BATCH_RELAYER)_(\d+)$/.exec(
        key,
      );
    if (m && nonEmpty(env[key]) !== undefined && !chains.some((c) => c.id === Number(m[2]))) {
      const known = CHAINS.some((c) => c.id === Number(m[2]));
      fail(
        key,
        known
          ? `chain ${m[2]} is not in NETWORKS (${chains.map((c) => c.id).join(',')})`
          : `unknown chain id ${m[2]} (known: ${describeKnownChains()})`,
      );
    }
  }

  const store = oneOf<StoreKind>(env, 'STORE', ['sqlite', 'firestore'], 'sqlite');
  const budget = (table: string, read: number, write: number): RateBudget => ({
    readsPerSecond: int(env, `DATABASE_${table}_READ_CAPACITY`, read, 1),
    writesPerSecond: int(env, `DATABASE_${table}_WRITE_CAPACITY`, write, 1),
  });

  return {
    port: int(env, 'PORT', 8090, 0, 65535),
    memoryLimitMib: nonEmpty(env.MEMORY_LIMIT_MIB) === undefined ? undefined : int(env, 'MEMORY_LIMIT_MIB', 0, 0),
    debug: bool(env, 'DEBUG'),
    chains,
    store,
    dataDir: nonEmpty(env.DATA_DIR) ?? './data',
    googleCloudProject: nonEmpty(env.GOOGLE_CLOUD_PROJECT),
    firestoreEmulatorHost: nonEmpty(env.FIRESTORE_EMULATOR_HOST),
    updatePoolsIntervalMinutes: num(env, 'UPDATE_POOLS_INTERVAL_IN_MINUTES', 5),
    decoratePoolsIntervalMinutes: num(env, 'DECORATE_POOLS_INTERVAL_IN_MINUTES', 5),
    jobRunner: oneOf<JobRunner>(env, 'JOB_RUNNER', ['timers', 'scheduler'], 'timers'),
    database: {
      pools: budget('POOLS', 2000, 1000),
      tokens: budget('TOKENS', 1000, 500),
      autoscaleMaxMultiplier: num(env, 'DATABASE_AUTOSCALE_MAX_MULTIPLIER', 10, 1),
    },
    domainName: nonEmpty(env.DOMAIN_NAME),
    nodeProviderProjectId,
    subgraphUrls,
    subgraphV3Urls,
    rpcUrls,
    rpcSocketUrls,
    gaugesSubgraphUrls,
    subgraph: {
      timeoutMs: int(env, 'SUBGRAPH_TIMEOUT_MS', 30_000, 1),
      retries: int(env, 'SUBGRAPH_RETRIES', 3, 0, 10),
      fullEverySeconds: int(env, 'SUBGRAPH_FULL_EVERY_SECONDS', 600, 0),
    },
    updatePoolsDeadlineSeconds: int(env, 'UPDATE_POOLS_DEADLINE_SECONDS', 60, 1, 1_800),
    decoratePoolsDeadlineSeconds: int(env, 'DECORATE_POOLS_DEADLINE_SECONDS', 120, 1, 1_800),
    prices: {
      apiUrl: url(env, 'PRICE_API_URL', 'https://api.coingecko.com/api/v3') as string,
      apiKey: nonEmpty(env.PRICE_API_KEY),
      batchSize: int(env, 'PRICE_BATCH_SIZE', 50, 1, 1000),
      requestsPerMinute: int(env, 'PRICE_REQUESTS_PER_MINUTE', 25, 1),
      freshnessSeconds: int(env, 'PRICE_FRESHNESS_SECONDS', 25),
      intervalSeconds: int(env, 'PRICE_INTERVAL_SECONDS', 30, 0),
      timeoutMs: int(env, 'PRICE_TIMEOUT_MS', 10_000, 1),
      runDeadlineSeconds: int(env, 'PRICE_RUN_DEADLINE_SECONDS', 90, 1, 1_800),
    },
    sanctions: {
      provider: oneOf<SanctionsProviderKind>(env, 'SANCTIONS_PROVIDER', ['chainalysis', 'trm'], 'chainalysis'),
      apiUrl: url(env, 'SANCTIONS_API_URL') ?? '',
      apiKey: nonEmpty(env.SANCTIONS_API_KEY),
    },
    simulator: {
      apiUrl: url(env, 'SIMULATOR_API_URL', 'https://api.tenderly.co') as string,
      user: nonEmpty(env.SIMULATOR_USER),
      project: nonEmpty(env.SIMULATOR_PROJECT),
      accessKey: nonEmpty(env.SIMULATOR_ACCESS_KEY),
      allowedContracts: addresses(env, 'SIMULATOR_ALLOWED_CONTRACTS'),
      allowSave: flag(env, 'SIMULATOR_SAVE'),
    },
    jobsSecret: nonEmpty(env.JOBS_SECRET),
    trustProxy: trustProxy(env),
    http: httpTimeouts(env),
    internalJobs: {
      serviceUrl: url(env, 'SERVICE_URL'),
      schedulerServiceAccount: email(env, 'SCHEDULER_SERVICE_ACCOUNT'),
      tasksServiceAccount: email(env, 'TASKS_SERVICE_ACCOUNT'),
      tasksQueue: nonEmpty(env.TASKS_QUEUE),
      tasksLocation: nonEmpty(env.TASKS_LOCATION),
      oidcCertsUrl: url(env, 'OIDC_CERTS_URL', 'https://www.googleapis.com/oauth2/v1/certs') as string,
    },
    rateLimits: {
      quotesPerMinute: int(env, 'RATE_LIMIT_QUOTES_PER_MINUTE', 6000, 0),
      readsPerMinute: int(env, 'RATE_LIMIT_READS_PER_MINUTE', 6000, 0),
      jobsPerMinute: int(env, 'RATE_LIMIT_JOBS_PER_MINUTE', 30, 0),
    },
    errorTrackerDsn: url(env, 'ERRORTRACKER_DSN'),
    protocolSwapFees: new Map(
      chains.map((c) => {
        const fallback = fraction(env, 'PROTOCOL_SWAP_FEE', DEFAULT_PROTOCOL_SWAP_FEE);
        return [c.id, fraction(env, `PROTOCOL_SWAP_FEE_${c.id}`, fallback)];
      }),
    ),
    routing: {
      minLiquidityUsd: num(env, 'MIN_LIQUIDITY_USD', 100),
      workers: int(env, 'ROUTER_WORKERS', Math.min(availableParallelism(), 64), 0, 64),
      quoteCacheSize: int(env, 'QUOTE_CACHE_SIZE', 10000, 0),
      quoteTimeoutMs: int(env, 'QUOTE_TIMEOUT_MS', 30_000, 100, 600_000),
      threadHeapMb: threadHeap(env, chains.length),
      engine: oneOf(env, 'ROUTER_ENGINE', ROUTER_ENGINES, 'own'),
      batchRelayers: new Map(chains.map((c) => [c.id, relayerAddress(env, `BATCH_RELAYER_${c.id}`, c.batchRelayer)])),
    },
    rpcUrl,
    follow: {
      enabled: oneOf(env, 'FOLLOW_HEAD', ['on', 'off'], 'on') === 'on',
      intervalMs: int(env, 'FOLLOW_INTERVAL_MS', 1000, 50, 600_000),
      staleSeconds: int(env, 'FOLLOW_STALE_SECONDS', 60, 1),
      recheckCallsPerSecond: recheckRate(env),
      waitMs: int(env, 'FOLLOW_WAIT_MS', 3000, 0, 60_000),
      maxLagBlocks: int(env, 'FOLLOW_MAX_LAG_BLOCKS', 10, 1),
      maxLagSeconds: int(env, 'FOLLOW_MAX_LAG_SECONDS', 30, 1),
      aggregateCalls: int(env, 'FOLLOW_AGGREGATE_CALLS', 1000, 0, 10_000),
    },
    deployment: { service: nonEmpty(env.K_SERVICE), revision: nonEmpty(env.K_REVISION) },
  };
}

export function isChainEnabled(config: Config, chainId: number): boolean {
  return config.chains.some((c) => c.id === chainId);
}
