import { readFileSync } from 'node:fs';
import { compileLinearTestTokens, LINEAR_TEST_TOKENS_JSON } from './contracts/compile';

// The linear-pool chain tests deploy the committed bytecode; it must be what the Solidity compiles to.
test('linearTestTokens.json is the current build of LinearTestTokens.sol (else run npx tsx test/domain/poolTypes/linear/contracts/compile.ts)', () => {
  expect(JSON.parse(readFileSync(LINEAR_TEST_TOKENS_JSON, 'utf8'))).toEqual(compileLinearTestTokens());
}, 60_000);
