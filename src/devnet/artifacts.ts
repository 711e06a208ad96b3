import { join } from 'node:path';
import type { InterfaceAbi } from 'ethers';
import { builtContract } from './solc';

/**
 * Creation bytecode and ABIs of everything the devnet deploys: the real Balancer V2 contracts from
 * @balancer-labs/v2-deployments (the audited builds, not recompiled) and our own WETH9, DevToken
 * and DevERC4626.
 */
export interface Artifact {
  readonly abi: InterfaceAbi;
  readonly bytecode: string;
}

/** Contract name -> deployment task that ships its build. */
const BALANCER_TASKS = {
  Authorizer: '20210418-authorizer',
  Vault: '20210418-vault',
  ProtocolFeePercentagesProvider: '20220725-protocol-fee-percentages-provider',
  WeightedPoolFactory: '20220908-weighted-pool-v2',
  ComposableStablePoolFactory: '20230206-composable-stable-pool-v3',
  ComposableStablePool: '20230206-composable-stable-pool-v3',
  StablePoolFactory: '20220609-stable-pool-v2',
  ERC4626LinearPoolFactory: '20230206-erc4626-linear-pool-v3',
  BalancerQueries: '20220721-balancer-queries',
  BatchRelayerLibrary: '20220916-batch-relayer-v4',
  NoProtocolFeeLiquidityBootstrappingPoolFactory: '20211202-no-protocol-fee-lbp',
} as const;

export type BalancerContract = keyof typeof BALANCER_TASKS;

/** ABIs without a full artifact in the package (contracts created by other contracts). */
const BALANCER_ABIS = {
  WeightedPool: '20220908-weighted-pool-v2/abi/WeightedPool.json',
  BalancerRelayer: '20220916-batch-relayer-v4/abi/BalancerRelayer.json',
} as const;

export function balancerArtifact(name: BalancerContract): Artifact {
  const a = require(`@balancer-labs/v2-deployments/dist/tasks/${BALANCER_TASKS[name]}/artifact/${name}.json`) as {
    abi: InterfaceAbi;
    bytecode: string;
  };
  return { abi: a.abi, bytecode: a.bytecode };
}

export function balancerAbi(name: BalancerContract | keyof typeof BALANCER_ABIS): InterfaceAbi {
  if (name in BALANCER_ABIS)
    return require(
      `@balancer-labs/v2-deployments/dist/tasks/${BALANCER_ABIS[name as keyof typeof BALANCER_ABIS]}`,
    ) as InterfaceAbi;
  return balancerArtifact(name as BalancerContract).abi;
}

/** The first weighted pool factory (2021) ships as abi/ + bytecode/ only. */
export function weightedPoolFactoryV1(): Artifact {
  const base = '@balancer-labs/v2-deployments/dist/tasks/20210418-weighted-pool';
  const abi = require(`${base}/abi/WeightedPoolFactory.json`) as InterfaceAbi;
  const { creationCode } = require(`${base}/bytecode/WeightedPoolFactory.json`) as { creationCode: string };
  return { abi, bytecode: creationCode.startsWith('0x') ? creationCode : `0x${creationCode}` };
}

/** The devnet's own contracts, each in its file under `contracts/`. */
export type DevContract = 'WETH9' | 'DevToken' | 'DevERC4626' | 'DevStETH' | 'DevWstETH' | 'DevERC4626RateProvider';

const DEV_SOURCES = [
  'WETH9.sol',
  'DevToken.sol',
  'DevERC4626.sol',
  'DevStETH.sol',
  'DevWstETH.sol',
  'DevERC4626RateProvider.sol',
].map((file) => join(__dirname, 'contracts', file));

/** Built from the Solidity beside this file on first use (`solc.ts`: cached, never committed). */
export function devArtifact(name: DevContract): Artifact {
  const c = builtContract(DEV_SOURCES, name);
  return { abi: c.abi as InterfaceAbi, bytecode: c.bytecode };
}

/** Any contract a deployment task ships with a full artifact, by task and contract name. */
export function deploymentArtifact(task: string, name: string): Artifact {
  const a = require(`@balancer-labs/v2-deployments/dist/tasks/${task}/artifact/${name}.json`) as {
    abi: InterfaceAbi;
    bytecode: string;
  };
  return { abi: a.abi, bytecode: a.bytecode };
}
