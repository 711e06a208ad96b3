import type { SubgraphPoolBase } from '@balancer-labs/sor';
import type { PoolSpec } from '../domain/swap/poolModel';

/**
 * The routing pool shape (the SOR's `SubgraphPoolBase`, which travels to the quote threads) read
 * as the engine's `PoolSpec`. The SOR shape spreads Gyro parameters over the pool; the engine
 * keeps them together.
 */
const GYRO_FIELDS = [
  'alpha',
  'beta',
  'sqrtAlpha',
  'sqrtBeta',
  'root3Alpha',
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
] as const;

const stringField = (v: unknown): string | null => (typeof v === 'string' ? v : null);

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
    tokens: p.tokens.map((t) => {
      const extra = t as unknown as { oldPriceRate?: unknown; isExemptFromYieldProtocolFee?: unknown };
      return {
        address: t.address,
        balance: t.balance,
        decimals: t.decimals,
        weight: t.weight ?? null,
        priceRate: t.priceRate ?? null,
        oldPriceRate: typeof extra.oldPriceRate === 'string' ? extra.oldPriceRate : null,
        isExemptFromYieldProtocolFee:
          typeof extra.isExemptFromYieldProtocolFee === 'boolean' ? extra.isExemptFromYieldProtocolFee : null,
      };
    }),
    expiryTime: p.expiryTime ?? null,
    unitSeconds: p.unitSeconds ?? null,
    principalToken: p.principalToken ?? null,
    baseToken: p.baseToken ?? null,
    mainIndex: p.mainIndex ?? null,
    wrappedIndex: p.wrappedIndex ?? null,
    lowerTarget: p.lowerTarget ?? null,
    upperTarget: p.upperTarget ?? null,
    gyro: Object.keys(gyro).length > 0 ? gyro : null,
    lastJoinExitAmp: stringField(flat.lastJoinExitAmp),
    lastPostJoinExitInvariant: stringField(flat.lastPostJoinExitInvariant),
    protocolSwapFeeCache: stringField(flat.protocolSwapFeeCache),
    protocolYieldFeeCache: stringField(flat.protocolYieldFeeCache),
  };
}
