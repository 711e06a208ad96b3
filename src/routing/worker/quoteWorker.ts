import type { RouteOutcome } from '../chainRouter';
import { RouterHost, type QuoteTask } from '../routerHost';

/** Piscina worker entry: one router host per worker thread, kept across tasks. */
const host = new RouterHost();

export default function quote(task: QuoteTask): Promise<RouteOutcome> {
  return host.quote(task);
}

/** Answered once the thread runs this module (`QuoteExecutor.ready`). */
export function ready(): true {
  return true;
}
