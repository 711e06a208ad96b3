// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "@openzeppelin/contracts/interfaces/IERC4626.sol";

/**
 * The rate a Balancer V3 pool reads for an ERC-4626 token (its IRateProvider.getRate): the assets one
 * whole share is worth, as an 18-decimal fixed-point number. Shares and assets share their decimals
 * here (OpenZeppelin's ERC4626 without an offset), so converting 1e18 share units gives that number.
 */
contract DevERC4626RateProvider {
    IERC4626 public immutable erc4626;

    constructor(IERC4626 erc4626_) {
        erc4626 = erc4626_;
    }

    function getRate() external view returns (uint256) {
        return erc4626.convertToAssets(1e18);
    }
}
