import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REASONS } from '../../src/http/errorReasons';

/**
 * Every reason a client can meet is asserted by a test that provokes it through the running
 * service: its name, quoted, appears in a test file that starts the service (`startTestServer`).
 * The mapping's unit test and this file do not count. A new reason without such a test fails here.
 */

type ReasonName = keyof typeof REASONS;

/**
 * Reasons the code emits but no request can provoke, and why. Each stays in the list (a published
 * reason is never removed) and answers as docs/api.md says should the guard ever fire. Once a test
 * provokes one, its line here must go.
 */
const UNREACHABLE: Partial<Record<ReasonName, string>> = {
  LOADING:
    'startServer listens only once the read model has loaded every enabled chain, and a snapshot is never dropped, so loadedSnapshot and GraphQL NOT_READY never meet an unloaded chain',
  LIMIT_NOT_MET:
    "request validation keeps slippage below 1, and the engines keep every amount within the Vaults' balances (112 bits in V2, 128 in V3), so no quoted route overflows the Vault's int256 limits or Permit2's 160-bit allowance",
};

const TEST_ROOT = join(__dirname, '..');
const NOT_COUNTED = new Set([join(__dirname, 'errorReasons.test.ts'), __filename]);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return e.name.endsWith('.test.ts') && !NOT_COUNTED.has(path) ? [path] : [];
  });
}

const serverTests = testFiles(TEST_ROOT)
  .map((path) => ({ path: relative(TEST_ROOT, path), text: readFileSync(path, 'utf8') }))
  .filter((f) => f.text.includes('startTestServer'));

function assertedIn(name: string): string[] {
  const quoted = new RegExp(`['"\`]${name}['"\`]`);
  return serverTests.filter((f) => quoted.test(f.text)).map((f) => f.path);
}

const names = Object.keys(REASONS) as ReasonName[];

test('every reason is named once in REASONS, as its own value', () => {
  expect(names.filter((n) => REASONS[n] !== n)).toEqual([]);
});

test.each(names.filter((n) => UNREACHABLE[n] === undefined))(
  '%s is asserted by a test of the running service',
  (name) => {
    expect({ name, files: assertedIn(name) }).toEqual({ name, files: expect.arrayContaining([expect.any(String)]) });
  },
);

test.each(names.filter((n) => UNREACHABLE[n] !== undefined))(
  '%s cannot be provoked; no test asserts it yet',
  (name) => {
    expect(UNREACHABLE[name]).toMatch(/\S/);
    expect({ name, files: assertedIn(name) }).toEqual({ name, files: [] });
  },
);
