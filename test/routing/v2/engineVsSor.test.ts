import { chainById } from '../../../src/config/chains';
import { sorTimestamp } from '../../../src/routing/v2/sorConfig';
import { PRICES_IN_ETH, QUOTE_CASES, TOKENS, type TokenName } from '../../bench/quoteCases';
import { syntheticPools, syntheticTokens } from '../../fakes/syntheticPools';
import { describeWithSnapshot, loadSnapshotPools } from '../../helpers/snapshot';
import { compareWithSor, pairCases, type DiffResult } from './differential';
import { directPools } from './directSor';

/**
 * The engine is never worse than `@balancer-labs/sor` on a case the SOR routes: on the mainnet
 * snapshot (the benchmark mix and every pair of its main tokens at 0.01, 1 or 100 ETH worth,
 * both kinds) and on synthetic universes. The SOR's figure is its route replayed with the Vault's
 * arithmetic; the tolerance (1e-7) is the SOR's own float precision where its route cannot be replayed.
 */

const TIMESTAMP = sorTimestamp(Date.UTC(2026, 0, 15, 12));
const TOLERANCE = 1e-7;
const MAINNET = chainById(1)!;

function worse(results: readonly DiffResult[]): string[] {
  return results
    .filter((r) => r.sor > 0n && r.gain < -TOLERANCE)
    .map(
      (r) =>
        `${r.c.name}: ours ${r.ours} vs SOR ${r.sor}${r.sorExact ? '' : ' (SOR estimate)'} (${r.gain.toExponential(2)})`,
    );
}

describeWithSnapshot('engine vs @balancer-labs/sor on the mainnet snapshot', () => {
  let results: DiffResult[];
  beforeAll(async () => {
    const tokens = (Object.keys(TOKENS) as TokenName[]).map((name) => ({
      name,
      ...TOKENS[name],
      unitsPerEth: 1 / Number(PRICES_IN_ETH[name]),
    }));
    const cases = [...QUOTE_CASES, ...pairCases(tokens, [0.01, 1, 100], { kinds: 'alternate' })];
    results = await compareWithSor(directPools(loadSnapshotPools()), MAINNET, cases, TIMESTAMP);
  }, 120_000);

  test('no case is worse than the SOR', () => {
    expect(worse(results)).toEqual([]);
  });

  test('every pair the SOR routes, the engine routes too; and the engine routes most of the mix', () => {
    expect(results.filter((r) => r.sor > 0n && r.ours === 0n).map((r) => r.c.name)).toEqual([]);
    expect(results.filter((r) => r.ours > 0n).length).toBeGreaterThan(results.length * 0.8);
  });
});

describe('engine vs @balancer-labs/sor on synthetic universes', () => {
  test.each(['alpha', 'beta', 'gamma'])(
    'universe %s: no case worse than the SOR',
    async (seed) => {
      const pools = directPools(syntheticPools(60, { seed, tokenCount: 16 }) as unknown[]);
      const tokens = syntheticTokens({ seed, tokenCount: 16 })
        .slice(0, 6)
        .map((t) => ({ name: t.symbol, address: t.address, decimals: t.decimals, unitsPerEth: 1 }));
      const results = await compareWithSor(
        pools,
        MAINNET,
        pairCases(tokens, [1, 100, 10000], { kinds: 'alternate' }),
        TIMESTAMP,
      );
      expect(worse(results)).toEqual([]);
      expect(results.filter((r) => r.sor > 0n && r.ours === 0n).map((r) => r.c.name)).toEqual([]);
    },
    60_000,
  );
});
