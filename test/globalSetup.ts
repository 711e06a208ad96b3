import { devArtifact } from '../src/devnet/artifacts';
import { multicall3RuntimeCode } from '../src/devnet/multicall3';
import { compileBalancerV3 } from '../src/devnet/v3/compile';
import { linearTestArtifact } from './domain/poolTypes/linear/contracts/linearTestTokens';

/**
 * Every devnet a test deploys carries Balancer V3, built from Solidity (src/devnet/v3/compile.ts):
 * minutes of solc the first time after a fresh install, a cache read after that. Done once here,
 * before any test file starts, so no test's setup timeout has to cover a compile. The devnet's own
 * contracts and the linear tests' tokens (src/devnet/solc.ts, seconds) are built here too, so the
 * test workers do not each build them at once.
 */
export default async function globalSetup(): Promise<void> {
  devArtifact('WETH9');
  multicall3RuntimeCode();
  linearTestArtifact('TestERC4626');
  await compileBalancerV3({ log: (line) => process.stderr.write(`${line}\n`) });
}
