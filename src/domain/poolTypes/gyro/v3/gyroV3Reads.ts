import { unitsToDecimal } from '../../../decimal';
import type { StoredPool } from '../../../pool';
import { AT_POOL, chainCall, getter, structGetter, type ChainReads } from '../../chainReads';
import type { GyroParamName, GyroParams } from '../gyroParams';

/**
 * What the V3 Gyro pools read at the head beside the Vault reads: their immutable parameters,
 * from the pool's own getter, which replace the subgraph's (it keeps 34 significant digits, so a
 * derived E-CLP parameter can miss the contract's in its last digits). Nothing moves with time and
 * no event changes them: a pool is read again only when the Vault's logs name it.
 */
type GyroDraft = { params?: GyroParams };

// `getECLPParams()`: EclpParams (alpha, beta, c, s, lambda: 18 decimals) then DerivedEclpParams
// (tauAlpha x and y, tauBeta x and y, u, v, w, z, dSq: 38 decimals), every field an int256.
const GET_ECLP_PARAMS = getter(
  'getECLPParams',
  [],
  [
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
    'int256',
  ],
);
const ECLP_FIELDS: readonly (readonly [GyroParamName, number])[] = [
  ['alpha', 18],
  ['beta', 18],
  ['c', 18],
  ['s', 18],
  ['lambda', 18],
  ['tauAlphaX', 38],
  ['tauAlphaY', 38],
  ['tauBetaX', 38],
  ['tauBetaY', 38],
  ['u', 38],
  ['v', 38],
  ['w', 38],
  ['z', 38],
  ['dSq', 38],
];

// `getGyro2CLPPoolImmutableData()`: tokens, scaling factors, sqrtAlpha, sqrtBeta (18 decimals).
const GET_2CLP_IMMUTABLE_DATA = structGetter(
  'getGyro2CLPPoolImmutableData',
  [],
  ['address[]', 'uint256[]', 'uint256', 'uint256'],
);

function gyroReads(
  first: ChainReads<GyroParams | undefined, GyroDraft>['first'],
): ChainReads<GyroParams | undefined, GyroDraft, undefined> {
  return {
    events: [],
    draft: () => ({}),
    first,
    finish: (d) => d.params,
    apply: (pool, s): StoredPool => (s === undefined ? pool : { ...pool, gyro: { ...pool.gyro, ...s } }),
  };
}

export const GYRO_ECLP_V3_CHAIN = gyroReads(() => [
  chainCall(AT_POOL, GET_ECLP_PARAMS, [], (d: GyroDraft, values) => {
    d.params = Object.fromEntries(
      ECLP_FIELDS.map(([name, decimals], i) => [name, unitsToDecimal(values[i]!, decimals)]),
    );
  }),
]);

export const GYRO_2CLP_V3_CHAIN = gyroReads(() => [
  chainCall(AT_POOL, GET_2CLP_IMMUTABLE_DATA, [], (d: GyroDraft, [, , sqrtAlpha, sqrtBeta]) => {
    d.params = { sqrtAlpha: unitsToDecimal(sqrtAlpha, 18), sqrtBeta: unitsToDecimal(sqrtBeta, 18) };
  }),
]);
