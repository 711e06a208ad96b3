import type { InterfaceAbi } from 'ethers';
import type { Artifact } from '../artifacts';
import type { V3Contracts } from './compile';

/** The V3 contracts the devnet deploys or talks to, by contract name. */
export type V3ContractName =
  | 'Permit2'
  | 'VaultAdmin'
  | 'VaultExtension'
  | 'ProtocolFeeController'
  | 'Vault'
  | 'Router'
  | 'BatchRouter'
  | 'BufferRouter'
  | 'VaultExplorer'
  | 'WeightedPoolFactory'
  | 'StablePoolFactory'
  | 'WeightedPool'
  | 'StablePool'
  | 'LBPoolFactory'
  | 'FixedPriceLBPoolFactory'
  | 'LBPool'
  | 'FixedPriceLBPool';

export class MissingV3ArtifactError extends Error {
  constructor(name: string) {
    super(`the Balancer V3 build has no ${name} (is src/devnet/v3/compile.ts V3_COMPILE_JOBS missing it?)`);
    this.name = 'MissingV3ArtifactError';
  }
}

export function v3Artifact(contracts: V3Contracts, name: V3ContractName): Artifact {
  const c = contracts[name];
  if (!c) throw new MissingV3ArtifactError(name);
  return { abi: c.abi as InterfaceAbi, bytecode: c.bytecode };
}

export function v3Abi(contracts: V3Contracts, name: V3ContractName): InterfaceAbi {
  return v3Artifact(contracts, name).abi;
}
