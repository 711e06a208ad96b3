import { decimalToUnits } from '../../../decimal';
import type { StoredPool } from '../../../pool';
import type { V3PoolState } from '../../../protocols/v3/vault/poolState';
import type { FixedPriceLbpState, LbpSaleState, LbpState } from './lbpV3State';

/**
 * A stored V3 LBP's sale (`v3.typeParams`: the catalogue's `lbpParams` / `fixedLBPParams`, then
 * what the pool's getters answered at the head, `lbpV3Reads.ts`) as the math's state. Throws when a
 * parameter is missing: such a pool is not quoted, with the reason in its routing status.
 */

/** The `typeParams` names an LBP's sale is stored under. */
export const LBP_PARAM = {
  projectToken: 'projectToken',
  reserveToken: 'reserveToken',
  startTime: 'startTime',
  endTime: 'endTime',
  blocked: 'isProjectTokenSwapInBlocked',
  projectStartWeight: 'projectTokenStartWeight',
  projectEndWeight: 'projectTokenEndWeight',
  reserveStartWeight: 'reserveTokenStartWeight',
  reserveEndWeight: 'reserveTokenEndWeight',
  virtualBalance: 'reserveTokenVirtualBalanceScaled18',
  migrationRouter: 'migrationRouter',
  projectTokenRate: 'projectTokenRate',
} as const;

export class MissingLbpParamError extends Error {
  override readonly name = 'MissingLbpParamError';
}

function paramsOf(pool: StoredPool): Readonly<Record<string, string>> {
  return pool.v3?.typeParams ?? {};
}

function need(pool: StoredPool, name: string): string {
  const value = paramsOf(pool)[name];
  if (value === undefined) throw new MissingLbpParamError(`LBP ${pool.id} has no ${name}`);
  return value;
}

const int = (pool: StoredPool, name: string): bigint => {
  const value = need(pool, name);
  if (!/^\d+$/.test(value)) throw new MissingLbpParamError(`LBP ${pool.id}: ${name} is not an integer (${value})`);
  return BigInt(value);
};

function indexOf(pool: StoredPool, name: string): number {
  const token = need(pool, name).toLowerCase();
  const i = pool.tokens.findIndex((t) => t.address.toLowerCase() === token);
  if (i < 0) throw new MissingLbpParamError(`LBP ${pool.id}: its ${name} ${token} is not one of its tokens`);
  return i;
}

function saleOf(pool: StoredPool, vaultState: V3PoolState): LbpSaleState {
  const router = paramsOf(pool)[LBP_PARAM.migrationRouter];
  return {
    ...vaultState,
    projectTokenIndex: indexOf(pool, LBP_PARAM.projectToken),
    reserveTokenIndex: indexOf(pool, LBP_PARAM.reserveToken),
    startTime: int(pool, LBP_PARAM.startTime),
    endTime: int(pool, LBP_PARAM.endTime),
    ...(router !== undefined ? { migrationRouter: router } : {}),
  };
}

/** The weighted LBP's state; weights per token index from the project and reserve weights. */
export function lbpStateOf(pool: StoredPool, vaultState: V3PoolState): LbpState {
  const sale = saleOf(pool, vaultState);
  const byIndex = (project: string, reserve: string): bigint[] => {
    const w = [0n, 0n];
    w[sale.projectTokenIndex] = int(pool, project);
    w[sale.reserveTokenIndex] = int(pool, reserve);
    return w;
  };
  const params = paramsOf(pool);
  const virtual = params[LBP_PARAM.virtualBalance];
  const min = pool.v3?.minTokenBalances;
  return {
    ...sale,
    isProjectTokenSwapInBlocked: need(pool, LBP_PARAM.blocked) === 'true',
    startWeights: byIndex(LBP_PARAM.projectStartWeight, LBP_PARAM.reserveStartWeight),
    endWeights: byIndex(LBP_PARAM.projectEndWeight, LBP_PARAM.reserveEndWeight),
    ...(virtual !== undefined ? { reserveTokenVirtualBalanceScaled18: int(pool, LBP_PARAM.virtualBalance) } : {}),
    ...(min !== undefined ? { minTokenBalances: min.map((b) => decimalToUnits(b, 18)) } : {}),
  };
}

/** The fixed-price LBP's state: its rate, reserve per project token (1e18). */
export function fixedPriceLbpStateOf(pool: StoredPool, vaultState: V3PoolState): FixedPriceLbpState {
  return { ...saleOf(pool, vaultState), projectTokenRate: int(pool, LBP_PARAM.projectTokenRate) };
}

/**
 * A buy-only token sale among `pools` that holds both tokens and has `sell` as its project token:
 * why an order selling it back finds no route there.
 */
export function buyOnlySale(pools: readonly StoredPool[], sell: string, buy: string): StoredPool | undefined {
  const [s, b] = [sell.toLowerCase(), buy.toLowerCase()];
  return pools.find((p) => {
    const params = p.v3?.typeParams;
    return (
      params?.[LBP_PARAM.blocked] === 'true' &&
      params[LBP_PARAM.projectToken]?.toLowerCase() === s &&
      p.tokens.some((t) => t.address.toLowerCase() === b)
    );
  });
}
