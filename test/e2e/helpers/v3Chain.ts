import {
  Block,
  Contract,
  HDNodeWallet,
  Log,
  LogDescription,
  MaxUint256,
  TransactionReceipt,
  ZeroAddress,
} from 'ethers';
import { devAccount, DEPLOYER_INDEX } from '../../../src/devnet/accounts';
import { DEVNET_CHAIN_ID, tokenBySymbol, type DevnetV3Buffer, type DevnetV3Pool } from '../../../src/devnet/devnet';
import { approveThroughPermit2 } from '../../../src/devnet/v3/permit2';
import { BATCH_ROUTER_ABI } from '../../../src/routing/v3/v3Abi';
import type { SerializedV3SwapInfo } from '../../../src/routing/types';
import type { E2eEnvironment } from './e2eEnvironment';
import type { OrderResponse } from './orders';
import { getJson, share, sleep, tokenBalance } from './follow';

/**
 * What the V3 end-to-end suite does to the devnet's Balancer V3 besides sending orders: a third
 * party's trade on a V3 pool or through a buffer (the BatchRouter, Permit2 approvals), yield
 * accrued by an ERC-4626 vault (its asset minted straight to it, as no Vault event tells), and the
 * BatchRouter's own query of a path set (an `eth_call` from the zero address at a block, as
 * Balancer's SDK checks a route). Nothing here computes what a quote should be.
 */

const VAULT = [
  'function getPoolTokenInfo(address pool) view returns (address[] tokens, (uint8,address,bool)[] tokenInfo, uint256[] balancesRaw, uint256[] lastBalancesLiveScaled18)',
  'function getBufferBalance(address wrappedToken) view returns (uint256 underlying, uint256 wrapped)',
];
const ERC4626 = ['function totalAssets() view returns (uint256)', 'function asset() view returns (address)'];
const ERC20_TRANSFER = ['function transfer(address to, uint256 amount) returns (bool)'];

export const batchRouter = (env: E2eEnvironment, runner: HDNodeWallet | undefined = undefined) =>
  new Contract(env.devnet.v3.addresses.batchRouter, BATCH_ROUTER_ABI, runner ?? env.chain.provider);

/** One BatchRouter step, as the paths of an answer name them. */
interface Step {
  readonly pool: string;
  readonly tokenOut: string;
  readonly isBuffer: boolean;
}

export interface ThirdPartyV3Trade {
  readonly what: string;
  readonly block: number;
  /** The pair traded (lower case). */
  readonly tokenIn: string;
  readonly tokenOut: string;
}

/**
 * A third party's exact-in trade of 1-5 % of a balance: through a random V3 pool (a pair it holds)
 * or a random buffer (wrapping or unwrapping), with the BatchRouter.
 */
export async function thirdPartyV3Trade(
  env: E2eEnvironment,
  wallet: HDNodeWallet,
  random: () => number,
): Promise<ThirdPartyV3Trade> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const v3 = env.devnet.v3;
  const throughBuffer = random() < 0.35;
  let tokenIn: string;
  let step: Step;
  let balance: bigint;
  let what: string;
  if (throughBuffer) {
    const buffer: DevnetV3Buffer = pick(v3.buffers);
    const [underlying, wrapped] = (await new Contract(v3.addresses.vault, VAULT, env.chain.provider).getFunction(
      'getBufferBalance',
    )(buffer.wrapped)) as [bigint, bigint];
    const wrap = random() < 0.5;
    tokenIn = wrap ? buffer.underlying : buffer.wrapped;
    step = { pool: buffer.wrapped, tokenOut: wrap ? buffer.wrapped : buffer.underlying, isBuffer: true };
    // What the buffer holds of the token out, so it serves most trades itself.
    balance = wrap ? wrapped : underlying;
    what = `${wrap ? 'wrap' : 'unwrap'} through the ${buffer.symbol} buffer`;
  } else {
    // The weighted and stable pools (the token sales take their own rules and tokens).
    const pool: DevnetV3Pool = pick(v3.pools.filter((p) => p.kind === 'weighted' || p.kind === 'stable'));
    const [tokens, , balances] = (await new Contract(v3.addresses.vault, VAULT, env.chain.provider).getFunction(
      'getPoolTokenInfo',
    )(pool.address)) as [string[], unknown, bigint[]];
    const i = Math.floor(random() * tokens.length);
    const j = (i + 1 + Math.floor(random() * (tokens.length - 1))) % tokens.length;
    tokenIn = tokens[i]!.toLowerCase();
    step = { pool: pool.address, tokenOut: tokens[j]!.toLowerCase(), isBuffer: false };
    balance = balances[i]!;
    what = `swap on ${pool.symbol}`;
  }
  const held = await tokenBalance(env, tokenIn, wallet.address);
  const amount = share(random, balance, held);
  await approveThroughPermit2(wallet, v3.addresses.permit2, tokenIn, v3.addresses.batchRouter);
  const receipt = await (
    await batchRouter(env, wallet).getFunction('swapExactIn')(
      [{ tokenIn, steps: [step], exactAmountIn: amount, minAmountOut: 0n }],
      MaxUint256,
      false,
      '0x',
    )
  ).wait();
  return { what: `${what} (${amount} in)`, block: receipt!.blockNumber, tokenIn, tokenOut: step.tokenOut };
}

