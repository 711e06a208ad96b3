import { parseNetworks } from '../src/config/env';
import { memoryNeedMiB } from '../src/config/memoryNeed';

/**
 * Everything the stack is configured by, as plain values (tests build it directly). The service's
 * own variable names (NETWORKS, UPDATE_POOLS_INTERVAL_IN_MINUTES, DATABASE_*) are used where the
 * service reads the same setting, so one number means one thing in both places.
 */
export interface StackConfig {
  readonly project: string;
  readonly region: string;
  /** Firestore location: a multi-region (`eur3`, `nam5`) or a region; default the stack region. */
  readonly firestoreLocation: string;
  readonly serviceName: string;
  /** Container image; when unset only the foundation (registry, accounts, secrets, database, queue) is created. */
  readonly image: string | undefined;
  readonly chainIds: readonly number[];
  readonly updatePoolsIntervalMinutes: number;
  readonly decoratePoolsIntervalMinutes: number;
  /**
   * How long a pool update, a price run and a decoration's upstream reads may take, in seconds (the
   * service's UPDATE_POOLS_DEADLINE_SECONDS, PRICE_RUN_DEADLINE_SECONDS and
   * DECORATE_POOLS_DEADLINE_SECONDS); the scheduler waits a margin longer.
   */
  readonly jobDeadlines: {
    readonly updatePoolsSeconds: number;
    readonly priceRunSeconds: number;
    readonly decoratePoolsSeconds: number;
  };
  readonly database: {
    readonly poolsReadCapacity: number;
    readonly poolsWriteCapacity: number;
    readonly tokensReadCapacity: number;
    readonly tokensWriteCapacity: number;
    readonly autoscaleMaxMultiplier: number;
  };
  readonly domainName: string | undefined;
  /**
   * Cloud Armor rate limits per client IP in front of the service (infra/edgeSecurity.ts), per
   * minute across all instances; undefined when `edgeSecurity` is off.
   */
  readonly edge:
    { readonly quotesPerMinute: number; readonly readsPerMinute: number; readonly jobsPerMinute: number } | undefined;
  readonly cpu: string;
  /**
   * Per instance (`memory`). Default: the smallest Cloud Run size holding what the chains'
   * `poolsPerChain` pools need with `MEMORY_MARGIN` (the service's measured table,
   * src/config/memoryNeed.ts); passed to the service as MEMORY_LIMIT_MIB so a start that does not
   * fit fails with a message.
   */
  readonly memory: string;
  /** `memory` in MiB: the service's `memoryLimitMib` (src/config/env.ts), passed as MEMORY_LIMIT_MIB. */
  readonly memoryLimitMib: number;
  /** The pools per chain the default `memory` is sized for (`poolsPerChain`). */
  readonly poolsPerChain: number;
  /** Quote threads `memory` is sized for: extraEnv's `ROUTER_WORKERS`, else one per CPU (set by the stack). */
  readonly quoteThreads: number;
  readonly concurrency: number;
  readonly minInstances: number;
  readonly maxInstances: number;
  /** Secret names mounted as env variables (each needs a version before the service starts). */
  readonly mountedSecrets: readonly SecretName[];
  /**
   * Further service variables whose values carry a key (a Graph gateway `SUBGRAPH_URL_<id>`, an
   * RPC URL with a key in it): each gets its own secret, mounted like the ones above.
   */
  readonly secretEnv: readonly string[];
  /** Any other service variable (PRICE_API_URL, DEBUG ...); plain values, so never a key. */
  readonly extraEnv: Readonly<Record<string, string>>;
}

/** The port the image listens on (the service's PORT default); Cloud Run passes it as PORT. */
export const CONTAINER_PORT = 8090;

