import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

/**
 * Solidity sources of the Balancer V3 stack as npm ships them, gathered by following imports from
 * the entry files. Source unit names are the import paths the contracts themselves use
 * (`@balancer-labs/v3-vault/contracts/Vault.sol`, `permit2/src/...`), so an interface reached from
 * two packages is one unit, as in Balancer's own build.
 */

/** Import prefix -> the installed package that holds it and the folder inside it. */
const ROOTS: readonly { readonly prefix: string; readonly pkg: string; readonly dir: string }[] = [
  { prefix: '@balancer-labs/v3-interfaces/', pkg: '@balancer-labs/v3-interfaces', dir: '' },
  { prefix: '@balancer-labs/v3-solidity-utils/', pkg: '@balancer-labs/v3-solidity-utils', dir: '' },
  { prefix: '@balancer-labs/v3-vault/', pkg: '@balancer-labs/v3-vault', dir: '' },
  { prefix: '@balancer-labs/v3-pool-utils/', pkg: '@balancer-labs/v3-pool-utils', dir: '' },
  { prefix: '@balancer-labs/v3-pool-weighted/', pkg: '@balancer-labs/v3-pool-weighted', dir: '' },
  { prefix: '@balancer-labs/v3-pool-stable/', pkg: '@balancer-labs/v3-pool-stable', dir: '' },
  // Balancer V3 builds against OpenZeppelin 5 (the repo's own contracts use 4.x under the plain name).
  { prefix: '@openzeppelin/contracts/', pkg: 'openzeppelin-contracts-5', dir: '' },
  // Permit2 is not on npm by itself; Uniswap's v4-periphery ships it with its solmate.
  { prefix: 'permit2/', pkg: '@uniswap/v4-periphery', dir: 'lib/permit2' },
  { prefix: 'solmate/', pkg: '@uniswap/v4-periphery', dir: 'lib/permit2/lib/solmate' },
];

export class SourceResolutionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceResolutionError';
  }
}

function packageRoot(pkg: string): string {
  return dirname(require.resolve(`${pkg}/package.json`));
}

/** The file on disk behind a source unit name. */
export function sourceFile(unit: string): string {
  const root = ROOTS.find((r) => unit.startsWith(r.prefix));
  if (!root) throw new SourceResolutionError(`no installed package provides ${unit}`);
  return join(packageRoot(root.pkg), root.dir, unit.slice(root.prefix.length));
}

const IMPORT = /^\s*import\s+(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm;

function importsOf(unit: string, content: string): string[] {
  const out: string[] = [];
  for (const m of content.matchAll(IMPORT)) {
    const path = m[1]!;
    out.push(path.startsWith('.') ? posix.normalize(posix.join(posix.dirname(unit), path)) : path);
  }
  return out;
}

/** Every source unit the entries need, with its content, keyed by unit name. */
export function collectSources(entries: readonly string[]): Record<string, { content: string }> {
  const sources: Record<string, { content: string }> = {};
  const pending = [...entries];
  while (pending.length > 0) {
    const unit = pending.pop()!;
    if (sources[unit]) continue;
    const content = readFileSync(sourceFile(unit), 'utf8');
    sources[unit] = { content };
    for (const next of importsOf(unit, content)) if (!sources[next]) pending.push(next);
  }
  return sources;
}
