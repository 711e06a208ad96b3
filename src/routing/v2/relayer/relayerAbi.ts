import { Interface } from 'ethers';

/**
 * The BatchRelayer functions relayer routes call: the entry point's `multicall` and the library
 * actions it delegates to. These signatures are the same from BatchRelayerLibrary V4 (the devnet's,
 * node_modules/@balancer-labs/v2-deployments/dist/tasks/20220916-batch-relayer-v4) to V6 (the
 * chains' addresses in config/chains.ts); later versions only add pool kinds and actions.
 */
export const RELAYER_ABI = ['function multicall(bytes[] data) payable returns (bytes[] results)'] as const;

const FUNDS = '(address sender, bool fromInternalBalance, address recipient, bool toInternalBalance)';
const REFERENCE = '(uint256 index, uint256 key)';

export const RELAYER_LIBRARY_ABI = [
  `function batchSwap(uint8 kind, (bytes32 poolId, uint256 assetInIndex, uint256 assetOutIndex, uint256 amount, bytes userData)[] swaps, address[] assets, ${FUNDS} funds, int256[] limits, uint256 deadline, uint256 value, ${REFERENCE}[] outputReferences) payable`,
  'function joinPool(bytes32 poolId, uint8 kind, address sender, address recipient, (address[] assets, uint256[] maxAmountsIn, bytes userData, bool fromInternalBalance) request, uint256 value, uint256 outputReference) payable',
  `function exitPool(bytes32 poolId, uint8 kind, address sender, address recipient, (address[] assets, uint256[] minAmountsOut, bytes userData, bool toInternalBalance) request, ${REFERENCE}[] outputReferences) payable`,
  'function approveVault(address token, uint256 amount) payable',
  'function wrapStETH(address sender, address recipient, uint256 amount, uint256 outputReference) payable',
  'function unwrapWstETH(address sender, address recipient, uint256 amount, uint256 outputReference) payable',
] as const;

export const ERC20_APPROVE_ABI = ['function approve(address spender, uint256 amount) returns (bool)'] as const;

export const relayerInterface = new Interface(RELAYER_ABI);
export const relayerLibraryInterface = new Interface(RELAYER_LIBRARY_ABI);
export const erc20ApproveInterface = new Interface(ERC20_APPROVE_ABI);
