import { join } from 'node:path';
import { MULTICALL3_ADDRESS } from '../config/chains';
import { builtContract } from './solc';

/**
 * Multicall3 on the devnet, at its canonical address, so the follower reads the devnet as it reads
 * a real chain (`sources/rpc/multicall.ts`). Its runtime code is built from
 * `multicall3/Multicall3.sol` (`solc.ts`: cached, never committed) and installed with
 * `hardhat_setCode`, unless the address already has code (a fork of a real chain).
 */

/** Multicall3's runtime bytecode, 0x-prefixed. */
export function multicall3RuntimeCode(): string {
  return builtContract([join(__dirname, 'multicall3', 'Multicall3.sol')], 'Multicall3').deployedBytecode;
}

/** Installs Multicall3 at its canonical address on a hardhat chain, unless code is there already. */
export async function installMulticall3(provider: {
  send(method: string, params: unknown[]): Promise<unknown>;
}): Promise<void> {
  const present = await provider.send('eth_getCode', [MULTICALL3_ADDRESS, 'latest']);
  if (typeof present === 'string' && present !== '0x') return;
  await provider.send('hardhat_setCode', [MULTICALL3_ADDRESS, multicall3RuntimeCode()]);
}
