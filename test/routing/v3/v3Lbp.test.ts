import { CHAINS } from '../../../src/config/chains';
import { normalizePool } from '../../../src/domain/normalizePool';
import { ChainSnapshot } from '../../../src/readModel/chainSnapshot';
import type { StoredPool } from '../../../src/domain/pool';
import { v3PoolOf } from '../../../src/domain/poolTypes/v3PoolOf';
import { vaultSwap } from '../../../src/domain/protocols/v3/vault/swap';
import type { QuoteRequest } from '../../../src/routing/types';
import { V3Router } from '../../../src/routing/v3/v3Router';
import { USDC } from '../../helpers/v3Universe';
import { snapshotInput, v3Snapshot } from '../../helpers/v3StoredUniverse';

/**
 * `/sor`'s V3 answer with a weighted LBP beside the V3 universe: a buy of the project token goes
 * through the sale at the weights of the quote's timestamp, exactly as the V3 Vault prices it;
 * outside its window there is no route.
 */
const SEPOLIA = CHAINS.find((c) => c.id === 11155111)!;
const PROJECT = `0x${'0a'.repeat(20)}`;
const LBP = `0x${'1b'.repeat(20)}`;
const START = 1_740_000_000;
const END = START + 86_400;

function lbp(): StoredPool {
  const normalized = normalizePool({
    protocolVersion: 3,
    address: LBP,
    poolType: 'LBP',
    poolTypeVersion: 1,
    swapFee: '0.01',
    totalShares: '100',
    tokens: [
      { address: PROJECT, index: 0, symbol: 'PRJ', decimals: 18, balance: '1000000', paysYieldFees: false },
      { address: USDC, index: 1, symbol: 'USDC', decimals: 6, balance: '50000', paysYieldFees: false },
    ],
    hookConfig: { hook: { address: LBP }, shouldCallBeforeAddLiquidity: true, shouldCallBeforeRemoveLiquidity: true },
    typeParams: {
      startTime: String(START),
      endTime: String(END),
      isProjectTokenSwapInBlocked: 'false',
      projectToken: PROJECT,
      reserveToken: USDC,
      projectTokenStartWeight: '900000000000000000',
      projectTokenEndWeight: '300000000000000000',
      reserveTokenStartWeight: '100000000000000000',
      reserveTokenEndWeight: '700000000000000000',
    },
  });
  if (!normalized.ok) throw new Error(normalized.error);
  return normalized.pool as StoredPool;
}

const request = (over: Partial<QuoteRequest>): QuoteRequest => ({
  sellToken: USDC,
  buyToken: PROJECT,
  orderKind: 'sell',
  amount: 1_000n * 10n ** 6n,
  gasPrice: 0n,
  minLiquidityUsd: 0,
  ...over,
});

test('a buy of the project token goes through the sale at the quote time, as the V3 Vault prices it', () => {
  const snap = v3Snapshot(SEPOLIA.id, [lbp()]);
  const at = START + 43_200;
  const { info } = new V3Router().quote(SEPOLIA, snap, request({}), at);
  expect(info.paths.map((p) => p.steps.map((s) => s.pool))).toEqual([[LBP]]);
  const vaultAnswer = vaultSwap(v3PoolOf(snap.pools[0]!, BigInt(at))!, {
    kind: 'exactIn',
    tokenIn: USDC,
    tokenOut: PROJECT,
    amountGivenRaw: 1_000n * 10n ** 6n,
  });
  expect(info.returnAmount).toBe(vaultAnswer.amountCalculatedRaw.toString());
  // An hour later the weights have moved: another amount.
  const later = new V3Router().quote(SEPOLIA, snap, request({}), at + 3_600).info;
  expect(later.returnAmount).not.toBe(info.returnAmount);
});

test('outside its window the sale gives no route: the quote is for the block it prices', () => {
  const snap = v3Snapshot(SEPOLIA.id, [lbp()]);
  expect(new V3Router().quote(SEPOLIA, snap, request({}), START).info.paths).toHaveLength(1);
  for (const at of [START - 1, END + 1])
    expect(new V3Router().quote(SEPOLIA, snap, request({}), at).info.paths).toEqual([]);
});

test("one router across blocks prices the sale at each block's time, though the stored pool is the same object", () => {
  const router = new V3Router();
  const snap = v3Snapshot(SEPOLIA.id, [lbp()]);
  const pool = snap.pools[0]!;
  const amountAt = (at: number) =>
    vaultSwap(v3PoolOf(pool, BigInt(at))!, {
      kind: 'exactIn',
      tokenIn: USDC,
      tokenOut: PROJECT,
      amountGivenRaw: 1_000n * 10n ** 6n,
    }).amountCalculatedRaw.toString();
  let at = START + 43_200;
  for (let block = 0; block < 4; block++, at += 600) {
    // Each block a new snapshot whose pools are the same objects: nothing traded, time moved.
    const next = new ChainSnapshot({ ...snapshotInput(snap), pools: [...snap.pools] });
    expect(router.quote(SEPOLIA, next, request({}), at).info.returnAmount).toBe(amountAt(at));
  }
  expect(amountAt(START + 43_200)).not.toBe(amountAt(START + 43_200 + 600));
});