const WEIGHTED_FACTORY = [
  'function create(string name, string symbol, (address token, uint8 tokenType, address rateProvider, bool paysYieldFees)[] tokens, uint256[] normalizedWeights, (address pauseManager, address swapFeeManager, address poolCreator) roleAccounts, uint256 swapFeePercentage, address poolHooksContract, bool enableDonation, bool disableUnbalancedLiquidity, bytes32 salt) returns (address pool)',
  'event PoolCreated(address indexed pool)',
];
const ROUTER_INIT = [
  'function initialize(address pool, address[] tokens, uint256[] exactAmountsIn, uint256 minBptAmountOut, bool wethIsEth, bytes userData) payable returns (uint256 bptAmountOut)',
];

/**
 * A 50/50 V3 weighted pool of two tokens a third party creates from the devnet's factory and
 * seeds through the Router (Permit2 approvals first), after the service read its catalogue:
 * only the V3 Vault's `PoolRegistered` log tells the service. Its address and the block that
 * initialised it.
 */
export async function createWeightedPool(
  env: E2eEnvironment,
  wallet: HDNodeWallet,
  seeds: readonly { readonly token: string; readonly amount: bigint }[],
): Promise<{ address: string; block: number }> {
  const v3 = env.devnet.v3.addresses;
  const sorted = [...seeds].sort((a, b) => (a.token < b.token ? -1 : 1));
  const factory = new Contract(v3.weightedPoolFactory, WEIGHTED_FACTORY, wallet);
  const receipt = await (
    await factory.getFunction('create')(
      'V3 pool made after the catalogue',
      'V3-LATE',
      sorted.map((s) => ({ token: s.token, tokenType: 0, rateProvider: ZeroAddress, paysYieldFees: false })),
      sorted.map(() => 5n * 10n ** 17n),
      { pauseManager: ZeroAddress, swapFeeManager: ZeroAddress, poolCreator: ZeroAddress },
      3n * 10n ** 15n,
      ZeroAddress,
      false,
      false,
      `0x${'1e'.repeat(32)}`,
    )
  ).wait();
  const created = receipt!.logs
    .map((l: Log) => factory.interface.parseLog(l))
    .find((l: LogDescription | null) => l?.name === 'PoolCreated');
  const address = String(created!.args[0]).toLowerCase();
  for (const s of sorted) await approveThroughPermit2(wallet, v3.permit2, s.token, v3.router);
  const init = await (
    await new Contract(v3.router, ROUTER_INIT, wallet).getFunction('initialize')(
      address,
      sorted.map((s) => s.token),
      sorted.map((s) => s.amount),
      0n,
      false,
      '0x',
    )
  ).wait();
  return { address, block: init!.blockNumber };
}

/** Yield for an ERC-4626 vault: `1/divisor` of its assets minted (WETH: wrapped) straight to it (a higher share price). */
export async function accrueBufferYield(env: E2eEnvironment, buffer: DevnetV3Buffer, divisor: bigint): Promise<number> {
  const vault = new Contract(buffer.wrapped, ERC4626, env.chain.provider);
  const assets = (await vault.getFunction('totalAssets')()) as bigint;
  const minter = devAccount(DEPLOYER_INDEX, env.chain.provider);
  const amount = assets / divisor + 1n;
  if (buffer.underlying.toLowerCase() === tokenBySymbol(env.devnet, 'WETH').address.toLowerCase()) {
    // WETH has no minter: the deployer wraps its own ether and sends it.
    const weth = new Contract(buffer.underlying, ['function deposit() payable', ...ERC20_TRANSFER], minter);
    await (await weth.getFunction('deposit')({ value: amount })).wait();
    return (await (await weth.getFunction('transfer')(buffer.wrapped, amount)).wait())!.blockNumber;
  }
  const asset = new Contract(buffer.underlying, ['function mint(address to, uint256 amount)'], minter);
  const receipt = await (await asset.getFunction('mint')(buffer.wrapped, amount)).wait();
  return receipt!.blockNumber;
}

/**
 * The BatchRouter's answer for an answer's paths at `block`: `querySwapExactIn` (sell) or
 * `querySwapExactOut` (buy), from the zero address: per path the amount out (in).
 */
