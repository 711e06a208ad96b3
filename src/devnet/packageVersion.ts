import { readFileSync } from 'node:fs';

/** An installed npm package's version, read from its package.json without loading the package. */
export function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string }).version;
}
