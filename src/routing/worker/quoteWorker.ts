import { getPriority, setPriority } from 'node:os';
import { RouterHost, type HostTask, type OutcomeOf } from '../routerHost';

/**
 * How much lower than the main thread a quote thread runs (a nice value). The main thread parses,
 * looks up, serializes and answers `/healthz`: on a machine whose cores the quote threads fill
 * (a saturating load, the next block built ahead), it would otherwise wait its turn behind them.
 * A thread that is alone on its core loses nothing: the kernel only weighs runnable threads.
 */
const QUOTE_THREAD_NICE = 10;
/** The lowest priority a nice value can name. */
const LOWEST = 19;

// Linux applies a nice value to the calling thread alone (`setpriority(2)`, who = 0). Where the
// system refuses it (a sandbox without the call), the thread runs at the process's priority.
try {
  setPriority(0, Math.min(LOWEST, getPriority(0) + QUOTE_THREAD_NICE));
} catch {
  // Left at the process's priority.
}

/** Piscina worker entry: one router host per worker thread, kept across tasks (V2 and V3 quotes). */
const host = new RouterHost();

export default function quote(task: HostTask): Promise<OutcomeOf<HostTask>> {
  return host.run(task);
}

/** Answered once the thread runs this module (`QuoteExecutor.ready`). */
export function ready(): true {
  return true;
}
