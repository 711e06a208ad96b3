import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The project's own import graph, read with the TypeScript compiler's pre-processor: static
 * imports, `import type`, re-exports, `import()` and `require()` of relative paths all count, so a
 * type-only import cannot hide a dependency. Package imports are left out (they cannot point back
 * into src/). Paths are relative to the root and use '/'.
 */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const SOURCE = /\.(ts|js)$/;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.js`, join(base, 'index.ts')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

const posix = (p: string): string => p.split(sep).join('/');

/** Reads every .ts/.js file under `root/dir` and the relative imports between them. */
export function readImportGraph(root: string, dir = 'src'): ImportGraph {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(join(root, dir))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set<string>();
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const target = resolveRelative(file, ref.fileName);
      if (target && SOURCE.test(target)) targets.add(posix(relative(root, target)));
    }
    graph.set(posix(relative(root, file)), [...targets].sort());
  }
  return graph;
}
