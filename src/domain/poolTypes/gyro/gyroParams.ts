import type { PoolSpecCore } from '../../swap/poolModel';
import type { ParamField } from '../paramField';

const gyro = <N extends string>(name: N) =>
  ({ name, subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' }) as const;

/**
 * Gyroscope pools' parameters (2-CLP: sqrtAlpha, sqrtBeta; 3-CLP: root3Alpha; E-CLP: alpha, beta,
 * c, s, lambda and the derived tau, u, v, w, z, dSq), stored together under the pool's `gyro` key
 * (null for every other type).
 */
export const GYRO_PARAMS = [
  gyro('alpha'),
  gyro('beta'),
  gyro('sqrtAlpha'),
  gyro('sqrtBeta'),
  gyro('root3Alpha'),
  gyro('c'),
  gyro('s'),
  gyro('lambda'),
  gyro('tauAlphaX'),
  gyro('tauAlphaY'),
  gyro('tauBetaX'),
  gyro('tauBetaY'),
  gyro('u'),
  gyro('v'),
  gyro('w'),
  gyro('z'),
  gyro('dSq'),
] as const satisfies readonly ParamField[];

export type GyroParamName = (typeof GYRO_PARAMS)[number]['name'];

/** The stored group and the engine's: decimal strings by subgraph name. */
export type GyroParams = Readonly<Partial<Record<GyroParamName, string>>>;

/** Where the group is stored on a pool. */
export const GYRO_GROUP = 'gyro';

/** The E-CLP's own (as the V3 pools subgraph's `gyroEParams` has them) and the 2-CLP's (`gyro2Params`). */
const ECLP_NAMES: ReadonlySet<string> = new Set([
  'alpha',
  'beta',
  'c',
  's',
  'lambda',
  'tauAlphaX',
  'tauAlphaY',
  'tauBetaX',
  'tauBetaY',
  'u',
  'v',
  'w',
  'z',
  'dSq',
]);
export const ECLP_PARAMS: readonly ParamField[] = GYRO_PARAMS.filter((f) => ECLP_NAMES.has(f.name));
export const TWO_CLP_PARAMS: readonly ParamField[] = GYRO_PARAMS.filter(
  (f) => f.name === 'sqrtAlpha' || f.name === 'sqrtBeta',
);

/** What the Gyro models read: the core fields and the group (null for a pool stored without it). */
export type GyroSpec = PoolSpecCore & { readonly [GYRO_GROUP]?: GyroParams | null };
