import { Revert, UnsupportedPoolError, type SwapKind } from '../../../../src/domain/swap/poolModel';
import type { LinearSpec } from '../../../../src/domain/poolTypes/linear/linearParams';
import {
  createLinearModel,
  type LinearModel,
  type LinearState,
} from '../../../../src/domain/poolTypes/linear/linearModel';

/**
 * Linear pool rules a user notices, on small pools whose answers follow by hand from LinearMath:
 * the fee that charges trades leaving [lowerTarget, upperTarget] and rewards trades returning to
 * it, the wrapped token's rate, BPT priced by the virtual supply, reverts where the pool reverts,
 * and limits that never revert. Exactness against the deployed contract is the devnet suite's job.
 */
const BPT = '0x00000000000000000000000000000000000000bb';
const USDC = '0x00000000000000000000000000000000000000c6';
const WUSDC = '0x00000000000000000000000000000000000000d6';
const E18 = 10n ** 18n;
const USDC_UNIT = 10n ** 6n;

function spec(
  over: {
    main?: string;
    wrapped?: string;
    bptBalance?: string;
    totalShares?: string;
    lower?: string;
    upper?: string;
    fee?: string;
    rate?: string;
    poolType?: string;
  } = {},
): LinearSpec {
  return {
    id: `${BPT}000000000000000000000000`,
    address: BPT,
    poolType: over.poolType ?? 'ERC4626Linear',
    swapFee: over.fee ?? '0.01',
    totalShares: over.totalShares ?? '2000',
    tokens: [
      { address: BPT, balance: over.bptBalance ?? '5192296858532827.628530496329220095', decimals: 18, priceRate: '1' },
      { address: USDC, balance: over.main ?? '1000', decimals: 6, priceRate: '1' },
      { address: WUSDC, balance: over.wrapped ?? '1000', decimals: 6, priceRate: over.rate ?? '1.1' },
    ],
    mainIndex: 1,
    wrappedIndex: 2,
    lowerTarget: over.lower ?? '0',
    upperTarget: over.upper ?? '5000',
  };
}

const model = (over: Parameters<typeof spec>[0] = {}) => createLinearModel(spec(over), { timestamp: 0 }) as LinearModel;
const [B, M, W] = [0, 1, 2];

