import { readFileSync } from 'node:fs';
import { compileDevContracts, CONTRACTS_JSON_PATH } from '../../src/devnet/contracts/compile';

// The demo deploys the committed bytecode; it must be what the committed Solidity compiles to.
test('contracts.json is the current build of WETH9.sol and DevToken.sol (else run npm run devnet:compile)', () => {
  const committed = JSON.parse(readFileSync(CONTRACTS_JSON_PATH, 'utf8')) as unknown;
  expect(committed).toEqual(compileDevContracts());
}, 60_000);
