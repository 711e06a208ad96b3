import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/**
 * Folders allowed to touch the environment besides src/config/: the devnet tools are a composition
 * root of their own (`npm run demo`, the local chain the suites start), never imported by the
 * service, and hardhat is configured through environment variables.
 */
const ALLOWED = ['src/config/', 'src/devnet/'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(ts|js)$/.test(name) ? [path] : [];
  });
}

describe('configuration', () => {
  it('is read from the environment in src/config/ only', () => {
    const readers = files(join(ROOT, 'src'))
      .map((f) => relative(ROOT, f).split(sep).join('/'))
      .filter((f) => !ALLOWED.some((a) => f.startsWith(a)))
      .filter((f) =>
        /process\s*(\.\s*env\b|\[\s*['"`]env['"`]\s*\])|\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/.test(
          readFileSync(join(ROOT, f), 'utf8'),
        ),
      );
    expect(readers).toEqual([]);
  });

  it('carries no setting of the test suites', () => {
    const env = readFileSync(join(ROOT, 'src/config/env.ts'), 'utf8');
    expect(env).not.toMatch(/ENDPOINT_URL|LOCALFORK_URL|endpointUrl|localForkUrl/);
  });
});