export const SECRET_NAMES = [
  'PRICE_API_KEY',
  'NODEPROVIDER_PROJECT_ID',
  'SANCTIONS_API_KEY',
  'SIMULATOR_USER',
  'SIMULATOR_PROJECT',
  'SIMULATOR_ACCESS_KEY',
  'ERRORTRACKER_DSN',
  'JOBS_SECRET',
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/** Variables the stack sets itself; `extraEnv` may not override them. */
export const MANAGED_ENV = [
  'PORT',
  'STORE',
  'JOB_RUNNER',
  'NETWORKS',
  'GOOGLE_CLOUD_PROJECT',
  'SERVICE_URL',
  'SCHEDULER_SERVICE_ACCOUNT',
  'TASKS_SERVICE_ACCOUNT',
  'TASKS_QUEUE',
  'TASKS_LOCATION',
  'UPDATE_POOLS_INTERVAL_IN_MINUTES',
  'DECORATE_POOLS_INTERVAL_IN_MINUTES',
  'DOMAIN_NAME',
  'DATABASE_POOLS_READ_CAPACITY',
  'DATABASE_POOLS_WRITE_CAPACITY',
  'DATABASE_TOKENS_READ_CAPACITY',
  'DATABASE_TOKENS_WRITE_CAPACITY',
  'DATABASE_AUTOSCALE_MAX_MULTIPLIER',
  'TRUST_PROXY',
  'UPDATE_POOLS_DEADLINE_SECONDS',
  'PRICE_RUN_DEADLINE_SECONDS',
  'DECORATE_POOLS_DEADLINE_SECONDS',
  'MEMORY_LIMIT_MIB',
  ...SECRET_NAMES,
] as const;

/** Raw config values as `pulumi config` holds them (all optional strings/objects). */
export interface RawStackConfig {
  readonly project: string;
  readonly region?: string;
  readonly get: (key: string) => string | undefined;
  readonly getObject: <T>(key: string) => T | undefined;
}

export class StackConfigError extends Error {}

/** Cloud Scheduler waits at most 30 min for an attempt; it waits this much longer than the job's own deadline. */
export const MAX_ATTEMPT_DEADLINE_SECONDS = 1_800;
export const ATTEMPT_MARGIN_SECONDS = 30;

function fail(key: string, message: string): never {
  throw new StackConfigError(`pulumi config ${key}: ${message}`);
}

/** Names and values that are keys: they belong in Secret Manager, not in plain env (or the state). */
const KEY_NAME = /(_KEY|_SECRET|_TOKEN|_PASSWORD|_DSN|_ACCESS_KEY|_PROJECT_ID)$/;
const KEY_IN_VALUE = [
  /^[a-z][a-z0-9+.-]*:\/\/[^/@\s]+@/i, // credentials in a URL
  /\/api\/[0-9a-f]{32}(\/|$)/i, // The Graph gateway: /api/<key>/subgraphs/...
  /\/v[23]\/[0-9a-z_-]{20,}(\/|$)/i, // RPC providers: /v3/<project id>, /v2/<key>
];

function carriesKey(name: string, value: string): boolean {
  return KEY_NAME.test(name) || KEY_IN_VALUE.some((re) => re.test(value));
}

function numberAt(raw: RawStackConfig, key: string, def: number, min = 1, integer = true): number {
  const v = raw.get(key);
  if (v === undefined || v.trim() === '') return def;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || (integer && !Number.isInteger(n)))
    fail(key, `expected a ${integer ? 'whole ' : ''}number >= ${min}, got '${v}'`);
  return n;
}

function deadlineAt(raw: RawStackConfig, key: string, def: number): number {
  const max = MAX_ATTEMPT_DEADLINE_SECONDS - ATTEMPT_MARGIN_SECONDS;
  const v = numberAt(raw, key, def);
  if (v > max)
    fail(
      key,
      `expected a whole number from 1 to ${max} (the scheduler waits ${ATTEMPT_MARGIN_SECONDS} s longer, at most ${MAX_ATTEMPT_DEADLINE_SECONDS} s), got '${v}'`,
    );
  return v;
}

/** Mainnet's V2 catalogue scale, the figure the memory bench measures. */
export const DEFAULT_POOLS_PER_CHAIN = 11_160;
/** Room over the measured RSS: the heap creeps for minutes under load (docs/benchmarks.md, soak). */
export const MEMORY_MARGIN = 1.1;
/** Cloud Run sizes in MiB, with the fewest CPUs each allows. */
const MEMORY_SIZES: readonly { readonly mib: number; readonly minCpu: number }[] = [
  { mib: 512, minCpu: 1 },
  { mib: 1024, minCpu: 1 },
  { mib: 2048, minCpu: 1 },
  { mib: 4096, minCpu: 1 },
  { mib: 8192, minCpu: 2 },
  { mib: 16384, minCpu: 4 },
  { mib: 24576, minCpu: 6 },
  { mib: 32768, minCpu: 8 },
];

