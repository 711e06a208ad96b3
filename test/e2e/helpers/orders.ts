import { Contract, HDNodeWallet, Interface, MaxUint256, TransactionReceipt, parseUnits } from 'ethers';
import { balancerAbi } from '../../../src/devnet/artifacts';
import { Devnet, tokenBySymbol } from '../../../src/devnet/devnet';
import type { SerializedSwapInfo, SorOrderResponse } from '../../../src/routing/types';
import type { E2eEnvironment } from './e2eEnvironment';

/**
 * Order plumbing for the end-to-end suite: ask the API, approve, send from a funded account, and
 * measure what actually moved. Everything here talks to the real contracts; nothing is computed
 * from the quote itself.
 */
export const NATIVE_ZERO = '0x0000000000000000000000000000000000000000';
export const NATIVE_EEEE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee';
const ERC20_ABI = [
  'function balanceOf(address) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
];

export const vaultInterface = new Interface(balancerAbi('Vault'));

export interface OrderSpec {
  /** Token symbol, or ETH (native) with the alias to send for it. */
  readonly sell: string;
  readonly buy: string;
  readonly kind: 'sell' | 'buy';
  /** Human units of the sell token (sell) or the buy token (buy). */
  readonly amount: string;
  readonly slippage?: string;
  readonly nativeAlias?: typeof NATIVE_ZERO | typeof NATIVE_EEEE;
}

/** The wire types are the service's own, so a change of shape breaks this suite at compile time. */
/** `/order`'s answer with the fields `routing/routes.ts` adds where the chain's head is followed. */
export type OrderResponse = SorOrderResponse & { readonly blockNumber?: number; readonly pricedAt?: number };
export type SwapInfoResponse = SerializedSwapInfo;

export async function postJson<T>(url: string, body: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? undefined : JSON.parse(text)) as T };
}

function isNative(symbol: string): boolean {
  return symbol === 'ETH';
}

export function tokenAddressFor(devnet: Devnet, symbol: string, alias: string = NATIVE_ZERO): string {
  return isNative(symbol) ? alias : tokenBySymbol(devnet, symbol).address;
}

export function decimalsFor(devnet: Devnet, symbol: string): number {
  return isNative(symbol) ? 18 : tokenBySymbol(devnet, symbol).decimals;
}

/** The request body both /sor and /order take (plus the /order fields). */
export function orderBody(env: E2eEnvironment, spec: OrderSpec, sender: string, extra: Record<string, unknown> = {}) {
  const amountToken = spec.kind === 'sell' ? spec.sell : spec.buy;
  return {
    sellToken: tokenAddressFor(env.devnet, spec.sell, spec.nativeAlias),
    buyToken: tokenAddressFor(env.devnet, spec.buy, spec.nativeAlias),
    orderKind: spec.kind,
    amount: parseUnits(spec.amount, decimalsFor(env.devnet, amountToken)).toString(),
    gasPrice: '1000000000',
    sender,
    ...(spec.slippage === undefined ? {} : { slippagePercentage: spec.slippage }),
    ...extra,
  };
}

export async function balanceOf(env: E2eEnvironment, symbol: string, account: string): Promise<bigint> {
  if (isNative(symbol)) return env.chain.provider.getBalance(account);
  const token = new Contract(tokenBySymbol(env.devnet, symbol).address, ERC20_ABI, env.chain.provider);
  return (await token.getFunction('balanceOf')(account)) as bigint;
}

export async function approveVault(env: E2eEnvironment, wallet: HDNodeWallet, symbol: string): Promise<void> {
  if (isNative(symbol)) return;
  const token = new Contract(tokenBySymbol(env.devnet, symbol).address, ERC20_ABI, wallet);
  await (await token.getFunction('approve')(env.devnet.addresses.vault, MaxUint256)).wait();
}

