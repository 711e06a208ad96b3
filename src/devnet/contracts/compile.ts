import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Compiles the devnet's own Solidity (WETH9, DevToken, DevERC4626 and its Balancer V3 rate provider, the
 * Lido-shaped DevStETH and DevWstETH; Balancer V2 ships its bytecode, V3 is compiled by v3/compile.ts) with the
 * `solc` npm package, which carries its compiler, so this works offline. The output is committed
 * as contracts.json so the demo and the tests need no compiler at run time;
 * `npm run devnet:compile` regenerates it and a test checks it is current.
 */
export interface CompiledContract {
  readonly abi: readonly unknown[];
  /** Creation bytecode, 0x-prefixed. */
  readonly bytecode: string;
}

export interface CompiledContracts {
  readonly compiler: string;
  readonly contracts: {
    readonly WETH9: CompiledContract;
    readonly DevToken: CompiledContract;
    readonly DevERC4626: CompiledContract;
    readonly DevStETH: CompiledContract;
    readonly DevWstETH: CompiledContract;
    readonly DevERC4626RateProvider: CompiledContract;
  };
}

const SOURCES = [
  'WETH9.sol',
  'DevToken.sol',
  'DevERC4626.sol',
  'DevStETH.sol',
  'DevWstETH.sol',
  'DevERC4626RateProvider.sol',
] as const;
// Paris (no PUSH0) so the bytecode runs on any node a developer points LOCALFORK_URL at.
const EVM_VERSION = 'paris';

export const CONTRACTS_JSON_PATH = join(__dirname, 'contracts.json');

function readImport(path: string): { contents: string } | { error: string } {
  try {
    // Imports are npm paths such as @openzeppelin/contracts/token/ERC20/ERC20.sol.
    const pkg = path.split('/').slice(0, 2).join('/');
    const root = dirname(require.resolve(`${pkg}/package.json`));
    return { contents: readFileSync(join(root, path.slice(pkg.length + 1)), 'utf8') };
  } catch (e) {
    return { error: `cannot resolve import ${path}: ${(e as Error).message}` };
  }
}

export function compileDevContracts(): CompiledContracts {
  const solc = require('solc') as {
    compile(input: string, callbacks: { import: typeof readImport }): string;
    version(): string;
  };
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(SOURCES.map((s) => [s, { content: readFileSync(join(__dirname, s), 'utf8') }])),
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: EVM_VERSION,
      // No metadata hash: the bytecode then depends only on the source, not on file paths.
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0)
    throw new Error(`devnet contracts do not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const pick = (file: string, name: string): CompiledContract => {
    const c = output.contracts?.[file]?.[name];
    if (!c) throw new Error(`solc produced no ${name}`);
    return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  };
  return {
    compiler: solc.version(),
    contracts: {
      WETH9: pick('WETH9.sol', 'WETH9'),
      DevToken: pick('DevToken.sol', 'DevToken'),
      DevERC4626: pick('DevERC4626.sol', 'DevERC4626'),
      DevStETH: pick('DevStETH.sol', 'DevStETH'),
      DevWstETH: pick('DevWstETH.sol', 'DevWstETH'),
      DevERC4626RateProvider: pick('DevERC4626RateProvider.sol', 'DevERC4626RateProvider'),
    },
  };
}

if (require.main === module) {
  writeFileSync(CONTRACTS_JSON_PATH, `${JSON.stringify(compileDevContracts())}\n`);
  process.stdout.write(`wrote ${CONTRACTS_JSON_PATH}\n`);
}
