import type { SubgraphPoolBase } from '@balancer-labs/sor';
import type { ElementSpec } from '../../src/domain/poolTypes/element/elementParams';
import type { LinearSpec } from '../../src/domain/poolTypes/linear/linearParams';
import { loadSnapshotPools } from './snapshot';

/**
 * The mainnet snapshot's pools as the engine models read them (PoolSpec) and as the reference SOR
 * reads them (SubgraphPoolBase), for the pool-model differential tests.
 */
export type SnapshotPool = SubgraphPoolBase & { tokens: (SubgraphPoolBase['tokens'][number] & { balance: string })[] };

export function snapshotPools(filter: (poolType: string) => boolean): SnapshotPool[] {
  return (loadSnapshotPools() as SnapshotPool[]).filter((p) => filter(p.poolType));
}

const optionalInt = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));

export function toSpec(p: SnapshotPool): ElementSpec & LinearSpec {
  return {
    id: p.id,
    address: p.address,
    poolType: p.poolType,
    poolTypeVersion: p.poolTypeVersion ?? null,
    swapFee: p.swapFee,
    totalShares: p.totalShares,
    amp: p.amp ?? null,
    swapEnabled: p.swapEnabled,
    tokens: p.tokens.map((t) => ({
      address: t.address,
      balance: t.balance,
      decimals: Number(t.decimals),
      weight: t.weight ?? null,
      priceRate: t.priceRate ?? null,
    })),
    expiryTime: optionalInt(p.expiryTime),
    unitSeconds: optionalInt(p.unitSeconds),
    principalToken: p.principalToken ?? null,
    baseToken: p.baseToken ?? null,
    mainIndex: p.mainIndex ?? null,
    wrappedIndex: p.wrappedIndex ?? null,
    lowerTarget: p.lowerTarget ?? null,
    upperTarget: p.upperTarget ?? null,
  };
}

/** Raw units -> a decimal string in human units (exact). */
export function human(raw: bigint, decimals: number): string {
  const s = raw.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? s : `${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`;
}
