/** Minimal `--name value` parsing for the npm-run commands; unknown flags are an error. */
export function parseArgs(
  argv: readonly string[],
  allowed: readonly string[],
): { positional: string[]; flags: Map<string, string> } {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const [name, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
    if (!allowed.includes(name))
      throw new Error(`unknown option --${name} (allowed: ${allowed.map((x) => '--' + x).join(', ')})`);
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { positional, flags };
}
