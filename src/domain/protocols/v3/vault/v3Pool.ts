import type { V3Hook } from '../hooks/hook';
import type { V3PoolMath } from '../poolMath';
import type { V3PoolState } from './poolState';

/** A V3 pool as the Vault's operations run it: the Vault's state, its type's math (at one timestamp), its hook. */
export interface V3Pool {
  readonly state: V3PoolState;
  readonly math: V3PoolMath;
  readonly hook?: V3Hook;
}