/** Vault.queryBatchSwap (not a view: staticCall) on the current state -> asset deltas. */
export async function queryBatchSwap(
  env: E2eEnvironment,
  kind: 'sell' | 'buy',
  swaps: SwapInfoResponse['swaps'],
  assets: readonly string[],
  account: string,
): Promise<bigint[]> {
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, env.chain.provider);
  const deltas = (await vault.getFunction('queryBatchSwap').staticCall(
    kind === 'sell' ? 0 : 1,
    swaps.map((s) => ({
      poolId: s.poolId,
      assetInIndex: s.assetInIndex,
      assetOutIndex: s.assetOutIndex,
      amount: s.amount,
      userData: s.userData,
    })),
    [...assets],
    { sender: account, fromInternalBalance: false, recipient: account, toInternalBalance: false },
    { from: account },
  )) as bigint[];
  return [...deltas];
}

/** The batchSwap an /order transaction carries, decoded with the Vault's own ABI. */
export function decodeBatchSwap(data: string) {
  const call = vaultInterface.parseTransaction({ data });
  if (!call || call.name !== 'batchSwap')
    throw new Error(`order data is not Vault.batchSwap but ${call?.name ?? 'unknown'}`);
  const [kind, swaps, assets, funds, limits, deadline] = call.args as unknown as [
    bigint,
    unknown[][],
    string[],
    unknown[],
    bigint[],
    bigint,
  ];
  return {
    kind: Number(kind) === 0 ? ('sell' as const) : ('buy' as const),
    swaps: swaps.map((s) => ({
      poolId: String(s[0]),
      assetInIndex: Number(s[1]),
      assetOutIndex: Number(s[2]),
      amount: String(s[3]),
      userData: String(s[4]),
    })),
    assets: assets.map((a) => a.toLowerCase()),
    funds: { sender: String(funds[0]).toLowerCase(), recipient: String(funds[2]).toLowerCase() },
    limits: [...limits],
    deadline: Number(deadline),
  };
}

export interface Execution {
  readonly receipt: TransactionReceipt;
  /** What left the sender (sell token), gas excluded for native input. */
  readonly paid: bigint;
  /** What reached the receiver (buy token), gas excluded when the receiver sent the transaction. */
  readonly received: bigint;
}

/** Sends an /order transaction (or any call of that shape) from `wallet` and measures the sell and buy token balance changes. */
export async function executeOrder(
  env: E2eEnvironment,
  wallet: HDNodeWallet,
  spec: OrderSpec,
  order: Pick<OrderResponse, 'to' | 'data' | 'value'>,
  receiver = wallet.address,
): Promise<Execution> {
  const [sellBefore, buyBefore] = await Promise.all([
    balanceOf(env, spec.sell, wallet.address),
    balanceOf(env, spec.buy, receiver),
  ]);
  const tx = await wallet.sendTransaction({ to: order.to, data: order.data, value: BigInt(order.value) });
  const receipt = await tx.wait();
  if (!receipt || receipt.status !== 1) throw new Error(`order transaction ${tx.hash} failed`);
  const [sellAfter, buyAfter] = await Promise.all([
    balanceOf(env, spec.sell, wallet.address),
    balanceOf(env, spec.buy, receiver),
  ]);
  const gas = receipt.gasUsed * receipt.gasPrice;
  const paid = sellBefore - sellAfter - (isNative(spec.sell) ? gas : 0n);
  const received = buyAfter - buyBefore + (isNative(spec.buy) && receiver === wallet.address ? gas : 0n);
  return { receipt, paid, received };
}

/** Revert reason of a call (e.g. "BAL#507"), or undefined when it succeeds. */
export async function revertReason(
  env: E2eEnvironment,
  from: string,
  order: OrderResponse,
): Promise<string | undefined> {
  try {
    await env.chain.provider.call({ from, to: order.to, data: order.data, value: BigInt(order.value) });
    return undefined;
  } catch (e) {
    const err = e as { reason?: string; shortMessage?: string; message: string };
    return err.reason ?? err.shortMessage ?? err.message;
  }
}
