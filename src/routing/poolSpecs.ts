import type { SubgraphPoolBase } from '@balancer-labs/sor';
import type { PoolSpec } from '../domain/swap/poolModel';

/**
 * The routing pool shape (the SOR's `SubgraphPoolBase`, which travels to the quote threads) read
 * as the engine's `PoolSpec`. The SOR shape spreads Gyro parameters over the pool; the engine
 * keeps them together.
 */
const GYRO_FIELDS = [
  'alpha', 'beta', 'sqrtAlpha', 'sqrtBeta', 'root3Alpha', 'c', 's', 'lambda', 'tauAlphaX', 'tauAlphaY',
  'tauBetaX', 'tauBetaY', 'u', 'v', 'w', 'z', 'dSq',
] as const;

export function specFromRoutingPool(p: SubgraphPoolBase): PoolSpec {
  const flat = p as unknown as Record<string, unknown>;
  const gyro: Record<string, string> = {};
  for (const f of GYRO_FIELDS) if (typeof flat[f] === 'string') gyro[f] = flat[f];
  return {
    id: p.id,
    address: p.address,
    poolType: p.poolType,
    poolTypeVersion: p.poolTypeVersion ?? 1,
    swapFee: p.swapFee,
    totalShares: p.totalShares,
    amp: p.amp ?? null,
    swapEnabled: p.swapEnabled,
    tokens: p.tokens.map((t) => ({ address: t.address, balance: t.balance, decimals: t.decimals, weight: t.weight ?? null, priceRate: t.priceRate ?? null })),
    expiryTime: p.expiryTime ?? null,
    unitSeconds: p.unitSeconds ?? null,
    principalToken: p.principalToken ?? null,
    baseToken: p.baseToken ?? null,
    mainIndex: p.mainIndex ?? null,
    wrappedIndex: p.wrappedIndex ?? null,
    lowerTarget: p.lowerTarget ?? null,
    upperTarget: p.upperTarget ?? null,
    gyro: Object.keys(gyro).length > 0 ? gyro : null,
  };
}
