import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAddress } from '../../src/domain/address';

/**
 * The real mainnet pools snapshot, kept beside the clone (not in the repository: it is large);
 * suites that need it skip with a message when it is absent.
 */
export const SNAPSHOT_FILE = join(
  __dirname,
  '..',
  '..',
  '..',
  'shared',
  'data',
  'balancer-v2-mainnet-block-14717479.pools.json',
);
export const HAS_SNAPSHOT = existsSync(SNAPSHOT_FILE);

let cached: unknown[] | undefined;
export function loadSnapshotPools(): unknown[] {
  cached ??= JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8')) as unknown[];
  return structuredClone(cached);
}

/** Runs the suite when the snapshot is there, else skips it saying why. (A function, so benchmarks can import this module outside Jest.) */
export function describeWithSnapshot(name: string, fn: () => void): void {
  if (HAS_SNAPSHOT) describe(name, fn);
  else describe.skip(`${name} (skipped: ${SNAPSHOT_FILE} is absent; clone the project with ../shared beside it)`, fn);
}

export const MAINNET = {
  WETH: parseAddress('0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'),
  DAI: parseAddress('0x6b175474e89094c44da98b954eedeac495271d0f'),
  USDC: parseAddress('0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'),
  USDT: parseAddress('0xdac17f958d2ee523a2206206994597c13d831ec7'),
  WBTC: parseAddress('0x2260fac5e5542a773aa44fbcfedf7c193bc2c599'),
  BAL: parseAddress('0xba100000625a3754423978a60c9317c58a424e3d'),
  wstETH: parseAddress('0x7f39c581f595b53c5cb19bd0b3f8da6c935e2ca0'),
};
