import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How the image starts the service, read from the Dockerfile's last stage: its `ENV` settings and
 * its `CMD`. Benches that measure the compiled service start it the same way, so their figures
 * (memory above all) are the ones production gets.
 */
export interface ImageCommand {
  /** The `CMD` after `node`: Node flags, then the entry script (relative to the repository). */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export function imageCommand(dockerfile = join(__dirname, '..', '..', '..', 'Dockerfile')): ImageCommand {
  // Continuation lines joined, comments dropped, then only the runtime (last) stage.
  const lines = readFileSync(dockerfile, 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const stage = lines.slice(lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true));
  const env: Record<string, string> = {};
  let cmd: string[] | undefined;
  for (const line of stage) {
    const [, word, rest] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (word?.toUpperCase() === 'ENV')
      for (const [, k, v] of rest!.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g))
        env[k!] = v!.replace(/^"|"$/g, '');
    if (word?.toUpperCase() === 'CMD') cmd = JSON.parse(rest!) as string[];
  }
  if (!cmd || cmd[0] !== 'node') throw new Error(`${dockerfile}: expected CMD ["node", ...] in the last stage`);
  return { args: cmd.slice(1), env };
}
