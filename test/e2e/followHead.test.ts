import { Contract, HDNodeWallet, MaxUint256 } from 'ethers';
import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { decimalToUnits } from '../../src/domain/decimal';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import { decodeBatchSwap, OrderResponse, postJson, vaultInterface } from './helpers/orders';
import { seededRandom } from './helpers/randomOrders';

/**
 * The service follows the chain's head: with no pool update after start and a subgraph frozen at
 * its first answer, a third party trades directly on the Vault (random pools, sells and buys of
 * 1-5 % of a balance), and one second after that block a user asks /order at slippage 0 and sends
 * it. Every order must pay and receive exactly what was quoted: the quote can only be right if the
 * service read the third party's trade from the chain.
 */

const ROUNDS = 8;
const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
];

let env: E2eEnvironment;
const random = seededRandom(20261126);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tally = { orders: 0, exact: 0, inexact: [] as string[] };
const traded = new Set<string>();

interface StoredTokens {
  tokens: { address: string; balance: string; decimals: number }[];
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function poolTokens(poolId: string): Promise<{ tokens: string[]; balances: bigint[] }> {
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, env.chain.provider);
  const [tokens, balances] = (await vault.getFunction('getPoolTokens')(poolId)) as [string[], bigint[]];
  return { tokens: tokens.map((t) => t.toLowerCase()), balances: [...balances] };
}

async function balanceOf(token: string, account: string): Promise<bigint> {
  return (await new Contract(token, ERC20, env.chain.provider).getFunction('balanceOf')(account)) as bigint;
}

async function approveAll(wallet: HDNodeWallet, tokens: readonly string[]): Promise<void> {
  for (const t of tokens) {
    if ((await balanceOf(t, wallet.address)) === 0n) continue;
    await (await new Contract(t, ERC20, wallet).getFunction('approve')(env.devnet.addresses.vault, MaxUint256)).wait();
  }
}

/** Tokens of the pool a wallet holds (its own BPT left out: that is a join or exit). */
async function tradable(pool: (typeof env.devnet.pools)[number], account: string): Promise<string[]> {
  const out: string[] = [];
  for (const t of pool.tokens) if (t !== pool.address && (await balanceOf(t, account)) > 0n) out.push(t);
  return out;
}

/** 1-5 % of `balance`, capped at a third of what the wallet holds. */
function share(balance: bigint, held: bigint): bigint {
  const pct = BigInt(100 + Math.floor(random() * 400)); // basis points / 100: 1.00 % .. 4.99 %
  const amount = (balance * pct) / 10_000n;
  return amount < held / 3n ? amount : held / 3n;
}

async function readyFollow(): Promise<{ stateBlock: number | null; headBlock: number | null }> {
  const ready = await getJson<{
    chains: { chainId: number; follow: { stateBlock: number | null; headBlock: number | null } | null }[];
  }>(`${env.apiUrl}/readyz`);
  const chain = ready.chains.find((c) => c.chainId === DEVNET_CHAIN_ID)!;
  expect(chain.follow).not.toBeNull();
  return chain.follow!;
}

/**
 * Waits until the served state is at least `block` (the follower polls every 250 ms here). The
 * cap is long and only there to end a hung suite: a busy CPU slows the follower, not the outcome.
 */
async function reached(block: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (((await readyFollow()).stateBlock ?? -1) < block && Date.now() < deadline) await sleep(50);
  expect((await readyFollow()).stateBlock).toBeGreaterThanOrEqual(block);
}

/** Waits until the served state is the chain's head. */
async function caughtUp(): Promise<void> {
  const head = await env.chain.provider.getBlockNumber();
  await reached(head);
  expect((await readyFollow()).stateBlock).toBe(head);
}

