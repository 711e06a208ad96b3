import { Revert, UnsupportedPoolError, type PoolSpec, type SwapKind } from '../../../../src/domain/swap/poolModel';
import { modelOfType } from '../../../helpers/typeModel';
import { type StableModel } from '../../../../src/domain/poolTypes/stable/stableModel';
import { MAX_BALANCE } from '../../../../src/domain/protocols/v2/vaultPool';

/**
 * Stable and MetaStable models at their edges, on hand-made pools: what reverts (and that it is a
 * Revert), the limits (the largest amount is accepted, a little more is not), spot prices
 * against the exact swap of a tiny amount, the state bookkeeping, and the versions refused.
 */
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const WSTETH = '0x7f39c581f595b53c5cb19bd0b3f8da6c935e2ca0';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';

function threePool(version: number, balances = ['3000000', '2500000', '1200000']): PoolSpec {
  return {
    id: '0x06df3b2bbb68adc8b0e302443692037ed9f91b42000000000000000000000063',
    address: '0x06df3b2bbb68adc8b0e302443692037ed9f91b42',
    poolType: 'Stable',
    poolTypeVersion: version,
    swapFee: '0.0005',
    amp: '500',
    totalShares: '6650000',
    tokens: [
      { address: DAI, balance: balances[0]!, decimals: 18, priceRate: '1' },
      { address: USDC, balance: balances[1]!, decimals: 6, priceRate: '1' },
      { address: USDT, balance: balances[2]!, decimals: 6, priceRate: '1' },
    ],
  };
}

const meta: PoolSpec = {
  id: '0x32296969ef14eb0c6d29669c550d4a0449130230000200000000000000000080',
  address: '0x32296969ef14eb0c6d29669c550d4a0449130230',
  poolType: 'MetaStable',
  swapFee: '0.0004',
  amp: '50',
  totalShares: '169687.1',
  tokens: [
    { address: WSTETH, balance: '81391.348751687990895314', decimals: 18, priceRate: '1.070274551073343913' },
    { address: WETH, balance: '85441.00300268083736699', decimals: 18, priceRate: '1' },
  ],
};

const build = (spec: PoolSpec) => modelOfType(spec, { timestamp: 0 }) as StableModel;
const models = (): [string, StableModel][] => [
  ['Stable v1', build(threePool(1))],
  ['Stable v2', build(threePool(2))],
  ['MetaStable', build(meta)],
];
const KINDS: SwapKind[] = ['givenIn', 'givenOut'];

function reverts(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch (e) {
    if (e instanceof Revert) return true;
    throw e;
  }
}

