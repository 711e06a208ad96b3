import { compileBalancerV3 } from '../src/devnet/v3/compile';

/**
 * Every devnet a test deploys carries Balancer V3, built from Solidity (src/devnet/v3/compile.ts):
 * minutes of solc the first time after a fresh install, a cache read after that. Done once here,
 * before any test file starts, so no test's setup timeout has to cover a compile.
 */
export default async function globalSetup(): Promise<void> {
  await compileBalancerV3({ log: (line) => process.stderr.write(`${line}\n`) });
}
