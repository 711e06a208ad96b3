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
 * Every error class names itself: logs, the error tracker and `String(error)` then say which
 * error it is rather than `Error`. Read from the source: a class whose name ends in Error, or that
 * extends one, sets `name` to its own name in its body.
 */
test('every error class in src/ sets its name', () => {
  const unnamed: string[] = [];
  for (const file of files(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/class (\w+) extends (\w+)(?:<[^>{]*>)? \{/g)) {
      const [, cls, base] = m;
      if (!/Error$/.test(base!) && !/Error$/.test(cls!)) continue;
      const body = text.slice(m.index + m[0].length, m.index + m[0].length + 400);
      if (!body.includes(`name: string = '${cls}'`) && !body.includes(`name = '${cls}'`))
        unnamed.push(`${relative(ROOT, file).split(sep).join('/')}: ${cls}`);
    }
  }
  expect(unnamed).toEqual([]);
});
