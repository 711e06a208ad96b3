// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";

/// An ERC-4626 yield vault over a devnet token: the wrapped token of the devnet's ERC4626 linear
/// pool, which reads its rate from convertToAssets. Yield is assets that reach the vault without
/// new shares (deploy.ts mints some straight to it), so the share price is above 1.
contract DevERC4626 is ERC4626 {
    constructor(IERC20 asset_, string memory name_, string memory symbol_) ERC20(name_, symbol_) ERC4626(asset_) {}
}
