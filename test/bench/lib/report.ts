/** One printed line per figure: value, unit, target and whether it was met. */
export function figure(name: string, value: number, unit: string, target?: { op: '<' | '>='; value: number }): void {
  const v = value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
  let line = `${name.padEnd(48)} ${v.padStart(10)} ${unit}`;
  if (target) {
    const ok = target.op === '<' ? value < target.value : value >= target.value;
    line += `   (target ${target.op} ${target.value} ${unit}: ${ok ? 'met' : 'NOT met'})`;
  }
  process.stdout.write(`${line}\n`);
}