export async function queryPaths(
  env: E2eEnvironment,
  kind: 'sell' | 'buy',
  info: SerializedV3SwapInfo,
  block: number,
): Promise<bigint[]> {
  const router = batchRouter(env);
  const paths = info.paths.map((p) => ({
    tokenIn: p.tokenIn,
    steps: p.steps.map((s) => ({ pool: s.pool, tokenOut: s.tokenOut, isBuffer: s.isBuffer })),
    ...(kind === 'sell'
      ? { exactAmountIn: BigInt(p.amountIn), minAmountOut: 0n }
      : { maxAmountIn: MaxUint256, exactAmountOut: BigInt(p.amountOut) }),
  }));
  const fn = router.getFunction(kind === 'sell' ? 'querySwapExactIn' : 'querySwapExactOut');
  const data = fn.fragment && router.interface.encodeFunctionData(fn.fragment, [paths, ZeroAddress, '0x']);
  const raw = await env.chain.provider.call({ to: router.target as string, data, from: ZeroAddress, blockTag: block });
  const [perPath] = router.interface.decodeFunctionResult(fn.fragment, raw) as unknown as [bigint[]];
  return [...perPath];
}

/** Every token `symbols` names, lower case (ETH is WETH). */
export const v3Token = (env: E2eEnvironment, symbol: string): string =>
  tokenBySymbol(env.devnet, symbol === 'ETH' ? 'WETH' : symbol).address;

/**
 * Waits until /pools serves every V3 pool of the devnet with its chain state: the embedded timers'
 * first runs fill the catalogue and the prices, then the follower reads the V3 pools it gained from
 * the chain (their last live balances are the chain's alone).
 */
export async function v3PoolsFollowed(env: E2eEnvironment): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const pools = await getJson<{ protocolVersion?: number; v3?: { lastLiveBalances: string[] | null } }[]>(
      `${env.apiUrl}/pools/${DEVNET_CHAIN_ID}`,
    );
    const followed = pools.filter((p) => p.protocolVersion === 3 && p.v3?.lastLiveBalances);
    if (followed.length >= env.devnet.v3.pools.length) return;
    if (Date.now() > deadline) throw new Error('the V3 pools never reached /pools with their chain state');
    await sleep(100);
  }
}

/** What an order sent by `sendInNextBlock` moved, and where it was mined. */
export interface NextBlockOrder {
  readonly receipt: TransactionReceipt;
  readonly paid: bigint;
  readonly received: bigint;
  readonly quotedAt: Block;
  readonly minedAt: Block;
}

/**
 * A V3 order as a user sends it at once: the approvals `/order` listed and the order, mined
 * together in the block after the quote's (a wallet's batch; nothing else is mined between). A
 * pool whose price moves every second (a token sale) prices the order exactly only in the block the
 * quote priced: the answer's `pricedAt`, which is pinned. Measured on the wallet's balances of the
 * two tokens (neither native).
 */
export async function sendInNextBlock(
  env: E2eEnvironment,
  wallet: HDNodeWallet,
  sell: string,
  buy: string,
  quote: OrderResponse,
): Promise<NextBlockOrder> {
  const provider = env.chain.provider;
  const [sellToken, buyToken] = [sell, buy].map((s) => tokenBySymbol(env.devnet, s).address);
  const before = await Promise.all([
    tokenBalance(env, sellToken!, wallet.address),
    tokenBalance(env, buyToken!, wallet.address),
  ]);
  const head = (await provider.getBlock('latest'))!;
  // The block must come at the time the quote priced at: on demand that is the chain's clock when
  // it was asked, a second past the head at least, so a slow machine cannot mine it later.
  if (quote.pricedAt === undefined) throw new Error('the order names no pricedAt: its block time is unknown');
  if (quote.blockNumber === head.number) await provider.send('evm_setNextBlockTimestamp', [quote.pricedAt]);
  await provider.send('evm_setAutomine', [false]);
  let hash: string;
  try {
    for (const a of quote.approvals) await wallet.sendTransaction({ to: a.to, data: a.data, gasLimit: 200_000 });
    hash = (
      await wallet.sendTransaction({ to: quote.to, data: quote.data, value: BigInt(quote.value), gasLimit: 3_000_000 })
    ).hash;
    await provider.send('evm_mine', []);
  } finally {
    await provider.send('evm_setAutomine', [true]);
  }
  const receipt = (await provider.getTransactionReceipt(hash))!;
  const after = await Promise.all([
    tokenBalance(env, sellToken!, wallet.address),
    tokenBalance(env, buyToken!, wallet.address),
  ]);
  return {
    receipt,
    paid: before[0]! - after[0]!,
    received: after[1]! - before[1]!,
    quotedAt: (await provider.getBlock(quote.blockNumber!))!,
    minedAt: (await provider.getBlock(receipt.blockNumber))!,
  };
}
