import { CHAINS } from '../../../src/config/chains';
import { decimalToUnits, unitsToDecimal } from '../../../src/domain/decimal';
import type { StoredPool } from '../../../src/domain/pool';
import type { StoredBuffer } from '../../../src/domain/protocols/v3/stored/storedV3';
import { silentLogger } from '../../../src/log/logger';
import { ChainSnapshot } from '../../../src/readModel/chainSnapshot';
import { WorkerExecutor } from '../../../src/routing/quoteExecutor';
import { QuoteService } from '../../../src/routing/quoteService';
import { decodeShared } from '../../../src/routing/sharedJson';
import type { QuoteRequest } from '../../../src/routing/types';
import { V3Router } from '../../../src/routing/v3/v3Router';
import { V3Versions, type V3Delta } from '../../../src/routing/v3/v3Versions';
import { DAI, STATA_USDC, USDC, USDT } from '../../helpers/v3Universe';
import { snapshotInput, v3Snapshot } from '../../helpers/v3StoredUniverse';

/**
 * V3 quotes on a quote thread, its universe sent as deltas: every answer is the one a router on
 * this thread gives over the whole snapshot, block after block (a traded pool, a buffer that
 * moved, a new token list).
 */

const SEPOLIA = CHAINS.find((c) => c.id === 11155111)!;
const T = 1_740_000_000;

const request = (over: Partial<QuoteRequest>): QuoteRequest => ({
  sellToken: USDC,
  buyToken: USDT,
  orderKind: 'sell',
  amount: 1_000n * 10n ** 6n,
  gasPrice: 0n,
  minLiquidityUsd: 0,
  ...over,
});

const REQUESTS = [
  request({}),
  request({ buyToken: DAI, amount: 1_500n * 10n ** 6n }),
  request({ sellToken: DAI, orderKind: 'buy', amount: 300n * 10n ** 6n }),
  request({ amount: 60_000n * 10n ** 6n }),
];

function traded(p: StoredPool): StoredPool {
  return {
    ...p,
    tokens: p.tokens.map((t) =>
      t.address === DAI
        ? { ...t, balance: unitsToDecimal((decimalToUnits(t.balance, t.decimals) * 5n) / 4n, t.decimals) }
        : t,
    ),
  };
}

/** The next blocks: the weighted pool traded; then the stataUSDC buffer nearly drained, its rate up; then new prices. */
function blocks(): ChainSnapshot[] {
  const first = v3Snapshot(SEPOLIA.id);
  const second = new ChainSnapshot({
    ...snapshotInput(first),
    pools: [traded(first.pools[0]!), ...first.pools.slice(1)],
  });
  const held = first.buffers.get(STATA_USDC)!;
  if (held.token.conversion !== 'rate') throw new Error('the stataUSDC buffer previews by rate');
  const drained: StoredBuffer = {
    ...held,
    underlyingBalance: '1000',
    wrappedBalance: '7',
    token: { ...held.token, rate: ((BigInt(held.token.rate) * 101n) / 100n).toString() },
  };
  const third = new ChainSnapshot({
    ...snapshotInput(second),
    buffers: new Map([...second.buffers].map(([k, b]) => [k, k === STATA_USDC ? drained : b])),
  });
  const fourth = new ChainSnapshot({ ...snapshotInput(third), tokens: [...third.tokens] });
  return [first, second, third, fourth];
}

describe('V3 quotes on a quote thread', () => {
  const executor = new WorkerExecutor(1);
  afterAll(() => executor.close());

  test('answer as a router over the whole snapshot does, across blocks sent as deltas', async () => {
    const service = new QuoteService({ executor, logger: silentLogger(), now: () => T * 1000, cacheSize: 0 });
    const answers: string[] = [];
    for (const [k, snap] of blocks().entries()) {
      await service.warm(SEPOLIA, snap, 0);
      for (const req of REQUESTS) {
        const here = new V3Router().quote(SEPOLIA, snap, req, T + 12 * k).info;
        const there = (await service.quoteV3(SEPOLIA, snap, req, T + 12 * k)).info;
        expect(there).toEqual(here);
        answers.push(there.returnAmount);
      }
    }
    // The blocks moved the answers: the traded pool's, then the drained buffer's.
    expect(answers[5]).not.toBe(answers[1]);
    expect(answers[11]).not.toBe(answers[7]);
  });
});

describe('V3 versions', () => {
  test('a block that moves one pool or one buffer sends that one; new prices alone are the same version', () => {
    const [first, second, third, fourth] = blocks();
    const deltas = (from: ChainSnapshot, to: ChainSnapshot) => {
      const versions = new V3Versions();
      const base = versions.input(from);
      const next = versions.input(to);
      expect(next.base).toBe(base.base);
      return { versions, next, deltas: next.deltas.map((d) => decodeShared<V3Delta>(d.data)) };
    };
    const traded = deltas(first!, second!).deltas;
    expect(traded).toHaveLength(1);
    expect(traded[0]!.pools.upserts.map((p) => p.id)).toEqual([second!.pools[0]!.id]);
    expect(traded[0]!.buffers.upserts).toEqual([]);
    const { versions, next: drained, deltas: moved } = deltas(second!, third!);
    expect(moved).toHaveLength(1);
    expect(moved[0]!.pools.upserts).toEqual([]);
    expect(moved[0]!.buffers.upserts.map(([k]) => k)).toEqual([STATA_USDC]);
    expect(versions.input(fourth!)).toBe(drained);
  });
});
