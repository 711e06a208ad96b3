import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `npm run bench [-- name ...]`: runs every `bench/*.bench.ts` (or the named ones) one after the
 * other, each printing its own figures. Benchmarks measure; they never fail on a target, they
 * print the target next to the figure.
 */
interface BenchModule {
  run(): Promise<void>;
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const files = readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()
    .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)));
  if (files.length === 0) throw new Error(`no benchmark matches ${wanted.join(', ')}`);
  for (const f of files) {
    process.stdout.write(`\n=== ${f.replace('.bench.ts', '')} ===\n`);
    const mod = (await import(join(__dirname, f))) as BenchModule;
    await mod.run();
  }
}

main().then(
  () => process.exit(0),
  (e: Error) => {
    process.stderr.write(`bench failed: ${e.stack ?? e.message}\n`);
    process.exit(1);
  },
);
