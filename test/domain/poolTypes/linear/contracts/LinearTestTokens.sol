// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "@openzeppelin/contracts/token/ERC20/extensions/ERC4626.sol";

/// An ERC-4626 vault over a devnet token: ERC4626 linear pools read their wrapped token's rate
/// from convertToAssets, which grows when assets reach the vault without new shares.
contract TestERC4626 is ERC4626 {
    constructor(IERC20 asset_) ERC20("Wrapped devnet token", "wDEV") ERC4626(asset_) {}
}

/// Stand-in for Aave v2's lending pool: the 2021 Aave linear pool reads the main token's
/// normalized income (a 27-decimal ray) as its wrapped token's rate.
contract TestLendingPool {
    uint256 public income = 1e27;

    function setIncome(uint256 income_) external {
        income = income_;
    }

    function getReserveNormalizedIncome(address) external view returns (uint256) {
        return income;
    }
}

/// Stand-in for a static aToken: a mintable ERC20 that names its lending pool and asset, which is
/// all the 2021 Aave linear pool asks of it.
contract TestStaticAToken is ERC20 {
    address public immutable LENDING_POOL;
    address public immutable ASSET;
    uint8 private immutable _decimals;

    constructor(address lendingPool, address asset, uint8 decimals_) ERC20("Static aToken", "stDEV") {
        LENDING_POOL = lendingPool;
        ASSET = asset;
        _decimals = decimals_;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
