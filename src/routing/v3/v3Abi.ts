import { Interface } from 'ethers';

/**
 * The Balancer V3 router functions a V3 order calls, and Permit2's, as human-readable ABI
 * fragments (facts from `@balancer-labs/v3-interfaces` 1.0.0: `IBatchRouter.sol`,
 * `BatchRouterTypes.sol`, `IRouter.sol`; Permit2's `IAllowanceTransfer`). The routers pull tokens
 * through Permit2 and pay what a swap gives to `msg.sender`.
 */

const STEP = '(address pool, address tokenOut, bool isBuffer)';

export const BATCH_ROUTER_ABI = [
  `function swapExactIn((address tokenIn, ${STEP}[] steps, uint256 exactAmountIn, uint256 minAmountOut)[] paths, uint256 deadline, bool wethIsEth, bytes userData) payable returns (uint256[] pathAmountsOut, address[] tokensOut, uint256[] amountsOut)`,
  `function swapExactOut((address tokenIn, ${STEP}[] steps, uint256 maxAmountIn, uint256 exactAmountOut)[] paths, uint256 deadline, bool wethIsEth, bytes userData) payable returns (uint256[] pathAmountsIn, address[] tokensIn, uint256[] amountsIn)`,
  `function querySwapExactIn((address tokenIn, ${STEP}[] steps, uint256 exactAmountIn, uint256 minAmountOut)[] paths, address sender, bytes userData) returns (uint256[] pathAmountsOut, address[] tokensOut, uint256[] amountsOut)`,
  `function querySwapExactOut((address tokenIn, ${STEP}[] steps, uint256 maxAmountIn, uint256 exactAmountOut)[] paths, address sender, bytes userData) returns (uint256[] pathAmountsIn, address[] tokensIn, uint256[] amountsIn)`,
] as const;

export const ROUTER_ABI = [
  'function swapSingleTokenExactIn(address pool, address tokenIn, address tokenOut, uint256 exactAmountIn, uint256 minAmountOut, uint256 deadline, bool wethIsEth, bytes userData) payable returns (uint256 amountOut)',
  'function swapSingleTokenExactOut(address pool, address tokenIn, address tokenOut, uint256 exactAmountOut, uint256 maxAmountIn, uint256 deadline, bool wethIsEth, bytes userData) payable returns (uint256 amountIn)',
] as const;

export const PERMIT2_ABI = [
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
  'function allowance(address user, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)',
] as const;

export const ERC20_ALLOWANCE_ABI = [
  'function allowance(address owner, address spender) view returns (uint256)',
] as const;

export const batchRouterInterface = new Interface(BATCH_ROUTER_ABI);
export const routerInterface = new Interface(ROUTER_ABI);
export const permit2Interface = new Interface(PERMIT2_ABI);
export const erc20AllowanceInterface = new Interface(ERC20_ALLOWANCE_ABI);

/** Permit2 keeps an allowance in 160 bits and its expiry in 48. */
export const UINT160_MAX = (1n << 160n) - 1n;
