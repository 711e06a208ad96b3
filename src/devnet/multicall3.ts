import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MULTICALL3_ADDRESS } from '../config/chains';
import { packageVersion } from './packageVersion';

/**
 * Multicall3 on the devnet, at its canonical address, so the follower reads the devnet as it reads
 * a real chain (`sources/rpc/multicall.ts`). Its runtime code is compiled from
 * `multicall3/Multicall3.sol` with the `solc` npm package (offline, about a second) and cached
 * under node_modules/.cache keyed by a hash of the compiler and the source, never committed; it is
 * installed with `hardhat_setCode`, unless the address already has code (a fork of a real chain).
 */

const SOURCE = join(__dirname, 'multicall3', 'Multicall3.sol');
const CACHE_DIR = join(__dirname, '..', '..', 'node_modules', '.cache', 'multicall3-devnet');

interface Solc {
  compile(input: string): string;
}

/** Multicall3's runtime bytecode, 0x-prefixed. */
export function multicall3RuntimeCode(): string {
  const source = readFileSync(SOURCE, 'utf8');
  const input = JSON.stringify({
    language: 'Solidity',
    sources: { 'Multicall3.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Paris (no PUSH0), like the devnet's other contracts (src/devnet/contracts/compile.ts).
      evmVersion: 'paris',
      metadata: { bytecodeHash: 'none' },
      outputSelection: { '*': { Multicall3: ['evm.deployedBytecode.object'] } },
    },
  });
  // The package's version names its compiler: reading it skips loading solc (0.3 s) on a cache hit.
  const key = createHash('sha256').update(packageVersion('solc')).update(input).digest('hex').slice(0, 16);
  const file = join(CACHE_DIR, `Multicall3-${key}.json`);
  if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { code: string }).code;
  const solc = require('solc') as Solc;
  const output = JSON.parse(solc.compile(input)) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  const object = output.contracts?.['Multicall3.sol']?.Multicall3?.evm.deployedBytecode.object;
  if (errors.length > 0 || !object)
    throw new Error(`Multicall3 does not compile:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const code = `0x${object}`;
  mkdirSync(CACHE_DIR, { recursive: true });
  // Written whole, then renamed: a second process reading meanwhile sees no half file.
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, JSON.stringify({ code }));
  renameSync(partial, file);
  return code;
}

/** Installs Multicall3 at its canonical address on a hardhat chain, unless code is there already. */
export async function installMulticall3(provider: {
  send(method: string, params: unknown[]): Promise<unknown>;
}): Promise<void> {
  const present = await provider.send('eth_getCode', [MULTICALL3_ADDRESS, 'latest']);
  if (typeof present === 'string' && present !== '0x') return;
  await provider.send('hardhat_setCode', [MULTICALL3_ADDRESS, multicall3RuntimeCode()]);
}
