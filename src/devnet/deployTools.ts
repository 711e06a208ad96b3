import { Contract, ContractFactory, ContractTransactionResponse, Signer, TransactionRequest } from 'ethers';
import type { Artifact } from './artifacts';

/** Sending the devnet's deployment transactions: fixed gas, mined or a DeployError, contracts at their expected address. */

export class DeployError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeployError';
  }
}

/**
 * Every deployment transaction carries this gas limit (below hardhat's per-transaction cap of
 * 2^24): otherwise each of the ~110 is estimated first, which runs it on the EVM once more, and
 * the estimate fails outright for the 2023 factories' create calls (the linear factory deploys a
 * rebalancer too; a composable stable pool asks its rate providers while it is built).
 */
const DEPLOY_GAS = 15_000_000n;
export async function mined(tx: Promise<ContractTransactionResponse>, what: string) {
  const receipt = await (await tx).wait();
  if (!receipt || receipt.status !== 1) throw new DeployError(`${what}: transaction failed`);
  return receipt;
}

/** Deploys `artifact` and checks it landed at `expected` (the sender's nonce decides it). */
export async function deploy(
  signer: Signer,
  artifact: Artifact,
  args: unknown[],
  what: string,
  expected: string,
): Promise<Contract> {
  const contract = await new ContractFactory(artifact.abi, artifact.bytecode, signer).deploy(...args);
  await contract.waitForDeployment();
  const address = (await contract.getAddress()).toLowerCase();
  if (address !== expected)
    throw new DeployError(`${what} landed at ${address}, expected ${expected}: was the deployer's nonce not 0?`);
  return contract as Contract;
}

export function withFixedGas(signer: Signer): Signer {
  return new Proxy(signer, {
    get(target, prop, receiver) {
      if (prop === 'sendTransaction')
        return (tx: TransactionRequest) => target.sendTransaction({ gasLimit: DEPLOY_GAS, ...tx });
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
