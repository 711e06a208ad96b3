import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { WorkerExecutor } from '../../../src/routing/quoteExecutor';

/** Each thread of this process and its nice value (`/proc/<pid>/task/<tid>/stat`, field 19). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(tid), Number(fields[16]));
  }
  return out;
}

// The kernel weighs runnable threads by nice value: a quote thread below the main thread leaves it
// the core it needs to answer `/healthz` and serialize while quotes fill the others.
describe('quote threads', () => {
  const linux = process.platform === 'linux';
  (linux ? test : test.skip)('run at a lower priority than the main thread, which keeps its own', async () => {
    const main = getPriority(0);
    const before = threadNices();
    const executor = new WorkerExecutor(2);
    try {
      await executor.ready();
      const started = [...threadNices()].filter(([tid]) => !before.has(tid));
      const lowered = started.filter(([, nice]) => nice === Math.min(19, main + 10));
      expect(lowered).toHaveLength(2);
      expect(getPriority(0)).toBe(main);
      expect(threadNices().get(process.pid)).toBe(main);
    } finally {
      await executor.close();
    }
  });
});
