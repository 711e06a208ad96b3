import { threadId } from 'node:worker_threads';
import type { RouteOutcome } from '../../src/routing/chainRouter';
import type { QuoteTask } from '../../src/routing/routerHost';
import { emptySwapInfo } from '../../src/routing/serialize';

/**
 * A quote worker that tells which thread answered: `tokenOut` is `<threadId>:<warm-ups this
 * thread has had>`. A quote of amount `hold` waits until the first int of its `prices` buffer is
 * set (the test holds a thread busy for as long as it likes, no clock involved).
 */
let warmUps = 0;

export default function quote(task: QuoteTask): RouteOutcome {
  if (task.warmOnly) warmUps++;
  if (task.amount === 'hold') Atomics.wait(new Int32Array(task.prices), 0, 0);
  return { info: emptySwapInfo(task.sellToken, `${threadId}:${warmUps}`) };
}
