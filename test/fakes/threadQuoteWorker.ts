import { threadId } from 'node:worker_threads';
import type { RouteOutcome } from '../../src/routing/v2/chainRouter';
import type { QuoteTask, V3QuoteTask } from '../../src/routing/routerHost';
import { emptySwapInfo } from '../../src/routing/serialize';

/**
 * A quote worker that tells which thread answered: `tokenOut` is `<threadId>:<warm-ups this
 * thread has had>:<slices of idle work it has run>`. A quote of amount `hold` waits until the
 * first int of its `prices` buffer is set (the test holds a thread busy for as long as it likes,
 * no clock involved). Idle work (a V3 task with `prepare`) takes as many slices as its amount says.
 */
let warmUps = 0;
let slices = 0;
const slicesOf = new Map<string, number>();

export default function quote(task: QuoteTask | V3QuoteTask): RouteOutcome & { more?: boolean } {
  if (task.warmOnly) warmUps++;
  if (task.amount === 'hold') Atomics.wait(new Int32Array(task.prices), 0, 0);
  if ('prepare' in task && task.prepare) {
    slices++;
    const done = (slicesOf.get(task.sellToken) ?? 0) + 1;
    slicesOf.set(task.sellToken, done);
    return {
      info: emptySwapInfo(task.sellToken, `${threadId}:${warmUps}:${slices}`),
      more: done < Number(task.amount),
    };
  }
  return { info: emptySwapInfo(task.sellToken, `${threadId}:${warmUps}:${slices}`) };
}
