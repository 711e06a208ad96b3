import type { RouteOutcome } from '../../src/routing/v2/chainRouter';
import type { QuoteTask } from '../../src/routing/routerHost';
import { emptySwapInfo } from '../../src/routing/serialize';

/**
 * A quote worker whose router never ends a quote selling the token `stuck` (as the engine once
 * did on pools holding a few wei) and answers any other quote at once with no route.
 */
export default function quote(task: QuoteTask): RouteOutcome {
  if (task.sellToken === 'stuck') for (;;);
  return { info: emptySwapInfo(task.sellToken, task.buyToken) };
}
