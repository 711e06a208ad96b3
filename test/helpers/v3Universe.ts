import { BufferModel } from '../../src/domain/protocols/v3/engine/bufferModel';
import { V3PoolModel } from '../../src/domain/protocols/v3/engine/v3PoolModel';
import type { BufferState } from '../../src/domain/protocols/v3/buffer/bufferState';
import { erc4626ByRate } from '../../src/domain/protocols/v3/buffer/erc4626';
import { stableV3Math, steadyAmp } from '../../src/domain/poolTypes/stable/v3/stableV3Pool';
import type { StableV3State } from '../../src/domain/poolTypes/stable/v3/stableV3State';
import { weightedV3Math } from '../../src/domain/poolTypes/weighted/v3/weightedV3Pool';
import type { WeightedV3State } from '../../src/domain/poolTypes/weighted/v3/weightedV3State';
import type { V3Pool } from '../../src/domain/protocols/v3/vault/v3Pool';
import { loadV3Vector, vectorVaultState } from './v3Vectors';

/**
 * A small V3 universe from the real Sepolia vectors of one block: the Weighted USDC/DAI pool, the
 * Stable stataUSDC/stataUSDT pool, and buffers for both static aTokens (their rate the pool's
 * token rate; stataUSDC's underlying is the Weighted pool's USDC, stataUSDT's an underlying named
 * here), so boosted paths of three and four steps exist.
 */
export const weightedVector = loadV3Vector('11155111-7439300-Weighted-USDC-DAI.json');
export const stableVector = loadV3Vector('11155111-7439300-Stable-stataUSDC-stataUSDT.json');

export const USDC = weightedVector.pool.tokens[0]!.toLowerCase();
export const DAI = weightedVector.pool.tokens[1]!.toLowerCase();
export const STATA_USDC = stableVector.pool.tokens[0]!.toLowerCase();
export const STATA_USDT = stableVector.pool.tokens[1]!.toLowerCase();
export const USDT = '0xaa8e23fb1079ea71e0a56f48a2aa51851d8433d0';

export function weightedPool(): V3Pool {
  const state: WeightedV3State = {
    ...vectorVaultState(weightedVector.pool),
    weights: weightedVector.pool.bigs('weights'),
  };
  return { state, math: weightedV3Math(state) };
}

export function stablePool(): V3Pool {
  const state: StableV3State = { ...vectorVaultState(stableVector.pool), amp: steadyAmp(stableVector.pool.big('amp')) };
  return { state, math: stableV3Math(state, 0n) };
}

export function bufferOf(
  wrapped: string,
  underlying: string,
  wrappedHeld: bigint,
  underlyingHeld: bigint,
): BufferState {
  return {
    wrappedToken: wrapped,
    underlyingToken: underlying,
    wrappedBalanceRaw: wrappedHeld,
    underlyingBalanceRaw: underlyingHeld,
    buffersPaused: false,
  };
}

/** The stable pool's rate of token `k`, as the wrapped token's share price. */
const stableRate = (k: number): bigint => stableVector.pool.bigs('tokenRates')[k]!;

export function v3Universe(): { weighted: V3PoolModel; stable: V3PoolModel; buffers: BufferModel[] } {
  const weighted = new V3PoolModel({ pool: weightedPool(), decimals: [6, 18], poolType: 'Weighted' });
  const stable = new V3PoolModel({ pool: stablePool(), decimals: [6, 6], poolType: 'Stable' });
  const held = 50_000n * 10n ** 6n;
  const buffers = [
    new BufferModel({
      buffer: bufferOf(STATA_USDC, USDC, held, held),
      token: erc4626ByRate(stableRate(0)),
      decimals: [6, 6],
    }),
    new BufferModel({
      buffer: bufferOf(STATA_USDT, USDT, held, held),
      token: erc4626ByRate(stableRate(1)),
      decimals: [6, 6],
    }),
  ];
  return { weighted, stable, buffers };
}
