import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { packageVersion } from '../packageVersion';
import { solcErrors, type SolcOutput } from '../solc';
import { collectSources } from './sources';

/**
 * Compiles the Balancer V3 stack from the npm packages' Solidity with the monorepo's compilers and
 * runs: viaIR, cancun; Vault and VaultExtension with solc 0.8.26 at 500 runs, everything else with
 * the newest compiler it lists, 0.8.27, at 9,999 runs (0.8.26 fails on the routers with an internal
 * compiler error, a viaIR bug fixed in 0.8.27); Permit2 as Uniswap built it (solc 0.8.17, viaIR,
 * 1,000,000 runs).
 *
 * The Yul optimizer runs its default steps, not the monorepo's longer sequence: same semantics,
 * 197 s of CPU for the whole stack instead of 342 (the first demo of a fresh clone waits on it),
 * at the price of a Vault of 25,266 bytes, over EIP-170's 24,576. The devnet chain alone lifts that
 * limit (src/devnet/hardhat.config.js); nothing compiled here goes to a real chain.
 *
 * Nothing of it is committed: each compile job's output is cached under node_modules/.cache, keyed
 * by a hash of its compiler and its whole standard-JSON input (every source's text and the
 * settings), so a fresh clone compiles once and later starts read the cache. solc runs in child
 * processes (it is synchronous and takes minutes of CPU), two at most.
 */

type Compiler = 'solc-0826' | 'solc-0827' | 'solc-0817';

interface CompileJob {
  readonly name: string;
  readonly compiler: Compiler;
  /** Source unit -> contract names whose bytecode is wanted. */
  readonly contracts: Readonly<Record<string, readonly string[]>>;
  readonly settings: Readonly<Record<string, unknown>>;
}

function balancerSettings(runs: number): Record<string, unknown> {
  return {
    viaIR: true,
    evmVersion: 'cancun',
    optimizer: { enabled: true, runs },
  };
}

const VAULT = '@balancer-labs/v3-vault/contracts';

/**
 * Longest first (CPU seconds measured: lbp 52, pools 39, admin 34, vault 31, routers 26, permit2
 * 16), so two workers finish together, about 100 s on two idle cores. A job's cache key is its
 * compiler and input alone, so the order here never invalidates the cache.
 */
export const V3_COMPILE_JOBS: readonly CompileJob[] = [
  {
    name: 'lbp',
    compiler: 'solc-0827',
    contracts: {
      '@balancer-labs/v3-pool-weighted/contracts/lbp/LBPoolFactory.sol': ['LBPoolFactory'],
      '@balancer-labs/v3-pool-weighted/contracts/lbp/FixedPriceLBPoolFactory.sol': ['FixedPriceLBPoolFactory'],
      // Their ABIs only: the factories carry the creation code.
      '@balancer-labs/v3-pool-weighted/contracts/lbp/LBPool.sol': ['LBPool'],
      '@balancer-labs/v3-pool-weighted/contracts/lbp/FixedPriceLBPool.sol': ['FixedPriceLBPool'],
    },
    settings: balancerSettings(9999),
  },
  {
    name: 'pools',
    compiler: 'solc-0827',
    contracts: {
      '@balancer-labs/v3-pool-weighted/contracts/WeightedPoolFactory.sol': ['WeightedPoolFactory'],
      '@balancer-labs/v3-pool-stable/contracts/StablePoolFactory.sol': ['StablePoolFactory'],
      // Their ABIs only: the factories carry the creation code.
      '@balancer-labs/v3-pool-weighted/contracts/WeightedPool.sol': ['WeightedPool'],
      '@balancer-labs/v3-pool-stable/contracts/StablePool.sol': ['StablePool'],
    },
    settings: balancerSettings(9999),
  },
  {
    name: 'admin',
    compiler: 'solc-0827',
    contracts: {
      [`${VAULT}/VaultAdmin.sol`]: ['VaultAdmin'],
      [`${VAULT}/ProtocolFeeController.sol`]: ['ProtocolFeeController'],
      [`${VAULT}/BufferRouter.sol`]: ['BufferRouter'],
      [`${VAULT}/VaultExplorer.sol`]: ['VaultExplorer'],
    },
    settings: balancerSettings(9999),
  },
  {
    name: 'vault',
    compiler: 'solc-0826',
    contracts: { [`${VAULT}/Vault.sol`]: ['Vault'], [`${VAULT}/VaultExtension.sol`]: ['VaultExtension'] },
    settings: balancerSettings(500),
  },
  {
    name: 'routers',
    compiler: 'solc-0827',
    contracts: { [`${VAULT}/Router.sol`]: ['Router'], [`${VAULT}/BatchRouter.sol`]: ['BatchRouter'] },
    settings: balancerSettings(9999),
  },
  {
    name: 'permit2',
    compiler: 'solc-0817',
    contracts: { 'permit2/src/Permit2.sol': ['Permit2'] },
    settings: {
      viaIR: true,
      evmVersion: 'london',
      optimizer: { enabled: true, runs: 1_000_000 },
      metadata: { bytecodeHash: 'none' },
    },
  },
];