/** A Kubernetes-style quantity (`512Mi`, `1Gi`, `2G`) in MiB, or undefined. */
export function quantityMiB(q: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(Mi|Gi|M|G)$/.exec(q.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = { Mi: 1, Gi: 1024, M: 1e6 / 2 ** 20, G: 1e9 / 2 ** 20 }[m[2] as 'Mi' | 'Gi' | 'M' | 'G'];
  return Math.floor(n * unit);
}

/**
 * The instance's memory: `memory` when set (refused when below the need), else the smallest size
 * holding the need with the margin. Quote threads: `ROUTER_WORKERS` from extraEnv, else one per
 * CPU, which the stack then sets: the service's own default counts the cores the host reports,
 * which may be more than the instance has, and the start check would refuse the start.
 */
function memoryOf(
  raw: RawStackConfig,
  chains: number,
  cpu: number,
  extraEnv: Record<string, string>,
): { memory: string; memoryLimitMib: number; poolsPerChain: number; quoteThreads: number } {
  const poolsPerChain = numberAt(raw, 'poolsPerChain', DEFAULT_POOLS_PER_CHAIN, 0);
  const workers = extraEnv.ROUTER_WORKERS;
  const threads = workers !== undefined && /^\d+$/.test(workers.trim()) ? Number(workers) : Math.max(1, Math.ceil(cpu));
  // ROUTER_WORKERS=0 (quotes on the main thread) needs what one thread does; memoryNeedMiB counts it so.
  const need = memoryNeedMiB(chains * poolsPerChain, threads);
  const wanted = Math.ceil(need * MEMORY_MARGIN);
  const what = `${chains} chains x ${poolsPerChain} pools (poolsPerChain) with ${threads} quote threads need about ${need} MiB`;
  const set = raw.get('memory');
  if (set !== undefined && set.trim() !== '') {
    const mib = quantityMiB(set);
    if (mib === undefined) fail('memory', `expected a size such as 512Mi or 2Gi, got '${set}'`);
    if (mib < need)
      fail('memory', `${set} is ${mib} MiB, but ${what}; raise memory, or lower NETWORKS or poolsPerChain`);
    return { memory: set.trim(), memoryLimitMib: mib, poolsPerChain, quoteThreads: threads };
  }
  const size = MEMORY_SIZES.find((s) => s.mib >= wanted);
  if (!size) fail('memory', `${what}, more than a Cloud Run instance holds; enable fewer chains per stack`);
  if (size.minCpu > cpu)
    fail('cpu', `${what} (${size.mib} MiB with margin), and Cloud Run gives that much only with cpu >= ${size.minCpu}`);
  return {
    memory: size.mib % 1024 === 0 ? `${size.mib / 1024}Gi` : `${size.mib}Mi`,
    memoryLimitMib: size.mib,
    poolsPerChain,
    quoteThreads: threads,
  };
}

export function readStackConfig(raw: RawStackConfig): StackConfig {
  const region = raw.region ?? 'europe-west1';
  let chains;
  try {
    chains = parseNetworks(raw.get('NETWORKS'));
  } catch (e) {
    fail('NETWORKS', (e as Error).message);
  }
  const mounted = raw.getObject<string[]>('mountedSecrets') ?? [...SECRET_NAMES];
  for (const s of mounted)
    if (!(SECRET_NAMES as readonly string[]).includes(s))
      fail('mountedSecrets', `unknown secret '${s}' (known: ${SECRET_NAMES.join(', ')})`);
  const secretEnv = raw.getObject<string[]>('secretEnv') ?? [];
  for (const k of secretEnv) {
    if (typeof k !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(k))
      fail('secretEnv', `'${String(k)}' is not a variable name`);
    if ((MANAGED_ENV as readonly string[]).includes(k))
      fail('secretEnv', `${k} is set by the stack; use its own config key instead`);
  }
  const extraEnv = raw.getObject<Record<string, string>>('extraEnv') ?? {};
  for (const [k, v] of Object.entries(extraEnv)) {
    if ((MANAGED_ENV as readonly string[]).includes(k))
      fail('extraEnv', `${k} is set by the stack; use its own config key instead`);
    if (secretEnv.includes(k)) fail('extraEnv', `${k} is also in secretEnv; keep it there only`);
    if (carriesKey(k, String(v)))
      fail('extraEnv', `${k} carries a key; list it in secretEnv so its value is held in Secret Manager`);
  }
  const domainName = raw.get('DOMAIN_NAME') || undefined;
  const edgeRaw = (raw.get('edgeSecurity') ?? 'false').trim().toLowerCase();
  if (edgeRaw !== 'true' && edgeRaw !== 'false') fail('edgeSecurity', `expected true or false, got '${edgeRaw}'`);
  if (edgeRaw === 'true' && !domainName)
    fail('edgeSecurity', 'needs DOMAIN_NAME: the load balancer serves HTTPS with a managed certificate for it');
  const edge =
    edgeRaw === 'true'
      ? {
          quotesPerMinute: numberAt(raw, 'edgeQuotesPerMinute', 6000),
          readsPerMinute: numberAt(raw, 'edgeReadsPerMinute', 6000),
          jobsPerMinute: numberAt(raw, 'edgeJobsPerMinute', 30),
        }
      : undefined;
  const minInstances = numberAt(raw, 'minInstances', 1, 0);
  // Each instance follows its chains' heads itself wherever it has an RPC URL (jobs/headFollower.ts
  // in the service): with no instance running, nobody follows and the first quote after a scale
  // from zero waits for a full read of every pool.
  const rpcSource =
    mounted.includes('NODEPROVIDER_PROJECT_ID') ||
    [...Object.keys(extraEnv), ...secretEnv].some((k) => /^RPC_URL(_\d+)?$/.test(k));
  const following =
    rpcSource &&
    String(extraEnv.FOLLOW_HEAD ?? 'on')
      .trim()
      .toLowerCase() !== 'off';
  if (following && minInstances < 1)
    fail(
      'minInstances',
      'must be at least 1 while instances follow the chain heads (an RPC URL comes from NODEPROVIDER_PROJECT_ID or RPC_URL_<chainId>); set extraEnv FOLLOW_HEAD=off to scale to zero',
    );
  const maxInstances = numberAt(raw, 'maxInstances', 4);
  const cpu = raw.get('cpu') ?? '1';
  if (!(Number(cpu) > 0)) fail('cpu', `expected a number of CPUs such as 1 or 2, got '${cpu}'`);
  if (maxInstances < minInstances) fail('maxInstances', `must be at least minInstances (${minInstances})`);
  return {
    project: raw.project,
    region,
    firestoreLocation: raw.get('firestoreLocation') ?? region,
    serviceName: raw.get('serviceName') ?? 'balancer-pools',
    image: raw.get('image'),
    chainIds: chains.map((c) => c.id),
    updatePoolsIntervalMinutes: numberAt(raw, 'UPDATE_POOLS_INTERVAL_IN_MINUTES', 5),
    decoratePoolsIntervalMinutes: numberAt(raw, 'DECORATE_POOLS_INTERVAL_IN_MINUTES', 5),
    // The service's defaults (src/config/env.ts).
    jobDeadlines: {
      updatePoolsSeconds: deadlineAt(raw, 'UPDATE_POOLS_DEADLINE_SECONDS', 60),
      priceRunSeconds: deadlineAt(raw, 'PRICE_RUN_DEADLINE_SECONDS', 90),
      decoratePoolsSeconds: deadlineAt(raw, 'DECORATE_POOLS_DEADLINE_SECONDS', 120),
    },
    database: {
      poolsReadCapacity: numberAt(raw, 'DATABASE_POOLS_READ_CAPACITY', 2000),
      poolsWriteCapacity: numberAt(raw, 'DATABASE_POOLS_WRITE_CAPACITY', 1000),
      tokensReadCapacity: numberAt(raw, 'DATABASE_TOKENS_READ_CAPACITY', 1000),
      tokensWriteCapacity: numberAt(raw, 'DATABASE_TOKENS_WRITE_CAPACITY', 500),
      autoscaleMaxMultiplier: numberAt(raw, 'DATABASE_AUTOSCALE_MAX_MULTIPLIER', 10, 1, false),
    },
    domainName,
    edge,
    cpu,
    ...memoryOf(raw, chains.length, Number(cpu), extraEnv),
    concurrency: numberAt(raw, 'concurrency', 80),
    minInstances,
    maxInstances,
    mountedSecrets: mounted as SecretName[],
    secretEnv,
    extraEnv,
  };
}
