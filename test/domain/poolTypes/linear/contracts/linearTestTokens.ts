import { join } from 'node:path';
import { builtContract, type BuiltContract } from '../../../../../src/devnet/solc';

/**
 * The linear pool tests' own tokens (an ERC-4626 vault and Aave stand-ins), built from
 * `LinearTestTokens.sol` on first use like the devnet's contracts (src/devnet/solc.ts: cached,
 * never committed).
 */
export type LinearTestContract = 'TestERC4626' | 'TestLendingPool' | 'TestStaticAToken';

export function linearTestArtifact(name: LinearTestContract): BuiltContract {
  return builtContract([join(__dirname, 'LinearTestTokens.sol')], name);
}
