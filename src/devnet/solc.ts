import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { packageVersion } from './packageVersion';

/**
 * The devnet's own Solidity (its tokens, Multicall3, the tests' token stand-ins), built with the
 * `solc` npm package, which carries its compiler, so this runs offline. Bytecode is never
 * committed: each set of sources is built once (a few seconds) and cached under
 * node_modules/.cache/devnet-solc, keyed by a hash of the compiler, the npm libraries the sources
 * import, and the sources. A cache hit loads no compiler. Balancer V3 has its own build
 * (`v3/compile.ts`): minutes of solc, in child processes.
 */

/** A built contract: its ABI, creation code and runtime code, both 0x-prefixed. */
export interface BuiltContract {
  readonly abi: readonly unknown[];
  readonly bytecode: string;
  readonly deployedBytecode: string;
}

const CACHE_DIR = join(__dirname, '..', '..', 'node_modules', '.cache', 'devnet-solc');
/** The npm packages the sources import from: a new version is a new build. */
const LIBRARIES = ['@openzeppelin/contracts'] as const;

const built = new Map<string, Readonly<Record<string, BuiltContract>>>();

/**
 * Every contract the given `.sol` files define, by contract name. Paris (no PUSH0), so the code
 * runs on any node a developer points LOCALFORK_URL at; no metadata hash, so the code depends on
 * the sources alone, not on file paths.
 */
export function buildSolidity(paths: readonly string[]): Readonly<Record<string, BuiltContract>> {
  const input = JSON.stringify({
    language: 'Solidity',
    sources: Object.fromEntries(paths.map((p) => [basename(p), { content: readFileSync(p, 'utf8') }])),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'paris',
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  });
  const hash = createHash('sha256').update(packageVersion('solc'));
  for (const lib of LIBRARIES) hash.update(`${lib}@${packageVersion(lib)}`);
  const key = hash.update(input).digest('hex').slice(0, 16);
  const kept = built.get(key);
  if (kept) return kept;
  const file = join(CACHE_DIR, `${key}.json`);
  const contracts = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, BuiltContract>)
    : compileAndCache(input, file);
  built.set(key, contracts);
  return contracts;
}

/** One contract of `paths`, by name; a name the files do not define is an error naming both. */
export function builtContract(paths: readonly string[], name: string): BuiltContract {
  const contract = buildSolidity(paths)[name];
  if (!contract) throw new Error(`no contract ${name} in ${paths.map((p) => basename(p)).join(', ')}`);
  return contract;
}

/** What solc's standard JSON answers, as far as the devnet reads it (this build and `v3/compile.ts`). */
export interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
}

/** solc's errors, one per line, or undefined when it reported only warnings. */
export function solcErrors(output: SolcOutput): string | undefined {
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  return errors.length > 0 ? errors.map((e) => e.formattedMessage).join('\n') : undefined;
}

function compileAndCache(input: string, file: string): Record<string, BuiltContract> {
  const solc = require('solc') as { compile(input: string, callbacks: { import: typeof readImport }): string };
  const output = JSON.parse(solc.compile(input, { import: readImport })) as SolcOutput;
  const errors = solcErrors(output);
  if (errors) throw new Error(`Solidity does not compile:\n${errors}`);
  const contracts: Record<string, BuiltContract> = {};
  for (const byName of Object.values(output.contracts ?? {}))
    for (const [name, c] of Object.entries(byName))
      contracts[name] = {
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      };
  mkdirSync(CACHE_DIR, { recursive: true });
  // Written whole, then renamed: another process reading meanwhile sees no half file.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify(contracts));
  renameSync(partial, file);
  return contracts;
}

/** Imports are npm paths such as @openzeppelin/contracts/token/ERC20/ERC20.sol. */
function readImport(path: string): { contents: string } | { error: string } {
  try {
    const pkg = path.split('/').slice(0, 2).join('/');
    const root = dirname(require.resolve(`${pkg}/package.json`));
    return { contents: readFileSync(join(root, path.slice(pkg.length + 1)), 'utf8') };
  } catch (e) {
    return { error: `cannot resolve import ${path}: ${(e as Error).message}` };
  }
}
