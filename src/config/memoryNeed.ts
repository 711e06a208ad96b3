import { readFileSync } from 'node:fs';

/**
 * How much memory a configuration needs, from measured RSS (`npm run bench -- memory`: the compiled
 * service as the image starts it, after a quote load). The stack sizes an instance by it
 * (infra/config.ts) and the service refuses to start on an instance too small for it
 * (`memoryShortfall`, called by `startServer`), since an OOM kill names no cause.
 */

/** One bench row: chains x synthetic pools per chain, quote threads, peak RSS over the quote load. */
export interface MeasuredRss {
  readonly chains: number;
  readonly poolsPerChain: number;
  readonly threads: number;
  readonly rssMiB: number;
}

/**
 * The latest `npm run bench -- memory` rows: peaks over 30 s loads, the highest of the runs
 * docs/benchmarks.md lists. A shorter load reads low: the answer cache fills for 30 s.
 */
export const MEASURED_RSS: readonly MeasuredRss[] = [
  { chains: 1, poolsPerChain: 0, threads: 2, rssMiB: 158 },
  { chains: 1, poolsPerChain: 3_720, threads: 2, rssMiB: 500 },
  { chains: 1, poolsPerChain: 11_160, threads: 2, rssMiB: 698 },
  { chains: 3, poolsPerChain: 0, threads: 2, rssMiB: 157 },
  { chains: 3, poolsPerChain: 3_720, threads: 2, rssMiB: 889 },
  { chains: 3, poolsPerChain: 11_160, threads: 2, rssMiB: 1_071 },
  { chains: 3, poolsPerChain: 0, threads: 1, rssMiB: 143 },
  { chains: 3, poolsPerChain: 11_160, threads: 1, rssMiB: 723 },
];

/**
 * A linear fit over `MEASURED_RSS` that lies above every row and within 5 % of the largest for
 * each thread count. Under a steady load a quote thread's heap fills toward its cap
 * (`ROUTER_THREAD_HEAP_MB`, 96 + 64 per chain) whatever its pools, so most of a thread's need is
 * its base. The per-pool terms are what the main thread keeps (stored pools, their routing form,
 * the shared buffers) and what each thread keeps (models). A line through the largest rows lies
 * well above small catalogues (one chain of 3,720 pools: 500 MiB measured, 815 fitted). The
 * default instance (1 vCPU, so one quote thread, and 1 GiB) holds three chains of 11,160. The
 * rows hold one and three chains: many chains of few pools each may need more than the fit says,
 * as each chain raises a thread's cap by 64 MiB.
 */
const BASE_MIB = 336;
const THREAD_BASE_MIB = 220;
const MAIN_KIB_PER_POOL = 0.5;
const THREAD_KIB_PER_POOL = 5;

/**
 * Peak RSS under a quote load for `pools` pools over all chains and `threads` quote threads, in
 * MiB. No quote threads (`ROUTER_WORKERS=0`) counts as one: the main thread then quotes, and holds
 * a thread's models itself.
 */
export function memoryNeedMiB(pools: number, threads: number): number {
  const quoting = Math.max(1, threads);
  return Math.ceil(
    BASE_MIB + quoting * THREAD_BASE_MIB + (pools * (MAIN_KIB_PER_POOL + quoting * THREAD_KIB_PER_POOL)) / 1024,
  );
}

/** Where Linux says how much memory the container may use: cgroup v2, then v1. */
export const CGROUP_LIMIT_FILES = ['/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/memory/memory.limit_in_bytes'];

/** Where the container's limit is read; tests give their own. */
export interface LimitSources {
  /**
   * Node's reading of the limit (`process.constrainedMemory`, libuv's cgroup v1 and v2 reading of
   * the process's own cgroup), in bytes; 0 or near 2^64 when there is none or it is unknown.
   */
  readonly constrainedMemory?: () => number | undefined;
  /** Read in order when Node knows no limit. */
  readonly files?: readonly string[];
}

/** A limit in bytes as MiB, or undefined when it means none (0, unset, an unset v1 limit near 2^63). */
function limitMiB(bytes: number | undefined): number | undefined {
  if (bytes === undefined || !Number.isFinite(bytes) || bytes <= 0 || bytes >= 2 ** 60) return undefined;
  return Math.floor(bytes / 2 ** 20);
}

/**
 * The container's memory limit in MiB, or undefined when there is none: Node's reading first,
 * then the cgroup files (`max`, an unset v1 limit, no file: none).
 */
export function containerLimitMiB(sources: LimitSources = {}): number | undefined {
  const fromNode = limitMiB((sources.constrainedMemory ?? (() => process.constrainedMemory?.()))());
  if (fromNode !== undefined) return fromNode;
  for (const file of sources.files ?? CGROUP_LIMIT_FILES) {
    let raw: string;
    try {
      raw = readFileSync(file, 'utf8').trim();
    } catch {
      continue;
    }
    return raw === 'max' ? undefined : limitMiB(Number(raw));
  }
  return undefined;
}

export interface MemoryCheck {
  /** Pools per enabled chain, as loaded. */
  readonly poolsByChain: ReadonlyMap<number, number>;
  readonly threads: number;
  /** `MEMORY_LIMIT_MIB`: 0 turns the check off; undefined reads the container's limit. */
  readonly limitMib: number | undefined;
  readonly limitSources?: LimitSources;
}

/**
 * Why this instance cannot hold its configuration, or undefined when it can (or no limit is
 * known). The message names the settings that change the need or the limit.
 */
export function memoryShortfall(check: MemoryCheck): string | undefined {
  if (check.limitMib === 0) return undefined;
  const limit = check.limitMib ?? containerLimitMiB(check.limitSources);
  if (limit === undefined) return undefined;
  const pools = [...check.poolsByChain.values()].reduce((a, n) => a + n, 0);
  const need = memoryNeedMiB(pools, check.threads);
  if (need <= limit) return undefined;
  const source = check.limitMib !== undefined ? 'MEMORY_LIMIT_MIB' : "the container's memory limit (cgroup)";
  const chains = [...check.poolsByChain].map(([id, n]) => `${id}: ${n.toLocaleString('en')}`).join(', ');
  return (
    `memory: ${check.poolsByChain.size} chains (NETWORKS; pools ${chains}) with ${check.threads} quote threads ` +
    `(ROUTER_WORKERS) need about ${need} MiB, and ${source} is ${limit} MiB. ` +
    `Give the instance more memory (the stack's memory), enable fewer chains, or run fewer quote threads. ` +
    `MEMORY_LIMIT_MIB=0 skips this check.`
  );
}
