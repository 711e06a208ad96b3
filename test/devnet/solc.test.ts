import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface } from 'ethers';
import { buildSolidity, builtContract } from '../../src/devnet/solc';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'devnet-solc-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function source(name: string, body: string): string {
  const path = join(dir, `${name}.sol`);
  writeFileSync(path, `// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\n${body}\n`);
  return path;
}

test('builds every contract of the files, with its ABI and both codes; a changed source is a new build', () => {
  const path = source('Answer', 'contract Answer { function answer() external pure returns (uint256) { return 42; } }');
  const first = builtContract([path], 'Answer');
  expect(new Interface(first.abi as never).getFunction('answer')).not.toBeNull();
  expect(first.bytecode).toMatch(/^0x[0-9a-f]{100,}$/);
  expect(first.deployedBytecode).toMatch(/^0x[0-9a-f]{100,}$/);
  expect(first.bytecode.endsWith(first.deployedBytecode.slice(2))).toBe(true);
  source('Answer', 'contract Answer { function answer() external pure returns (uint256) { return 43; } }');
  const second = builtContract([path], 'Answer');
  expect(second.deployedBytecode).not.toBe(first.deployedBytecode);
}, 60_000);

test("a source that does not compile is an error carrying solc's message; a missing contract names itself", () => {
  const broken = source('Broken', 'contract Broken { function f( }');
  expect(() => buildSolidity([broken])).toThrow(/Solidity does not compile:[\s\S]*Broken\.sol/);
  const path = source('Other', 'contract Other {}');
  expect(() => builtContract([path], 'Missing')).toThrow('no contract Missing in Other.sol');
}, 60_000);
