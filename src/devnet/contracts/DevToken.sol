// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A mintable ERC20 with any number of decimals (OpenZeppelin's presets are fixed at 18), so the
/// devnet can hold USDC-like (6) and WBTC-like (8) tokens next to 18-decimal ones.
contract DevToken is ERC20 {
    uint8 private immutable _decimals;
    address public immutable minter;

    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_) {
        _decimals = decimals_;
        minter = msg.sender;
    }

    function decimals() public view override returns (uint8) {
        return _decimals;
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "DevToken: only the deployer mints");
        _mint(to, amount);
    }
}
