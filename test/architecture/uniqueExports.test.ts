import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = join(__dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

/**
 * Ports of Solidity libraries. Each keeps its library's names (`mulDown`, `calculateInvariant`,
 * `MIN_INVARIANT_RATIO`), so it reads line by line beside the contract. Their callers import them
 * as a namespace or from one library only. A name they share with each other is allowed; a name
 * shared with any other module is not.
 */
const SOLIDITY_LIBRARIES: ReadonlySet<string> = new Set([
  'src/domain/swap/math/fixedPoint.ts', // FixedPoint
  'src/domain/poolTypes/gyro/gyroFixedPoint.ts', // GyroFixedPoint
  'src/domain/poolTypes/gyro/gyroSignedFixedPoint.ts', // SignedFixedPoint
  'src/domain/poolTypes/gyro/gyro2Math.ts', // Gyro2CLPMath
  'src/domain/poolTypes/gyro/gyro3Math.ts', // Gyro3CLPMath
  'src/domain/poolTypes/gyro/gyroEMath.ts', // GyroECLPMath
  'src/domain/poolTypes/stable/stableMath.ts', // V2 StableMath
  'src/domain/poolTypes/weighted/weightedMath.ts', // V2 WeightedMath
  'src/domain/poolTypes/stable/v3/stableV3Math.ts', // V3 StableMath
  'src/domain/poolTypes/weighted/v3/weightedV3Math.ts', // V3 WeightedMath
]);

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|var|class|enum|type|interface)\s+([A-Za-z_$][\w$]*)/gm;
const LOCAL_LIST = /^export\s+(?:type\s+)?\{([^}]*)\}\s*;?\s*$/gm;
const IMPORT_LIST = /^import\s+(?:type\s+)?\{([^}]*)\}\s+from/gm;

/** `a, type b as c` -> each name before and after `as`. */
const listed = (list: string): [string, string][] =>
  list
    .split(',')
    .map((part) => part.trim().replace(/^type\s+/, ''))
    .filter((part) => part !== '')
    .map((part) => {
      const [from, to] = part.split(/\s+as\s+/);
      return [from!, to ?? from!];
    });

/** Every name a file declares and exports; passing on another module's binding is not declaring it. */
function exportedNames(text: string): string[] {
  const imported = new Set([...text.matchAll(IMPORT_LIST)].flatMap((m) => listed(m[1]!).map(([, local]) => local)));
  const names = [...text.matchAll(DECLARATION)].map((m) => m[1]!);
  for (const m of text.matchAll(LOCAL_LIST))
    for (const [local, exported] of listed(m[1]!)) if (!imported.has(local)) names.push(exported);
  return names;
}

/**
 * A name means one thing across src/: two modules that export the same function, constant, class
 * or type make a reader (and an auto-import) guess which one is meant.
 */
test('no two modules in src/ export the same name', () => {
  const byName = new Map<string, string[]>();
  for (const file of files(join(ROOT, 'src'))) {
    const path = relative(ROOT, file).split(sep).join('/');
    for (const name of new Set(exportedNames(readFileSync(file, 'utf8'))))
      byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  const shared = [...byName]
    .filter(([, paths]) => paths.length > 1 && !paths.every((p) => SOLIDITY_LIBRARIES.has(p)))
    .map(([name, paths]) => `${name}: ${paths.join(', ')}`);
  expect(shared).toEqual([]);
});

test('the scan finds exports of every form it reads', () => {
  const text = [
    'export function f() {}',
    'export async function g() {}',
    'export const C = 1;',
    'export abstract class K {}',
    'export type T = number;',
    'export interface I {}',
    "import { h } from './h';",
    'export { a, b as c, type d, h };',
    "export { e } from './e';",
  ].join('\n');
  expect(exportedNames(text).sort()).toEqual(['C', 'I', 'K', 'T', 'a', 'c', 'd', 'f', 'g']);
});