export interface V3Contract {
  readonly abi: readonly unknown[];
  /** Creation bytecode, 0x-prefixed ('0x' for a contract compiled for its ABI only). */
  readonly bytecode: string;
  /** Runtime bytecode length in bytes (EIP-170 allows 24,576). */
  readonly runtimeSize: number;
}

export type V3Contracts = Readonly<Record<string, V3Contract>>;

export class V3CompileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'V3CompileError';
  }
}

/** Where compiled jobs are kept: ignored by git, removed with node_modules. */
export const V3_CACHE_DIR = join(__dirname, '..', '..', '..', 'node_modules', '.cache', 'balancer-v3-devnet');

interface PreparedJob {
  readonly job: CompileJob;
  readonly input: string;
  readonly cacheFile: string;
}

function prepare(job: CompileJob, cacheDir: string): PreparedJob {
  // Every contract's ABI (no code generation for it): with only the wanted files selected, solc
  // 0.8.27 analyses a subset and trips over the interfaces' import cycle (IVault <-> IVaultAdmin).
  const outputSelection: Record<string, Record<string, string[]>> = { '*': { '*': ['abi'] } };
  for (const [unit, names] of Object.entries(job.contracts))
    outputSelection[unit] = Object.fromEntries(
      names.map((n) => [n, ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object']]),
    );
  const input = JSON.stringify({
    language: 'Solidity',
    sources: collectSources(Object.keys(job.contracts)),
    settings: { ...job.settings, outputSelection },
  });
  const key = createHash('sha256')
    .update(`${job.compiler}@${packageVersion(job.compiler)}\n`)
    .update(input)
    .digest();
  return { job, input, cacheFile: join(cacheDir, `${job.name}-${key.toString('hex').slice(0, 16)}.json`) };
}

/** solc's standard-JSON compile in a child process: stdin the input, stdout the output. */
const CHILD = `const solc = require(process.argv[1]);
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  process.stdout.write(solc.compile(input));
  const cpu = process.cpuUsage();
  process.stderr.write(String((cpu.user + cpu.system) / 1e6));
});`;

/** solc's output and the CPU seconds it took (the wall time depends on what else the machine runs). */
function runSolc(compiler: Compiler, input: string): Promise<{ output: string; cpuSeconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD, require.resolve(compiler)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // A demo stopped with Ctrl-C mid-compile must not leave solc burning a core for minutes.
    const killChild = () => child.kill();
    process.once('exit', killChild);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      process.off('exit', killChild);
      if (code === 0)
        resolve({
          output: Buffer.concat(out).toString('utf8'),
          cpuSeconds: Number(Buffer.concat(err).toString('utf8')),
        });
      else reject(new V3CompileError(`${compiler} exited with ${code}: ${Buffer.concat(err).toString('utf8')}`));
    });
    child.stdin.end(input);
  });
}