beforeAll(async () => {
  env = await startE2eEnvironment({ rpc: true, follow: true, frozenSubgraph: true });
  // The catalogue, once, at start (the embedded timer runs it too); prices for gas costs.
  expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);
  expect((await postJson(`${env.apiUrl}/tokens/update/`, {})).status).toBe(201);
  const tokens = [...new Set(env.devnet.pools.flatMap((p) => p.tokens))];
  const user = trader(env, 1);
  await approveAll(user, tokens);
  await approveAll(trader(env, 2), tokens);
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, user);
  await (await vault.getFunction('setRelayerApproval')(user.address, env.devnet.addresses.batchRelayer, true)).wait();
  await caughtUp();
}, 180_000);

afterAll(async () => {
  process.stdout.write(
    `e2e follow head (${env?.description}): ${tally.exact}/${tally.orders} orders at slippage 0 paid exactly the quote ` +
      `after a third party's trade${tally.inexact.length ? `; inexact: ${tally.inexact.join('; ')}` : ''}\n`,
  );
  await env?.close();
});

test('/readyz shows the followed head and the state block', async () => {
  const follow = await readyFollow();
  const head = await env.chain.provider.getBlockNumber();
  expect(follow.stateBlock).toBe(head);
  expect(follow.headBlock).toBe(head);
});

test('a third party trading on the Vault is in GET /pools and in the next quote, which executes exactly', async () => {
  const pools = env.devnet.pools;
  const third = trader(env, 2);
  const user = trader(env, 1);
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, third);
  for (let round = 0; round < ROUNDS; round++) {
    // The third party's trade: a random pool and pair, a sell or a buy of 1-5 % of a balance.
    let pool = pick(pools);
    let pair = await tradable(pool, third.address);
    while (pair.length < 2) {
      pool = pick(pools);
      pair = await tradable(pool, third.address);
    }
    const tokenIn = pick(pair);
    const tokenOut = pick(pair.filter((t) => t !== tokenIn));
    const before = await poolTokens(pool.id);
    const giveIn = random() < 0.5;
    const amount = giveIn
      ? share(before.balances[before.tokens.indexOf(tokenIn)]!, await balanceOf(tokenIn, third.address))
      : share(before.balances[before.tokens.indexOf(tokenOut)]!, await balanceOf(tokenIn, third.address));
    const single = {
      poolId: pool.id,
      kind: giveIn ? 0 : 1,
      assetIn: tokenIn,
      assetOut: tokenOut,
      amount,
      userData: '0x',
    };
    const funds = {
      sender: third.address,
      fromInternalBalance: false,
      recipient: third.address,
      toInternalBalance: false,
    };
    const receipt = await (await vault.getFunction('swap')(single, funds, giveIn ? 0n : MaxUint256, MaxUint256)).wait();
    const tradeBlock = receipt!.blockNumber;
    traded.add(pool.id);
    await reached(tradeBlock);

    // GET /pools shows the chain's balances after the trade, though the subgraph is frozen.
    const after = await poolTokens(pool.id);
    const listed = await getJson<StoredTokens>(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${pool.id}`);
    expect(listed.tokens.map((t) => [t.address, decimalToUnits(t.balance, t.decimals)])).toEqual(
      after.tokens.map((a, i) => [a, after.balances[i]]),
    );

    // The user's order on the moved pair, at slippage 0, one second after the trade's block.
    const sell = random() < 0.5 ? tokenOut : tokenIn;
    const buy = sell === tokenIn ? tokenOut : tokenIn;
    const kind = random() < 0.5 ? 'sell' : 'buy';
    const amountToken = kind === 'sell' ? sell : buy;
    const userAmount =
      share(after.balances[after.tokens.indexOf(amountToken)]!, await balanceOf(sell, user.address)) / 4n;
    const body = {
      sellToken: sell,
      buyToken: buy,
      orderKind: kind,
      amount: userAmount.toString(),
      gasPrice: '1000000000',
      sender: user.address,
      slippagePercentage: '0',
    };
    const res = await postJson<OrderResponse & { blockNumber?: number }>(
      `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
      body,
    );
    expect(res.status).toBe(200);
    const order = res.body;
    expect(order.blockNumber).toBeGreaterThanOrEqual(tradeBlock);

    const [sellBefore, buyBefore] = await Promise.all([balanceOf(sell, user.address), balanceOf(buy, user.address)]);
    const sent = await user.sendTransaction({ to: order.to, data: order.data, value: BigInt(order.value) });
    const done = await sent.wait();
    expect(done?.status).toBe(1);
    const paid = sellBefore - (await balanceOf(sell, user.address));
    const received = (await balanceOf(buy, user.address)) - buyBefore;
    tally.orders++;
    const quoted = { paid: BigInt(order.price.sellAmount), received: BigInt(order.price.buyAmount) };
    if (paid === quoted.paid && received === quoted.received) tally.exact++;
    else
      tally.inexact.push(
        `round ${round} ${kind} ${userAmount} of ${amountToken} in ${pool.name} (${decodeBatchSwap(order.data).swaps.length} swaps): quoted ${quoted.paid}/${quoted.received}, executed ${paid}/${received}`,
      );
  }
  expect(tally.inexact).toEqual([]);
  expect(tally.exact).toBe(ROUNDS);
}, 240_000);

