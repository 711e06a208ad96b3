import { v3Revert } from '../vault/errors';

/**
 * What an ERC-4626 wrapped token answers, at one block, for the Vault as receiver and owner: its
 * preview functions (each rounding as the standard asks: deposit and redeem down, mint and
 * withdraw up, so the token never gives away value) and its limits. The buffer arithmetic asks
 * nothing else of the token.
 */
export interface Erc4626Token {
  previewDeposit(assets: bigint): bigint;
  previewMint(shares: bigint): bigint;
  previewRedeem(shares: bigint): bigint;
  previewWithdraw(assets: bigint): bigint;
  /** `maxDeposit(vault)` and `maxMint(vault)`: the most the token takes in. */
  readonly maxDeposit: bigint;
  readonly maxMint: bigint;
  /** `maxRedeem(vault)` and `maxWithdraw(vault)`: the most the token pays out (its free liquidity, the Vault's shares). */
  readonly maxRedeem: bigint;
  readonly maxWithdraw: bigint;
  /**
   * The token after the Balancer Vault deposited `assets` for `shares` (its `deposit` or `mint`)
   * or redeemed `shares` for `assets` (`redeem` or `withdraw`): what a later step of the same
   * transaction previews against.
   */
  after(call: TokenCall): Erc4626Token;
}

/** A call the Vault makes to the token when its buffer is short. */
export type TokenCall =
  | { readonly kind: 'deposit'; readonly assets: bigint; readonly shares: bigint }
  | { readonly kind: 'redeem'; readonly shares: bigint; readonly assets: bigint };

const MAX_UINT256 = 2n ** 256n - 1n;
const ONE = 10n ** 18n;

function mulDiv(a: bigint, b: bigint, c: bigint, roundUp: boolean): bigint {
  if (c === 0n) throw v3Revert('Panic(0x12)', 'division by zero in an ERC-4626 conversion');
  const product = a * b;
  return roundUp && product % c !== 0n ? product / c + 1n : product / c;
}

export interface Erc4626Limits {
  readonly maxDeposit?: bigint;
  readonly maxMint?: bigint;
  readonly maxRedeem?: bigint;
  readonly maxWithdraw?: bigint;
}

/**
 * A token priced by one share price: `rate` assets (raw) per 1e18 share units, what
 * `convertToAssets(1e18)` returns. Exact for a token whose conversions are that one ratio; for
 * others the rate is the price truncated to an integer, so previews can differ from the token's
 * own by the truncation.
 */
export function erc4626ByRate(rate: bigint, limits: Erc4626Limits = {}): Erc4626Token {
  const token: Erc4626Token = {
    previewDeposit: (assets) => mulDiv(assets, ONE, rate, false),
    previewMint: (shares) => mulDiv(shares, rate, ONE, true),
    previewRedeem: (shares) => mulDiv(shares, rate, ONE, false),
    previewWithdraw: (assets) => mulDiv(assets, ONE, rate, true),
    ...unlimited(limits),
    // One share price, which a deposit or redeem at that price leaves where it is; what the token
    // then allows is not known without asking it again.
    after: () => token,
  };
  return token;
}

/**
 * OpenZeppelin's ERC4626 (v5): conversions by total assets and supply with the virtual offset
 * (`10^decimalsOffset` shares, 1 asset), so a vault read by its totals is previewed exactly.
 * `vaultShares` is the Balancer Vault's share balance, which caps what it can redeem.
 */
export function openZeppelinErc4626(totals: {
  readonly totalAssets: bigint;
  readonly totalSupply: bigint;
  readonly decimalsOffset: bigint;
  readonly vaultShares: bigint;
}): Erc4626Token {
  const virtualShares = totals.totalSupply + 10n ** totals.decimalsOffset;
  const virtualAssets = totals.totalAssets + 1n;
  const toShares = (assets: bigint, up: boolean): bigint => mulDiv(assets, virtualShares, virtualAssets, up);
  const toAssets = (shares: bigint, up: boolean): bigint => mulDiv(shares, virtualAssets, virtualShares, up);
  return {
    previewDeposit: (assets) => toShares(assets, false),
    previewMint: (shares) => toAssets(shares, true),
    previewRedeem: (shares) => toAssets(shares, false),
    previewWithdraw: (assets) => toShares(assets, true),
    maxDeposit: MAX_UINT256,
    maxMint: MAX_UINT256,
    maxRedeem: totals.vaultShares,
    maxWithdraw: toAssets(totals.vaultShares, false),
    // New totals: the deposit's shares minted to the Vault, or the redeemed shares burnt from it.
    after: (call) =>
      openZeppelinErc4626(
        call.kind === 'deposit'
          ? {
              ...totals,
              totalAssets: totals.totalAssets + call.assets,
              totalSupply: totals.totalSupply + call.shares,
              vaultShares: totals.vaultShares + call.shares,
            }
          : {
              ...totals,
              totalAssets: totals.totalAssets - call.assets,
              totalSupply: totals.totalSupply - call.shares,
              vaultShares: totals.vaultShares - call.shares,
            },
      ),
  };
}

function unlimited(limits: Erc4626Limits): Pick<Erc4626Token, 'maxDeposit' | 'maxMint' | 'maxRedeem' | 'maxWithdraw'> {
  return {
    maxDeposit: limits.maxDeposit ?? MAX_UINT256,
    maxMint: limits.maxMint ?? MAX_UINT256,
    maxRedeem: limits.maxRedeem ?? MAX_UINT256,
    maxWithdraw: limits.maxWithdraw ?? MAX_UINT256,
  };
}
