import type { V3PoolState } from '../../../protocols/v3/vault/poolState';
import type { AmpRamp } from '../stableAmp';

/**
 * A V3 StablePool: the Vault's state plus its amplification state (`getAmplificationState`:
 * values with the 1000 precision, a ramp when start and end differ).
 *
 * Two builds are deployed. The launch pools (task 20241205-v3-stable-pool and its successors)
 * take any balances. The rebuilt pool of the npm 1.0.0 sources (2026) refuses an operation whose
 * balances, before or after, have a largest-to-smallest ratio of `maxImbalanceRatio` (10,000) or
 * more; set it for those pools only.
 */
export interface StableV3State extends V3PoolState {
  readonly amp: AmpRamp;
  readonly maxImbalanceRatio?: bigint;
}
