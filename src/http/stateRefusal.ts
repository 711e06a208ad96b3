import type { AppContext } from '../appContext';
import { followStatusKey } from '../jobs/headFollower';
import type { StateBehindHead } from '../jobs/headGate';
import { REASONS } from './errorReasons';
import { OperationalRefusal } from './errors';

/**
 * A `StateBehindHead` as the 503 it is answered with: an operational refusal (`http/errors.ts`),
 * logged once per condition, the served block and the kind of refusal (its message without the
 * numbers that move while it lasts).
 */
export function stateBehindRefusal(
  ctx: AppContext,
  chainId: number,
  e: StateBehindHead,
  message = e.message,
): OperationalRefusal {
  const served = ctx.state.get(followStatusKey).get(chainId)?.stateBlock?.hash ?? 'none';
  return new OperationalRefusal(
    503,
    message,
    `state behind the head of chain ${chainId}`,
    `${served} ${e.message.replace(/\d+/g, '#')}`,
    { 'Retry-After': String(e.retryAfterSeconds) },
    { reason: REASONS.STATE_BEHIND_HEAD, details: { retryAfterSeconds: e.retryAfterSeconds } },
  );
}