describe('stable pool models at their edges', () => {
  test.each(models())('%s: asking for the whole balance out, or past 2^112 in, reverts as a Revert', (_name, model) => {
    const state = model.initialState();
    const n = model.tokens.length;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        expect(reverts(() => model.swap(state, 'givenOut', i, j, state.balances[j]!))).toBe(true);
        expect(reverts(() => model.swap(state, 'givenOut', i, j, state.balances[j]! * 2n))).toBe(true);
        expect(reverts(() => model.swap(state, 'givenIn', i, j, MAX_BALANCE - state.balances[i]! + 1n))).toBe(true);
        expect(reverts(() => model.swap(state, 'givenIn', i, j, -1n))).toBe(true);
      }
      expect(model.canSwap(i, i)).toBe(false);
      expect(reverts(() => model.swap(state, 'givenIn', i, i, 10n ** 6n))).toBe(true);
      expect(reverts(() => model.exitGivenIn(state, i, state.totalSupply + 1n))).toBe(true);
      expect(reverts(() => model.joinGivenIn(state, i, MAX_BALANCE))).toBe(true);
    }
    expect(model.canSwap(0, n)).toBe(false);
    expect(reverts(() => model.joinGivenIn(state, n, 1n))).toBe(true);
  });

  // Limits are searched to a relative 2^-32 (swap/limits.ts): the limit passes, 0.1% more fails.
  const beyond = (max: bigint) => max + max / 1000n + 1n;

  test.each(models())(
    '%s: maxAmount and maxExit are accepted and 0.1% more is not; maxJoin is accepted',
    (_name, model) => {
      const state = model.initialState();
      const n = model.tokens.length;
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          if (i === j) continue;
          for (const kind of KINDS) {
            const max = model.maxAmount(state, kind, i, j);
            expect(max).toBeGreaterThan(0n);
            expect(reverts(() => model.swap(state, kind, i, j, max))).toBe(false);
            expect(reverts(() => model.swap(state, kind, i, j, beyond(max)))).toBe(true);
          }
        }
        // A join's limit is where the invariants overflow or stop converging, at scattered points
        // rather than one threshold (as on chain): the limit found passes, and is far past the pool.
        const maxJoin = model.maxJoin(state, i);
        expect(reverts(() => model.joinGivenIn(state, i, maxJoin))).toBe(false);
        expect(maxJoin).toBeGreaterThan(state.balances[i]! * 1000n);
        const maxExit = model.maxExit(state, i);
        expect(maxExit).toBeGreaterThan(0n);
        expect(reverts(() => model.exitGivenIn(state, i, maxExit))).toBe(false);
        expect(reverts(() => model.exitGivenIn(state, i, beyond(maxExit)))).toBe(true);
      }
    },
  );

  test.each(models())('%s: spot price matches the exact swap of a millionth of the balance to 1e-5', (_name, model) => {
    const state = model.initialState();
    const n = model.tokens.length;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const amountIn = state.balances[i]! / 1_000_000n;
        const out = model.swap(state, 'givenIn', i, j, amountIn);
        const exact = Number(amountIn) / 10 ** model.decimals[i]! / (Number(out) / 10 ** model.decimals[j]!);
        expect(Math.abs(model.spotPrice(state, i, j) / exact - 1)).toBeLessThan(1e-5);
      }
    }
  });

  test('a lopsided pool prices the scarce token above the abundant one, fee included', () => {
    const model = build(threePool(2, ['9000000', '100000', '1000000']));
    const state = model.initialState();
    // DAI paid per USDC (scarce) exceeds 1; USDC paid per DAI is below 1; both carry the 0.05% fee.
    expect(model.spotPrice(state, 0, 1)).toBeGreaterThan(1.01);
    expect(model.spotPrice(state, 1, 0)).toBeLessThan(0.99);
    expect(model.spotPrice(state, 0, 1) * model.spotPrice(state, 1, 0)).toBeCloseTo(1 / (1 - 0.0005) ** 2, 9);
  });

  test('swaps and joins move the state like the Vault; clones and fresh states are independent', () => {
    const model = build(meta);
    const state = model.initialState();
    const before = model.cloneState(state);
    const amountIn = 10n ** 20n;
    const out = model.swap(state, 'givenIn', 0, 1, amountIn);
    model.apply(state, 0, 1, amountIn, out);
    expect(state.balances).toEqual([before.balances[0]! + amountIn, before.balances[1]! - out]);
    const bpt = model.joinGivenIn(state, 1, amountIn);
    model.applyJoin(state, 1, amountIn, bpt);
    expect(state.totalSupply).toBe(before.totalSupply + bpt);
    const paid = model.exitGivenIn(state, 0, bpt);
    model.applyExit(state, 0, bpt, paid);
    expect(state.totalSupply).toBe(before.totalSupply);
    expect(before).toEqual(model.initialState());
    // A round trip through the pool costs the swap fees: less wstETH back than went in.
    expect(state.balances[0]!).toBeGreaterThan(before.balances[0]!);
  });

  test('a zero amount quotes zero; the MetaStable rate, not the stored rate of a plain Stable pool, scales', () => {
    const model = build(threePool(1));
    expect(model.swap(model.initialState(), 'givenIn', 0, 1, 0n)).toBe(0n);
    // Plain stable pools have no rate providers: a stored priceRate there changes nothing.
    const withRate = build({ ...threePool(1), tokens: threePool(1).tokens.map((t) => ({ ...t, priceRate: '1.2' })) });
    expect(withRate.swap(withRate.initialState(), 'givenIn', 0, 1, 10n ** 21n)).toBe(
      model.swap(model.initialState(), 'givenIn', 0, 1, 10n ** 21n),
    );
    const metaModel = build(meta);
    const unrated = build({ ...meta, tokens: meta.tokens.map((t) => ({ ...t, priceRate: '1' })) });
    // wstETH at 1.07 buys about 7% more WETH than at a rate of 1.
    const ratio =
      Number(metaModel.swap(metaModel.initialState(), 'givenIn', 0, 1, 10n ** 18n)) /
      Number(unrated.swap(unrated.initialState(), 'givenIn', 0, 1, 10n ** 18n));
    expect(ratio).toBeGreaterThan(1.06);
  });

  test('versions and pools the model does not carry are refused with UnsupportedPoolError', () => {
    expect(() => build(threePool(3))).toThrow(UnsupportedPoolError);
    expect(() => build({ ...meta, poolTypeVersion: 2 })).toThrow(UnsupportedPoolError);
    expect(() => build({ ...threePool(1), amp: null })).toThrow(UnsupportedPoolError);
    expect(() =>
      build({
        ...threePool(1),
        tokens: [...threePool(1).tokens, { address: threePool(1).address, balance: '1', decimals: 18 }],
      }),
    ).toThrow(UnsupportedPoolError);
  });
});
