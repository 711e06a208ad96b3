import { RouterHost, type HostTask, type OutcomeOf } from '../routerHost';

/** Piscina worker entry: one router host per worker thread, kept across tasks (V2 and V3 quotes). */
const host = new RouterHost();

export default function quote(task: HostTask): Promise<OutcomeOf<HostTask>> {
  return host.run(task);
}

/** Answered once the thread runs this module (`QuoteExecutor.ready`). */
export function ready(): true {
  return true;
}
