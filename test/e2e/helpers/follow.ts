import { Contract, HDNodeWallet, MaxUint256 } from 'ethers';
import { DEVNET_CHAIN_ID, type DevnetPool } from '../../../src/devnet/devnet';
import type { E2eEnvironment } from './e2eEnvironment';
import { vaultInterface } from './orders';

/**
 * What the follow-mode suites (followHead, followState) share: the follower's status from
 * /readyz, waiting for it to reach a block, the Vault's balances, and a third party's trade of
 * 1-5 % of a balance on a random pool. Everything is read from the chain or the API; nothing here
 * computes what a quote should be.
 */

export const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
];

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

export async function poolTokens(
  env: E2eEnvironment,
  poolId: string,
): Promise<{ tokens: string[]; balances: bigint[] }> {
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, env.chain.provider);
  const [tokens, balances] = (await vault.getFunction('getPoolTokens')(poolId)) as [string[], bigint[]];
  return { tokens: tokens.map((t) => t.toLowerCase()), balances: [...balances] };
}

export async function tokenBalance(env: E2eEnvironment, token: string, account: string): Promise<bigint> {
  return (await new Contract(token, ERC20, env.chain.provider).getFunction('balanceOf')(account)) as bigint;
}

/** Lets the Vault pull every token of `tokens` the wallet holds. */
export async function approveAll(env: E2eEnvironment, wallet: HDNodeWallet, tokens: readonly string[]): Promise<void> {
  for (const t of tokens) {
    if ((await tokenBalance(env, t, wallet.address)) === 0n) continue;
    await (await new Contract(t, ERC20, wallet).getFunction('approve')(env.devnet.addresses.vault, MaxUint256)).wait();
  }
}

/** Tokens of the pool a wallet holds (its own BPT left out: that is a join or exit). */
export async function tradable(env: E2eEnvironment, pool: DevnetPool, account: string): Promise<string[]> {
  const out: string[] = [];
  for (const t of pool.tokens) if (t !== pool.address && (await tokenBalance(env, t, account)) > 0n) out.push(t);
  return out;
}

/** 1-5 % of `balance`, capped at a third of what the wallet holds. */
export function share(random: () => number, balance: bigint, held: bigint): bigint {
  const pct = BigInt(100 + Math.floor(random() * 400)); // basis points / 100: 1.00 % .. 4.99 %
  const amount = (balance * pct) / 10_000n;
  return amount < held / 3n ? amount : held / 3n;
}

export interface FollowStatus {
  stateBlock: number | null;
  headBlock: number | null;
}

export async function followStatus(env: E2eEnvironment): Promise<FollowStatus> {
  const ready = await getJson<{ chains: { chainId: number; follow: FollowStatus | null }[] }>(`${env.apiUrl}/readyz`);
  const chain = ready.chains.find((c) => c.chainId === DEVNET_CHAIN_ID)!;
  expect(chain.follow).not.toBeNull();
  return chain.follow!;
}

/**
 * Waits until the served state is at least `block` (the follower polls every 250 ms in these
 * suites). The cap is long and only there to end a hung suite: a busy CPU slows the follower, not
 * the outcome.
 */
export async function reached(env: E2eEnvironment, block: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (((await followStatus(env)).stateBlock ?? -1) < block && Date.now() < deadline) await sleep(50);
  expect((await followStatus(env)).stateBlock).toBeGreaterThanOrEqual(block);
}

/** Waits until the served state is the chain's head. */
export async function caughtUp(env: E2eEnvironment): Promise<void> {
  const head = await env.chain.provider.getBlockNumber();
  await reached(env, head);
  expect((await followStatus(env)).stateBlock).toBe(head);
}

export interface ThirdPartyTrade {
  readonly pool: DevnetPool;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly block: number;
}

/**
 * A third party's single swap on the Vault: a random pool of `pools` and pair it holds, a sell or a
 * buy of 1-5 % of the pool's balance (of the token in, or out).
 */
export async function thirdPartyTrade(
  env: E2eEnvironment,
  wallet: HDNodeWallet,
  random: () => number,
  pools: readonly DevnetPool[] = env.devnet.pools,
): Promise<ThirdPartyTrade> {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, wallet);
  let pool = pick(pools);
  let pair = await tradable(env, pool, wallet.address);
  while (pair.length < 2) {
    pool = pick(pools);
    pair = await tradable(env, pool, wallet.address);
  }
  const tokenIn = pick(pair);
  const tokenOut = pick(pair.filter((t) => t !== tokenIn));
  const before = await poolTokens(env, pool.id);
  const giveIn = random() < 0.5;
  const held = await tokenBalance(env, tokenIn, wallet.address);
  const amount = giveIn
    ? share(random, before.balances[before.tokens.indexOf(tokenIn)]!, held)
    : share(random, before.balances[before.tokens.indexOf(tokenOut)]!, held);
  const single = {
    poolId: pool.id,
    kind: giveIn ? 0 : 1,
    assetIn: tokenIn,
    assetOut: tokenOut,
    amount,
    userData: '0x',
  };
  const funds = {
    sender: wallet.address,
    fromInternalBalance: false,
    recipient: wallet.address,
    toInternalBalance: false,
  };
  const receipt = await (await vault.getFunction('swap')(single, funds, giveIn ? 0n : MaxUint256, MaxUint256)).wait();
  return { pool, tokenIn, tokenOut, block: receipt!.blockNumber };
}
