import { Interface } from 'ethers';

/** The Balancer V2 Vault functions routing encodes (human-readable ABI; facts from the Vault). */
export const VAULT_ABI = [
  'function batchSwap(uint8 kind, (bytes32 poolId, uint256 assetInIndex, uint256 assetOutIndex, uint256 amount, bytes userData)[] swaps, address[] assets, (address sender, bool fromInternalBalance, address recipient, bool toInternalBalance) funds, int256[] limits, uint256 deadline) payable returns (int256[] assetDeltas)',
  'function setRelayerApproval(address sender, address relayer, bool approved)',
] as const;

export const vaultInterface = new Interface(VAULT_ABI);

/** `IVault.SwapKind`. */
export const SWAP_KIND = { GIVEN_IN: 0, GIVEN_OUT: 1 } as const;
