import { complement, divUp, mulDown, mulUp } from '../../../../src/domain/swap/math/fixedPoint';
import type { ComposableStableSpec } from '../../../../src/domain/poolTypes/composableStable/composableStableParams';
import { modelOfType } from '../../../helpers/typeModel';
import { type ComposableStableModel } from '../../../../src/domain/poolTypes/composableStable/composableStableModel';

/**
 * A StablePhantom pool's owed protocol fee BPT (`_dueProtocolFeeBptAmount`) in the model, from the
 * contract's formulas: it counts in the virtual supply (`_dropBptItem`), and a swap through the BPT
 * adds the protocol's share of its fee measured in BPT (`_trackDueProtocolFeeByBpt`). The devnet
 * suite test/devnet/feeState.test.ts checks every swap kind against the contract itself.
 */
const BPT = '0x7b50775383d3d6f0215a8f290f2c9e2eebbeceb2';
const A = '0x2bbf681cc4eb09218bee85ea2a5d3d13fa40fc0c';
const B = '0x804cdb9116a10bb78768d3252355a1b18067bf8f';
const E18 = 10n ** 18n;
const FEE = 400_000_000_000_000n; // 0.0004

function phantom(fields: Partial<ComposableStableSpec>): ComposableStableModel {
  const spec: ComposableStableSpec = {
    id: `${BPT}0000000000000000000000fe`,
    address: BPT,
    poolType: 'StablePhantom',
    poolTypeVersion: 1,
    swapFee: '0.0004',
    amp: '200',
    totalShares: '2500000',
    tokens: [
      { address: A, balance: '1200000', decimals: 18, priceRate: '1.01' },
      { address: BPT, balance: '1000000000', decimals: 18, priceRate: '1' },
      { address: B, balance: '1300000', decimals: 6, priceRate: '1' },
    ],
    ...fields,
  };
  return modelOfType(spec, { timestamp: 0 }) as ComposableStableModel;
}

test('owed fee BPT counts as circulating: priced like a pool whose supply already holds it', () => {
  const owed = phantom({ dueProtocolFeeBpt: '1234.5', protocolSwapFeeCache: '0.5' });
  const minted = phantom({ totalShares: '2501234.5', protocolSwapFeeCache: '0.5' });
  const none = phantom({ protocolSwapFeeCache: '0.5' });
  expect(owed.virtualSupply(owed.initialState())).toBe(2_501_234_500_000_000_000_000_000n);
  for (const [i, j] of [
    [0, 1],
    [1, 2],
  ] as const) {
    const amount = 50_000n * E18;
    const got = owed.swap(owed.initialState(), 'givenIn', i, j, amount);
    expect(got).toBe(minted.swap(minted.initialState(), 'givenIn', i, j, amount));
    expect(got).not.toBe(none.swap(none.initialState(), 'givenIn', i, j, amount));
  }
});

test("a BPT swap adds the protocol's share of its fee in BPT: (x / (1 - fee) - x) * pct, x the BPT the pool counted", () => {
  const model = phantom({ dueProtocolFeeBpt: '10', protocolSwapFeeCache: '0.5' });
  const half = E18 / 2n;
  const feeShare = (x: bigint) => mulDown(divUp(x, complement(FEE)) - x, half);

  // Join given in: the BPT out.
  let state = model.initialState();
  const tokenIn = 40_000n * E18;
  const bptOut = model.swap(state, 'givenIn', 0, 1, tokenIn);
  model.apply(state, 0, 1, tokenIn, bptOut);
  expect(state.phantomDue).toBe(10n * E18 + feeShare(bptOut));

  // Exit given in: the BPT in after the swap fee came off it.
  state = model.initialState();
  const bptIn = 30_000n * E18;
  const out = model.swap(state, 'givenIn', 1, 2, bptIn);
  model.apply(state, 1, 2, bptIn, out);
  expect(state.phantomDue).toBe(10n * E18 + feeShare(bptIn - mulUp(bptIn, FEE)));

  // Every later BPT swap is priced on the grown virtual supply.
  const after = model.swap(state, 'givenIn', 0, 1, tokenIn);
  const cloned = model.cloneState(state);
  expect(cloned.phantomDue).toBe(state.phantomDue);
  expect(model.swap(cloned, 'givenIn', 0, 1, tokenIn)).toBe(after);
});

test('no cached protocol fee percentage: nothing accrues', () => {
  const model = phantom({ dueProtocolFeeBpt: '10' });
  const state = model.initialState();
  const out = model.swap(state, 'givenIn', 0, 2, 10_000n * E18);
  model.apply(state, 0, 2, 10_000n * E18, out);
  expect(state.phantomDue).toBe(10n * E18);
});
