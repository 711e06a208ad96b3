import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Compiles the pool-model tests' own token contracts (an ERC-4626 vault and Aave stand-ins for the
 * linear pools) the way src/devnet/contracts/compile.ts compiles the devnet's, with the `solc` npm
 * package. The output is committed as linearTestTokens.json so a test does not spend seconds
 * compiling; `npx tsx test/domain/poolTypes/linear/contracts/compile.ts` regenerates it and a test checks it
 * is current.
 */
export interface TestArtifact {
  readonly abi: readonly unknown[];
  readonly bytecode: string;
}

export type LinearTestContract = 'TestERC4626' | 'TestLendingPool' | 'TestStaticAToken';

const SOURCE = 'LinearTestTokens.sol';
const NAMES: readonly LinearTestContract[] = ['TestERC4626', 'TestLendingPool', 'TestStaticAToken'];
export const LINEAR_TEST_TOKENS_JSON = join(__dirname, 'linearTestTokens.json');

function readImport(path: string): { contents: string } | { error: string } {
  try {
    const pkg = path.split('/').slice(0, 2).join('/');
    const root = dirname(require.resolve(`${pkg}/package.json`));
    return { contents: readFileSync(join(root, path.slice(pkg.length + 1)), 'utf8') };
  } catch (e) {
    return { error: `cannot resolve import ${path}: ${(e as Error).message}` };
  }
}

export function compileLinearTestTokens(): Record<LinearTestContract, TestArtifact> {
  const solc = require('solc') as { compile(input: string, callbacks: { import: typeof readImport }): string };
  const input = {
    language: 'Solidity',
    sources: { [SOURCE]: { content: readFileSync(join(__dirname, SOURCE), 'utf8') } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'paris',
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
    throw new Error(`test contracts do not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const pick = (name: LinearTestContract): TestArtifact => {
    const c = output.contracts?.[SOURCE]?.[name];
    if (!c) throw new Error(`solc produced no ${name}`);
    return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
  };
  return Object.fromEntries(NAMES.map((n) => [n, pick(n)])) as Record<LinearTestContract, TestArtifact>;
}

export function linearTestArtifact(name: LinearTestContract): TestArtifact {
  return (JSON.parse(readFileSync(LINEAR_TEST_TOKENS_JSON, 'utf8')) as Record<LinearTestContract, TestArtifact>)[name];
}

if (require.main === module) {
  writeFileSync(LINEAR_TEST_TOKENS_JSON, `${JSON.stringify(compileLinearTestTokens())}\n`);
  process.stdout.write(`wrote ${LINEAR_TEST_TOKENS_JSON}\n`);
}
