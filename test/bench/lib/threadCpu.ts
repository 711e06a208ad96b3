import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds (user and system) of a process or thread, from its `/proc/.../stat` file. */
export function cpuSeconds(statPath: string): number {
  return statFields(readFileSync(statPath, 'utf8')).seconds;
}

/** One thread of a process: its nice value and the CPU seconds it has used. */
export interface ThreadCpu {
  readonly nice: number;
  readonly seconds: number;
}

/** Every thread of `pid` by thread id. A thread that ends while it is read is left out. */
export function threadsCpu(pid: number): Map<number, ThreadCpu> {
  const out = new Map<number, ThreadCpu>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(Number(tid), statFields(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

/** The fields after the command name, which may hold spaces and parentheses (proc(5)). */
function statFields(stat: string): ThreadCpu {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { nice: Number(fields[16]), seconds: (Number(fields[11]) + Number(fields[12])) / 100 };
}
