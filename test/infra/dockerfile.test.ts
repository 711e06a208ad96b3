import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { loadConfig } from '../../src/config/env';
import { CONTAINER_PORT } from '../../infra/config';
import { imageCommand } from '../bench/lib/imageCommand';

/**
 * There is no Docker engine here, so the image is checked by reading the Dockerfile: what a
 * `docker build` would do follows from these instructions.
 */
const ROOT = join(__dirname, '..', '..');
const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');

interface Instruction {
  readonly op: string;
  readonly args: string;
}
interface Stage {
  readonly image: string;
  readonly name: string | undefined;
  readonly steps: Instruction[];
}

/** Dockerfile -> stages, with line continuations joined, comments dropped, global ARGs applied. */
function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const globalArgs = new Map<string, string>();
  const stages: Stage[] = [];
  for (const line of lines) {
    const m = /^(\w+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const op = (m[1] as string).toUpperCase();
    const args = (m[2] as string).replace(/\s+/g, ' ');
    if (op === 'ARG' && stages.length === 0) {
      const [k, v] = args.split('=');
      globalArgs.set(k as string, v ?? '');
    } else if (op === 'FROM') {
      const [image, as, name] = args.split(' ');
      const resolved = (image as string).replace(
        /\$\{(\w+)\}|\$(\w+)/g,
        (_, a: string | undefined, b: string | undefined) => globalArgs.get((a ?? b) as string) ?? '',
      );
      stages.push({ image: resolved, name: as?.toUpperCase() === 'AS' ? name : undefined, steps: [] });
    } else {
      stages[stages.length - 1]?.steps.push({ op, args });
    }
  }
  return stages;
}

const stages = parseDockerfile(read('Dockerfile'));
const final = stages[stages.length - 1] as Stage;
const build = stages.find((s) => s.steps.some((i) => i.op === 'RUN' && /npm run build/.test(i.args))) as Stage;
const pkg = JSON.parse(read('package.json')) as {
  main: string;
  scripts: Record<string, string>;
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const runs = (s: Stage) => s.steps.filter((i) => i.op === 'RUN').map((i) => i.args);

describe('Dockerfile', () => {
  it('is multi-stage on Node 22 slim images, the Node major package.json requires', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const major = /(\d+)/.exec(pkg.engines.node)?.[1];
    for (const s of stages) expect(s.image).toMatch(new RegExp(`^node:${major}(\\.[\\d.]+)?-[a-z]+-slim$`));
  });

  it('compiles in a build stage with the full dependency tree', () => {
    expect(build).toBeDefined();
    expect(build).not.toBe(final);
    expect(runs(build).some((r) => /^npm ci\b/.test(r) && !r.includes('--omit=dev'))).toBe(true);
    expect(pkg.scripts.build).toMatch(/tsc -p src\b/);
  });

  it('ships only production dependencies and the compiled output in the final stage', () => {
    const finalRuns = runs(final);
    expect(finalRuns.some((r) => /^npm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(finalRuns.some((r) => /npm (install|i)\b/.test(r) || /npm ci\b(?!.*--omit=dev)/.test(r))).toBe(false);
    expect(finalRuns.some((r) => /npm run build|tsc\b/.test(r))).toBe(false);
    const copies = final.steps.filter((i) => i.op === 'COPY').map((i) => i.args);
    expect(copies).toContain(`--from=${build.name} /app/dist ./dist`);
    // No sources or tooling: nothing from src/ or test/, no dev dependency named in a RUN.
    expect(copies.some((c) => /(^|\s)(src|test|bench)\b/.test(c.replace(/^--from=\S+\s/, '')))).toBe(false);
    for (const dev of Object.keys(pkg.devDependencies)) {
      expect(finalRuns.some((r) => r.split(' ').includes(dev))).toBe(false);
    }
  });

  it('runs as a non-root user', () => {
    const users = final.steps.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0', '0:0']).not.toContain(users[users.length - 1]);
  });

  it('starts the file the build writes: outDir + src/main.ts as .js, which is also package.json main', () => {
    // The build configuration is src/tsconfig.json; its paths are relative to src/.
    const buildCfg = JSON.parse(read('src/tsconfig.json')) as { compilerOptions: { outDir: string; rootDir: string } };
    const outDir = resolve(ROOT, 'src', buildCfg.compilerOptions.outDir);
    const rootDir = resolve(ROOT, 'src', buildCfg.compilerOptions.rootDir);
    const emitted = join(outDir, relative(rootDir, join(ROOT, 'src/main.ts'))).replace(/\.ts$/, '.js');
    const expected = relative(ROOT, emitted);
    expect(existsSync(join(ROOT, 'src/main.ts'))).toBe(true);
    const cmd = final.steps.filter((i) => i.op === 'CMD').pop();
    expect(JSON.parse(cmd?.args ?? 'null')).toEqual(['node', expected]);
    expect(pkg.main).toBe(expected);
  });

  it("is how the benches start the compiled service: the CMD's flags and every ENV of the final stage", () => {
    const cmd = JSON.parse(final.steps.filter((i) => i.op === 'CMD').pop()?.args ?? 'null') as string[];
    const image = imageCommand();
    expect(['node', ...image.args]).toEqual(cmd);
    const env = final.steps
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(Object.keys(image.env).sort()).toEqual([...env.matchAll(/(\w+)=/g)].map((m) => m[1]).sort());
    for (const [k, v] of Object.entries(image.env)) expect(env).toContain(`${k}=${v}`);
  });

  it("sets glibc's malloc tunables by their exact names, trailing underscores included", () => {
    // glibc ignores a misspelt name silently; the memory figures (docs/ARCHITECTURE.md) need these.
    const malloc = final.steps
      .filter((i) => i.op === 'ENV')
      .flatMap((i) => i.args.split(' '))
      .filter((kv) => kv.startsWith('MALLOC_'))
      .map((kv) => kv.split('='));
    expect(Object.fromEntries(malloc)).toEqual({
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: '65536',
      MALLOC_TRIM_THRESHOLD_: '1048576',
    });
    expect(malloc).toHaveLength(3);
  });

  it('listens on the port the service defaults to and the Pulumi program routes to', () => {
    const defaultPort = loadConfig({}).port;
    const env = final.steps
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(new RegExp(`\\bPORT=${defaultPort}\\b`));
    expect(final.steps.find((i) => i.op === 'EXPOSE')?.args).toBe(String(defaultPort));
    expect(CONTAINER_PORT).toBe(defaultPort);
  });
});

describe('.dockerignore', () => {
  const patterns = read('.dockerignore')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const toRegex = (p: string) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`);
  const ignored = (path: string) => patterns.some((p) => !p.startsWith('!') && toRegex(p).test(path));

  it('keeps local state, dependencies and history out of the build context', () => {
    for (const p of ['node_modules', 'data', '.git', 'dist']) expect(ignored(p)).toBe(true);
  });

  it('keeps everything the Dockerfile copies from the context, and those files exist', () => {
    const sources = stages
      .flatMap((s) => s.steps)
      .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))
      .flatMap((i) => i.args.split(' ').slice(0, -1));
    expect(sources.length).toBeGreaterThan(0);
    for (const src of sources) {
      expect(existsSync(join(ROOT, src))).toBe(true);
      expect(ignored(src)).toBe(false);
    }
  });
});
