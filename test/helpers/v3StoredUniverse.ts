import type { Address } from '../../src/domain/address';
import { unitsToDecimal } from '../../src/domain/decimal';
import { emptyMeta, type StoredPool } from '../../src/domain/pool';
import type { StoredBuffer, StoredV3VaultState } from '../../src/domain/protocols/v3/stored/storedV3';
import { ChainSnapshot } from '../../src/readModel/chainSnapshot';
import { storedPool } from './poolFixtures';
import { STATA_USDC, STATA_USDT, USDC, USDT, stableVector, weightedVector } from './v3Universe';
import type { V3Vector } from './v3Vectors';

/**
 * The V3 universe of `v3Universe.ts` as the catalogue and follower store it: the two Sepolia
 * vector pools as stored V3 pools (raw balances in token decimals, undone from the vector's live
 * balances) and the two buffers as stored buffers, in a chain snapshot at the vectors' block.
 */

const VAULT_STATE: StoredV3VaultState = {
  aggregateSwapFee: '0',
  aggregateYieldFee: '0',
  paysYieldFees: [false, false],
  lastLiveBalances: null,
  supportsUnbalancedLiquidity: true,
  hook: null,
};

function storedFromVector(vector: V3Vector, poolType: string, extra: Partial<StoredPool>): StoredPool {
  const p = vector.pool;
  const factors = p.bigs('scalingFactors');
  const rates = p.bigs('tokenRates');
  const live = p.bigs('balancesLiveScaled18');
  const weights = p.has('weights') ? p.bigs('weights') : undefined;
  return storedPool({
    id: p.poolAddress.toLowerCase(),
    address: p.poolAddress.toLowerCase() as Address,
    poolType,
    protocolVersion: 3,
    swapFee: unitsToDecimal(p.big('swapFee'), 18),
    totalShares: unitsToDecimal(p.big('totalSupply'), 18),
    tokens: p.tokens.map((address, i) => {
      const decimals = 18 - (factors[i]!.toString().length - 1);
      return {
        address: address.toLowerCase() as Address,
        symbol: null,
        name: null,
        decimals,
        balance: unitsToDecimal((live[i]! * 10n ** 18n) / (factors[i]! * rates[i]!), decimals),
        weight: weights ? unitsToDecimal(weights[i]!, 18) : null,
        priceRate: unitsToDecimal(rates[i]!, 18),
      };
    }),
    v3: VAULT_STATE,
    ...extra,
  });
}

function storedBuffer(wrapped: string, underlying: string, rate: bigint): StoredBuffer {
  const held = (50_000n * 10n ** 6n).toString();
  return {
    wrappedToken: wrapped,
    underlyingToken: underlying,
    underlyingBalance: held,
    wrappedBalance: held,
    buffersPaused: false,
    token: {
      conversion: 'rate',
      rate: rate.toString(),
      maxDeposit: (2n ** 255n).toString(),
      maxMint: (2n ** 255n).toString(),
      maxRedeem: (2n ** 255n).toString(),
      maxWithdraw: (2n ** 255n).toString(),
    },
  };
}

export function v3StoredPools(): StoredPool[] {
  return [
    storedFromVector(weightedVector, 'Weighted', {}),
    storedFromVector(stableVector, 'Stable', { amp: unitsToDecimal(stableVector.pool.big('amp'), 3) }),
  ];
}

export function v3StoredBuffers(): Map<string, StoredBuffer> {
  const rates = stableVector.pool.bigs('tokenRates');
  return new Map([
    [STATA_USDC, storedBuffer(STATA_USDC, USDC, rates[0]!)],
    [STATA_USDT, storedBuffer(STATA_USDT, USDT, rates[1]!)],
  ]);
}

/** A snapshot of chain `chainId` at the vectors' block holding `extra` pools beside the V3 universe. */
export function v3Snapshot(chainId: number, extra: readonly StoredPool[] = []): ChainSnapshot {
  return new ChainSnapshot({
    chainId,
    meta: emptyMeta(chainId),
    pools: [...extra, ...v3StoredPools()],
    tokens: [],
    loadedAt: 0,
    block: {
      number: Number(weightedVector.pool.blockNumber),
      hash: `0x${'ab'.repeat(32)}`,
      parentHash: `0x${'aa'.repeat(32)}`,
      timestamp: 1_740_000_000,
    },
    buffers: v3StoredBuffers(),
  });
}

/** The inputs a snapshot was built from, to build the next block's snapshot with other pools. */
export function snapshotInput(snap: ChainSnapshot): ConstructorParameters<typeof ChainSnapshot>[0] {
  return {
    chainId: snap.chainId,
    meta: snap.meta,
    pools: snap.pools,
    tokens: snap.tokens,
    loadedAt: snap.loadedAt,
    block: snap.block,
    buffers: snap.buffers,
  };
}
