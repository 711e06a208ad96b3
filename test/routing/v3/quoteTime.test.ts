import { CHAINS, chainById } from '../../../src/config/chains';
import { ChainSnapshot } from '../../../src/readModel/chainSnapshot';
import { v3QuoteTime } from '../../../src/routing/v3/quoteTime';
import { emptyMeta } from '../../../src/domain/pool';

/** When a V3 quote prices time-dependent pools (an LBP's weights and sale window, ReClamm, QuantAMM). */
describe('the V3 quote time', () => {
  const chain = chainById(1)!;
  const snapshot = (block: ChainSnapshot['block']) =>
    new ChainSnapshot({ chainId: 1, meta: emptyMeta(1), pools: [], tokens: [], loadedAt: 0, block });
  const now = Date.UTC(2026, 10, 27, 4, 4, 59, 900);
  const block = { number: 100, hash: '0x01', parentHash: '0x00', timestamp: 1_700_000_000 };

  test('on a chain that makes blocks on a timer: the next slot after the followed block, whatever the clock says', () => {
    expect(chain.blocks).toBe('timer');
    expect(v3QuoteTime(chain, snapshot(block), now)).toBe(block.timestamp + chain.blockSeconds!);
    expect(v3QuoteTime(chain, snapshot(block), now, block.timestamp + 30)).toBe(block.timestamp + chain.blockSeconds!);
  });

  test('on a chain that makes blocks on demand: the chain clock, at least a second past the head', () => {
    const devnet = chainById(31337)!;
    expect(devnet.blocks).toBe('onDemand');
    const h = block.timestamp;
    // Asked 0, 2 and 5 s after the last block: the block it lands in is stamped then.
    expect(v3QuoteTime(devnet, snapshot(block), now, h)).toBe(h + 1);
    expect(v3QuoteTime(devnet, snapshot(block), now, h + 2)).toBe(h + 2);
    expect(v3QuoteTime(devnet, snapshot(block), now, h + 5)).toBe(h + 5);
    // No clock learnt from the chain: ours.
    expect(v3QuoteTime(devnet, snapshot(block), h * 1000 + 5_400)).toBe(h + 5);
  });

  test('on the subgraph state alone: never before the clock (a sale that just ended is not priced as open)', () => {
    const t = v3QuoteTime(chain, snapshot(null), now);
    expect(t).toBeGreaterThan(Math.floor(now / 1000));
    expect(t).toBe(Math.floor(now / 1000) + chain.blockSeconds!);
  });

  test('every chain row says how it makes blocks, and only a timer chain has blockSeconds', () => {
    for (const c of CHAINS)
      expect([c.id, c.blocks, c.blockSeconds !== undefined]).toEqual([c.id, c.blocks, c.blocks === 'timer']);
    expect(
      CHAINS.filter((c) => c.blocks === 'onDemand')
        .map((c) => c.id)
        .sort((a, b) => a - b),
    ).toEqual([1101, 31337, 42161, 43114]);
  });
});