test('the frozen subgraph still shows the balances from before the trades: the state came from the chain', async () => {
  expect(traded.size).toBeGreaterThan(0);
  await caughtUp();
  for (const id of traded) {
    const res = await postJson<{ data: { pool: StoredTokens } }>(env.subgraphUrl!, {
      query: `{ pool(id: "${id}") { tokens { address balance decimals } } }`,
    });
    const frozen = res.body.data.pool.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
    const chain = await poolTokens(id);
    const served = await getJson<StoredTokens>(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${id}`);
    expect(served.tokens.map((t) => decimalToUnits(t.balance, t.decimals))).toEqual(chain.balances);
    expect(frozen).not.toEqual(chain.balances);
  }
});

test('a reorg (the chain rewound and a different block mined at the same height) is re-read: the state is the new chain', async () => {
  const third = trader(env, 2);
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, third);
  const swapIn = async (pool: (typeof env.devnet.pools)[number]) => {
    const [tokenIn, tokenOut] = await tradable(pool, third.address);
    const { balances, tokens } = await poolTokens(pool.id);
    const amount = share(balances[tokens.indexOf(tokenIn!)]!, await balanceOf(tokenIn!, third.address));
    const single = { poolId: pool.id, kind: 0, assetIn: tokenIn, assetOut: tokenOut, amount, userData: '0x' };
    const funds = {
      sender: third.address,
      fromInternalBalance: false,
      recipient: third.address,
      toInternalBalance: false,
    };
    return (await (await vault.getFunction('swap')(single, funds, 0n, MaxUint256)).wait())!;
  };
  const served = async (id: string) =>
    (await getJson<StoredTokens>(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${id}`)).tokens.map((t) =>
      decimalToUnits(t.balance, t.decimals),
    );
  const waitForState = async (hash: string) => {
    for (let i = 0; i < 40; i++) {
      const ready = await getJson<{ chains: { follow: { stateBlockHash: string | null } | null }[] }>(
        `${env.apiUrl}/readyz`,
      );
      if (ready.chains[0]?.follow?.stateBlockHash === hash) return;
      await sleep(100);
    }
    throw new Error(`the follower did not reach block ${hash}`);
  };
  const candidates = env.devnet.pools.filter((p) => p.kind === 'weighted');
  const [a, b] = [candidates[0]!, candidates[1]!];
  const aBefore = (await poolTokens(a.id)).balances;

  const snapshot = await env.chain.snapshot();
  const first = await swapIn(a);
  await waitForState(first.blockHash.toLowerCase());
  expect(await served(a.id)).not.toEqual(aBefore);

  await env.chain.revert(snapshot);
  const second = await swapIn(b);
  expect(second.blockNumber).toBe(first.blockNumber);
  expect(second.blockHash).not.toBe(first.blockHash);
  await waitForState(second.blockHash.toLowerCase());
  expect(await served(a.id)).toEqual(aBefore);
  expect(await served(b.id)).toEqual((await poolTokens(b.id)).balances);
});
