import type { BufferState } from '../../../../../src/domain/protocols/v3/buffer/bufferState';
import { openZeppelinErc4626, type Erc4626Token } from '../../../../../src/domain/protocols/v3/buffer/erc4626';
import { bufferWrapOrUnwrap, type BufferRequest } from '../../../../../src/domain/protocols/v3/buffer/wrapOrUnwrap';
import { isRevert } from '../../../../../src/domain/swap/math/revert';

const WRAPPED = '0x00000000000000000000000000000000000004a6';
const ASSET = '0x00000000000000000000000000000000000000a6';
const E6 = 10n ** 6n;

/** A 6-decimal asset in an OpenZeppelin vault that has earned 7.5% (offset 0), the Vault holding 2M shares. */
const token = (vaultShares = 2_000_000n * E6): Erc4626Token =>
  openZeppelinErc4626({
    totalAssets: 10_750_000n * E6,
    totalSupply: 10_000_000n * E6,
    decimalsOffset: 0n,
    vaultShares,
  });
const buffer = (underlying: bigint, wrapped: bigint): BufferState => ({
  wrappedToken: WRAPPED,
  underlyingToken: ASSET,
  underlyingBalanceRaw: underlying,
  wrappedBalanceRaw: wrapped,
  buffersPaused: false,
});
const wrapIn = (amount: bigint): BufferRequest => ({ kind: 'exactIn', tokenIn: ASSET, amountGivenRaw: amount });
const unwrapIn = (amount: bigint): BufferRequest => ({ kind: 'exactIn', tokenIn: WRAPPED, amountGivenRaw: amount });
const unwrapOut = (amount: bigint): BufferRequest => ({ kind: 'exactOut', tokenIn: WRAPPED, amountGivenRaw: amount });

function revertCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (isRevert(e)) return (e as { code?: string }).code;
    throw e;
  }
  return undefined;
}

describe('V3 buffer wrap and unwrap', () => {
  test("the amounts are the token's previews, guarded by 1 wei each way, whoever pays them out", () => {
    const t = token();
    const amount = 1_000n * E6;
    const full = bufferWrapOrUnwrap(buffer(10n ** 12n, 10n ** 12n), t, wrapIn(amount));
    const short = bufferWrapOrUnwrap(buffer(0n, 0n), t, wrapIn(amount));
    expect(full.fromBuffer).toBe(true);
    expect(short.fromBuffer).toBe(false);
    expect(full.amountOutRaw).toBe(t.previewDeposit(amount - 1n) - 1n);
    expect(short.amountOutRaw).toBe(full.amountOutRaw);
    const unguarded = bufferWrapOrUnwrap(buffer(10n ** 12n, 10n ** 12n), t, wrapIn(amount), { pricing: 'unguarded' });
    expect(unguarded.amountOutRaw).toBe(t.previewDeposit(amount));
    const withdraw = bufferWrapOrUnwrap(buffer(10n ** 12n, 10n ** 12n), t, unwrapOut(amount));
    expect(withdraw.amountInRaw).toBe(t.previewWithdraw(amount + 1n) + 1n);
  });

  test('served from the buffer, the buffer takes the amount in and pays the amount out', () => {
    const before = buffer(5_000n * E6, 5_000n * E6);
    const r = bufferWrapOrUnwrap(before, token(), unwrapIn(1_000n * E6));
    expect(r.bufferAfter.wrappedBalanceRaw).toBe(before.wrappedBalanceRaw + r.amountInRaw);
    expect(r.bufferAfter.underlyingBalanceRaw).toBe(before.underlyingBalanceRaw - r.amountOutRaw);
  });

  test('a buffer short of the token out sends the amount and half its imbalance through the token, whose limits decide', () => {
    // 100 shares in the buffer's asset side only: an unwrap of 1,000 shares needs the token.
    const short = buffer(100n * E6, 0n);
    const served = bufferWrapOrUnwrap(short, token(), unwrapIn(1_000n * E6));
    expect(served.fromBuffer).toBe(false);
    // The Vault can redeem no more shares than the token lets it: 500 here.
    expect(revertCode(() => bufferWrapOrUnwrap(short, token(500n * E6), unwrapIn(1_000n * E6)))).toBe(
      'ERC4626ExceededMaxRedeem',
    );
    // The same unwrap from a buffer holding enough does not call the token, so its limit does not matter.
    const full = buffer(10_000n * E6, 0n);
    expect(bufferWrapOrUnwrap(full, token(500n * E6), unwrapIn(1_000n * E6)).amountOutRaw).toBe(served.amountOutRaw);
    // Exact out: the token's withdraw limit (500 shares are worth 537.5 assets).
    expect(revertCode(() => bufferWrapOrUnwrap(short, token(500n * E6), unwrapOut(1_000n * E6)))).toBe(
      'ERC4626ExceededMaxWithdraw',
    );
  });

  test('a wrap the token serves leaves the token with new totals, which the next wrap of the same transaction previews against', () => {
    const t = token();
    const short = bufferWrapOrUnwrap(buffer(0n, 0n), t, wrapIn(3_333_333n * E6 + 7n));
    expect(short.fromBuffer).toBe(false);
    // The Vault deposited the amount (the empty buffer has no imbalance) and was minted its shares.
    const assets = 10_750_000n * E6 + 3_333_333n * E6 + 7n;
    const supply = 10_000_000n * E6 + ((3_333_333n * E6 + 7n) * (10_000_000n * E6 + 1n)) / (10_750_000n * E6 + 1n);
    const next = 777_777n * E6 + 3n;
    // OpenZeppelin's previewDeposit on those totals (offset 0: one virtual share, one virtual asset), guarded.
    const expected = ((next - 1n) * (supply + 1n)) / (assets + 1n) - 1n;
    expect(bufferWrapOrUnwrap(short.bufferAfter, short.tokenAfter, wrapIn(next)).amountOutRaw).toBe(expected);
    // Served by the buffer, the token is untouched.
    const full = bufferWrapOrUnwrap(buffer(10n ** 14n, 10n ** 14n), t, wrapIn(next));
    expect(full.tokenAfter).toBe(t);
  });

  test('amounts below the minimum wrap amount (1e4 raw), a foreign token and paused buffers are refused', () => {
    const b = buffer(10n ** 12n, 10n ** 12n);
    // The amount given: 9,999 shares are refused, 10,000 (worth 10,749 assets) pass.
    expect(revertCode(() => bufferWrapOrUnwrap(b, token(), unwrapIn(9_999n)))).toBe('WrapAmountTooSmall');
    expect(revertCode(() => bufferWrapOrUnwrap(b, token(), unwrapIn(10_000n)))).toBeUndefined();
    // The amount calculated: 10,000 assets wrap to 9,301 shares, refused.
    expect(revertCode(() => bufferWrapOrUnwrap(b, token(), wrapIn(10_000n)))).toBe('WrapAmountTooSmall');
    expect(revertCode(() => bufferWrapOrUnwrap(b, token(), { ...wrapIn(E6), tokenIn: '0x01' }))).toBe(
      'WrongUnderlyingToken',
    );
    expect(revertCode(() => bufferWrapOrUnwrap({ ...b, buffersPaused: true }, token(), wrapIn(E6)))).toBe(
      'VaultBuffersArePaused',
    );
  });
});