function pick(job: CompileJob, raw: string): Record<string, V3Contract> {
  const output = JSON.parse(raw) as SolcOutput;
  const errors = solcErrors(output);
  if (errors) throw new V3CompileError(`Balancer V3 job ${job.name} does not compile:\n${errors}`);
  const contracts: Record<string, V3Contract> = {};
  for (const [unit, names] of Object.entries(job.contracts)) {
    for (const name of names) {
      const c = output.contracts?.[unit]?.[name];
      if (!c) throw new V3CompileError(`solc produced no ${name} in ${unit}`);
      contracts[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        runtimeSize: c.evm.deployedBytecode.object.length / 2,
      };
    }
  }
  return contracts;
}

function readCache(file: string): Record<string, V3Contract> | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, V3Contract>;
}

function writeCache(file: string, contracts: Record<string, V3Contract>): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(contracts));
  renameSync(tmp, file);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Longer than a compile job takes on a loaded machine (12 minutes measured with eight others busy). */
const STALE_LOCK_MS = 45 * 60_000;

/** A dead holder, or one older than any compile (its pid may since name another process). */
function staleLock(lock: string): boolean {
  try {
    const holder = Number(readFileSync(lock, 'utf8') || '0');
    return (holder > 0 && !alive(holder)) || statSync(lock).mtimeMs < Date.now() - STALE_LOCK_MS;
  } catch {
    // Gone meanwhile: the holder finished; the next round reads its cache.
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One process compiles a job at a time (two jest workers or a demo and a test may start together):
 * the others wait for its cache file, or take over once its lock's process has died.
 */
async function compileJob(prepared: PreparedJob, log: (line: string) => void): Promise<Record<string, V3Contract>> {
  const lock = `${prepared.cacheFile}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    const cached = readCache(prepared.cacheFile);
    if (cached) return cached;
    let fd: number;
    try {
      fd = openSync(lock, 'wx');
    } catch {
      if (staleLock(lock)) rmSync(lock, { force: true });
      else await sleep(500);
      continue;
    }
    try {
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      const started = Date.now();
      log(`compiling Balancer V3 ${prepared.job.name} (${prepared.job.compiler}, viaIR; cached afterwards)`);
      const { output, cpuSeconds } = await runSolc(prepared.job.compiler, prepared.input);
      const contracts = pick(prepared.job, output);
      writeCache(prepared.cacheFile, contracts);
      const wall = ((Date.now() - started) / 1000).toFixed(1);
      log(`compiled Balancer V3 ${prepared.job.name} in ${wall} s (${cpuSeconds.toFixed(1)} s of CPU)`);
      return contracts;
    } finally {
      rmSync(lock, { force: true });
    }
  }
}

export interface CompileOptions {
  readonly cacheDir?: string;
  /** Progress lines (a compile takes minutes); silent by default. */
  readonly log?: (line: string) => void;
}

/** Every V3 contract the devnet deploys, from the cache or compiled now. */
export async function compileBalancerV3(options: CompileOptions = {}): Promise<V3Contracts> {
  const log = options.log ?? (() => undefined);
  const prepared = V3_COMPILE_JOBS.map((job) => prepare(job, options.cacheDir ?? V3_CACHE_DIR));
  const out: Record<string, V3Contract> = {};
  const queue = [...prepared];
  const workers = Array.from({ length: Math.min(2, availableParallelism()) }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) Object.assign(out, await compileJob(next, log));
  });
  await Promise.all(workers);
  return out;
}

if (require.main === module) {
  const started = Date.now();
  compileBalancerV3({ log: (line) => process.stdout.write(`${line}\n`) }).then(
    (contracts) => {
      for (const [name, c] of Object.entries(contracts))
        if (c.runtimeSize > 0) process.stdout.write(`${name}: ${c.runtimeSize} bytes\n`);
      process.stdout.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    },
    (e: unknown) => {
      process.stderr.write(`${String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