describe('linear pool swaps', () => {
  test("main -> wrapped pays the main amount at the wrapped token's rate inside the targets", () => {
    const m = model({ lower: '500', upper: '5000' });
    // 100 USDC buy 100 / 1.1 wrapped, rounded down to the wrapped token's 6 decimals.
    expect(m.swap(m.initialState(), 'givenIn', M, W, 100n * USDC_UNIT)).toBe((100n * USDC_UNIT * 10n) / 11n);
    // Given out, the pool asks 1.1 USDC per wrapped, rounded up.
    expect(m.swap(m.initialState(), 'givenOut', M, W, 100n * USDC_UNIT)).toBe(110n * USDC_UNIT);
  });

  test('below the lower target a main deposit earns the collected fee; above the upper target it pays it', () => {
    // Main 500 below lower 1000 at 1%: nominal(600) - nominal(500) = (600 - 4) - (500 - 5) = 101 USDC.
    const below = model({ main: '500', lower: '1000', upper: '5000' });
    expect(below.swap(below.initialState(), 'givenIn', M, W, 100n * USDC_UNIT)).toBe((101n * USDC_UNIT * 10n) / 11n);
    // Main 5000 at the upper target: nominal(5100) - nominal(5000) = (5100 - 1) - 5000 = 99 USDC.
    const above = model({ main: '5000', lower: '1000', upper: '5000' });
    expect(above.swap(above.initialState(), 'givenIn', M, W, 100n * USDC_UNIT)).toBe((99n * USDC_UNIT * 10n) / 11n);
    // Taking main out below the lower target costs the fee: 100 USDC out of 500 needs
    // nominal(500) - nominal(400) = 495 - 394 = 101 USDC of wrapped value.
    expect(below.swap(below.initialState(), 'givenOut', W, M, 100n * USDC_UNIT)).toBe(
      (101n * USDC_UNIT * 10n + 10n) / 11n,
    );
  });

  test('BPT is priced by the virtual supply over nominal main plus wrapped value', () => {
    const m = model();
    // Supply 2000 against 1000 USDC + 1000 * 1.1 wrapped = 2100: 100 USDC mint 2000 * 100 / 2100 BPT.
    expect(m.swap(m.initialState(), 'givenIn', M, B, 100n * USDC_UNIT)).toBe((2000n * 100n * E18) / 2100n);
    // Burning 21 BPT releases 21 / 2000 of 2100 = 22.05 USDC.
    expect(m.swap(m.initialState(), 'givenIn', B, M, 21n * E18)).toBe(22_050_000n);
    // Wrapped in: 10 wrapped are 11 USDC of value, 2000 * 2111 / 2100 - 2000 BPT.
    expect(m.swap(m.initialState(), 'givenIn', W, B, 10n * USDC_UNIT)).toBe(
      (2000n * E18 * 2111n) / 2100n - 2000n * E18,
    );
  });

  test('a recorded BPT swap moves the virtual supply; the total supply stays', () => {
    const m = model();
    const state = m.initialState();
    const minted = m.swap(state, 'givenIn', M, B, 100n * USDC_UNIT);
    m.apply(state, M, B, 100n * USDC_UNIT, minted);
    expect(state.totalSupply).toBe(m.initialState().totalSupply);
    // Supply 2000 + minted against 2200 of value now.
    const supply = 2000n * E18 + minted;
    expect(m.swap(state, 'givenIn', M, B, 100n * USDC_UNIT)).toBe((supply * 100n * E18) / (2200n * E18));
  });

  test('amounts the pool cannot pay revert with Revert', () => {
    const m = model({ main: '500', lower: '1000', upper: '5000' });
    const s = m.initialState();
    const reverts = (kind: SwapKind, i: number, j: number, amount: bigint) =>
      expect(() => m.swap(s, kind, i, j, amount)).toThrow(Revert);
    reverts('givenOut', W, M, 501n * USDC_UNIT); // more main than the pool holds
    reverts('givenOut', M, W, 1001n * USDC_UNIT); // more wrapped than the pool holds
    reverts('givenIn', M, W, 2000n * USDC_UNIT); // would pay out more wrapped than held
    reverts('givenIn', B, M, 3000n * E18); // more BPT than circulates
    // Emptying main below lowerTarget * fee / (1 + fee) makes the nominal balance negative.
    reverts('givenOut', W, M, 495n * USDC_UNIT);
    expect(() => m.swap(s, 'givenIn', M, M, 1n)).toThrow(Revert);
  });

  test('maxAmount never reverts and is the edge where the pool balance binds', () => {
    const states: [string, LinearModel][] = [
      ['inside targets', model({ lower: '500', upper: '5000' })],
      ['below lower target', model({ main: '200', lower: '1000', upper: '5000' })],
      ['above upper target', model({ main: '9000', lower: '1000', upper: '5000' })],
      ['empty wrapped', model({ wrapped: '0' })],
      [
        'fresh pool',
        model({ main: '0', wrapped: '0', totalShares: '0', bptBalance: '5192296858534827.628530496329220095' }),
      ],
    ];
    for (const [name, m] of states) {
      const s: LinearState = m.initialState();
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          if (i === j) continue;
          for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
            const max = m.maxAmount(s, kind, i, j);
            if (max > 0n)
              expect({ name, i, j, kind, ok: swapOk(m, s, kind, i, j, max) }).toEqual({ name, i, j, kind, ok: true });
            // Where a token balance of the pool is what binds, a little more reverts.
            const bounded = kind === 'givenOut' ? j !== B : j !== B && !(i === B && max === 0n);
            if (bounded && max > 0n && max < 2n ** 100n) {
              expect({ name, i, j, kind, ok: swapOk(m, s, kind, i, j, max + max / 100n + 1n) }).toEqual({
                name,
                i,
                j,
                kind,
                ok: false,
              });
            }
          }
        }
      }
    }
  });

  test('spot price matches a tiny swap and carries the fee outside the targets', () => {
    for (const main of ['3000', '200', '9000']) {
      const m = model({ main, lower: '1000', upper: '5000' });
      const s = m.initialState();
      for (const [i, j] of [
        [M, W],
        [W, M],
        [M, B],
        [B, W],
      ] as const) {
        // Prices are constant between the targets, so one whole unit stays within the regime.
        const amountOut = 10n ** BigInt(m.decimals[j]!);
        const amountIn = m.swap(s, 'givenOut', i, j, amountOut);
        const tiny = Number(amountIn) / 10 ** m.decimals[i]! / (Number(amountOut) / 10 ** m.decimals[j]!);
        expect(Math.abs(m.spotPrice(s, i, j) / tiny - 1)).toBeLessThan(1e-4);
      }
    }
  });

  test('every *Linear pool type is carried; other types and incomplete pools are refused', () => {
    for (const poolType of [
      'AaveLinear',
      'ERC4626Linear',
      'EulerLinear',
      'GearboxLinear',
      'YearnLinear',
      'SiloLinear',
    ]) {
      expect(createLinearModel(spec({ poolType }), { timestamp: 0 }).poolType).toBe(poolType);
    }
    expect(() => createLinearModel({ ...spec(), mainIndex: null }, { timestamp: 0 })).toThrow(UnsupportedPoolError);
    expect(() => createLinearModel({ ...spec(), upperTarget: null }, { timestamp: 0 })).toThrow(UnsupportedPoolError);
  });
});

function swapOk(m: LinearModel, s: LinearState, kind: SwapKind, i: number, j: number, amount: bigint): boolean {
  try {
    m.swap(s, kind, i, j, amount);
    return true;
  } catch (e) {
    if (e instanceof Revert) return false;
    throw e;
  }
}
