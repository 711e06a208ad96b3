import { checkRoute, type CheckedRoute } from '../../../src/routing/v2/routeCheck';

const A = '0x000000000000000000000000000000000000000a';
const B = '0x000000000000000000000000000000000000000b';
const C = '0x000000000000000000000000000000000000000c';
const P1 = '0x' + '1'.repeat(64);
const P2 = '0x' + '2'.repeat(64);
const P3 = '0x' + '3'.repeat(64);

/** Sell 100 A for C: 60 via A->B->C, 40 via A->C. */
const sell: CheckedRoute = {
  tokenAddresses: [A, B, C],
  swaps: [
    { poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: '60', returnAmount: '59' },
    { poolId: P2, assetInIndex: 1, assetOutIndex: 2, amount: '0', returnAmount: '58' },
    { poolId: P3, assetInIndex: 0, assetOutIndex: 2, amount: '40', returnAmount: '39' },
  ],
  swapAmount: '100',
  returnAmount: '97',
  tokenIn: A,
  tokenOut: C,
  marketSp: '1.02',
};

/** Buy 100 C with A: GIVEN_OUT chains are listed from the out token back to the in token. */
const buy: CheckedRoute = {
  ...sell,
  swaps: [
    { poolId: P2, assetInIndex: 1, assetOutIndex: 2, amount: '60', returnAmount: '61' },
    { poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: '0', returnAmount: '62' },
    { poolId: P3, assetInIndex: 0, assetOutIndex: 2, amount: '40', returnAmount: '41' },
  ],
  returnAmount: '103',
};

const withSwap = (r: CheckedRoute, i: number, patch: object): CheckedRoute => ({
  ...r,
  swaps: r.swaps.map((s, j) => (j === i ? { ...s, ...patch } : s)),
});

describe('route sanity check', () => {
  test('consistent sell and buy routes pass', () => {
    expect(checkRoute(sell, 'sell')).toEqual({ ok: true });
    expect(checkRoute(buy, 'buy')).toEqual({ ok: true });
  });

  test('a negative or zero hop amount is rejected', () => {
    expect(checkRoute(withSwap(sell, 1, { returnAmount: '-5' }), 'sell')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/non-positive hop amount -5/),
      poolId: P2,
    });
    expect(checkRoute(withSwap(sell, 2, { returnAmount: '0' }), 'sell')).toMatchObject({ ok: false });
    expect(checkRoute(withSwap(sell, 0, { amount: '-60' }), 'sell')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/negative amount/),
    });
  });

  test('a broken hop chain is rejected', () => {
    // second hop starts at C instead of continuing from B
    expect(checkRoute(withSwap(sell, 1, { assetInIndex: 2, assetOutIndex: 1 }), 'sell')).toMatchObject({ ok: false });
    // a chain that starts at the wrong token
    expect(checkRoute(withSwap(sell, 2, { assetInIndex: 1 }), 'sell')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/starts a hop chain at the wrong token/),
    });
    // a chain that stops before the out token
    expect(
      checkRoute({ ...sell, swaps: sell.swaps.slice(0, 1), swapAmount: '60', returnAmount: '59' }, 'sell'),
    ).toMatchObject({ ok: false });
    // the sell route read as a buy is inconsistent
    expect(checkRoute(sell, 'buy')).toMatchObject({ ok: false });
    // an index outside the assets
    expect(checkRoute(withSwap(sell, 0, { assetOutIndex: 7 }), 'sell')).toMatchObject({ ok: false });
  });

  test('amounts that do not add up to the order, or a total the hops do not produce, are rejected', () => {
    expect(checkRoute({ ...sell, swapAmount: '101' }, 'sell')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not the order amount/),
    });
    expect(checkRoute({ ...sell, returnAmount: '500' }, 'sell')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/differs from the hop results/),
    });
  });

  test('an absurd market price or a zero return is rejected; an unknown (0) spot price is not', () => {
    expect(checkRoute({ ...sell, marketSp: 'NaN' }, 'sell')).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/absurd/),
    });
    expect(checkRoute({ ...sell, marketSp: '-1' }, 'sell')).toMatchObject({ ok: false });
    expect(checkRoute({ ...sell, marketSp: '0' }, 'sell')).toEqual({ ok: true });
    expect(checkRoute({ ...sell, returnAmount: '0' }, 'sell')).toMatchObject({ ok: false });
  });
});
