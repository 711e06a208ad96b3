import { chainById } from '../../../src/config/chains';
import { ChainSnapshot } from '../../../src/readModel/chainSnapshot';
import { v3QuoteTime } from '../../../src/routing/v3/quoteTime';
import { emptyMeta } from '../../../src/domain/pool';

/** When a V3 quote prices time-dependent pools (an LBP's weights and sale window, ReClamm, QuantAMM). */
describe('the V3 quote time', () => {
  const chain = chainById(1)!;
  const snapshot = (block: ChainSnapshot['block']) =>
    new ChainSnapshot({ chainId: 1, meta: emptyMeta(1), pools: [], tokens: [], loadedAt: 0, block });
  const now = Date.UTC(2026, 10, 27, 4, 4, 59, 900);

  test('with a followed block: the next block after it, whatever the clock says', () => {
    const block = { number: 100, hash: '0x01', parentHash: '0x00', timestamp: 1_700_000_000 };
    expect(v3QuoteTime(chain, snapshot(block), now)).toBe(block.timestamp + chain.blockSeconds!);
  });

  test('on the subgraph state alone: never before the clock (a sale that just ended is not priced as open)', () => {
    const t = v3QuoteTime(chain, snapshot(null), now);
    expect(t).toBeGreaterThan(Math.floor(now / 1000));
    expect(t).toBe(Math.floor(now / 1000) + chain.blockSeconds!);
  });
});
