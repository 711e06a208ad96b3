// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice The part of Multicall3 (deployed at 0xcA11bde05977b3631167028862bE2a173976CA11 on the
/// chains the service follows) that the service calls: `aggregate3` and `getBlockNumber`, with
/// the same selectors, arguments and return encoding, written for the devnet, which installs its
/// runtime code at that address (src/devnet/multicall3.ts).
contract Multicall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            Call3 calldata c = calls[i];
            (bool success, bytes memory data) = c.target.call(c.callData);
            if (!success && !c.allowFailure) {
                // As Multicall3: a call that may not fail and fails fails the whole aggregate.
                revert("Multicall3: call failed");
            }
            returnData[i] = Result(success, data);
        }
    }

    function getBlockNumber() public view returns (uint256 blockNumber) {
        blockNumber = block.number;
    }
}
