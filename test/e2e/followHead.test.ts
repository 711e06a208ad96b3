import { Contract, MaxUint256 } from 'ethers';
import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { decimalToUnits } from '../../src/domain/decimal';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import {
  approveAll,
  caughtUp,
  followStatus,
  getJson,
  poolTokens,
  reached,
  share,
  sleep,
  thirdPartyTrade,
  tokenBalance,
  tradable,
} from './helpers/follow';
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

let env: E2eEnvironment;
const random = seededRandom(20261126);
const tally = { orders: 0, exact: 0, inexact: [] as string[] };
const traded = new Set<string>();

interface StoredTokens {
  tokens: { address: string; balance: string; decimals: number }[];
}

const balanceOf = (token: string, account: string) => tokenBalance(env, token, account);
const readyFollow = () => followStatus(env);

beforeAll(async () => {
  env = await startE2eEnvironment({ rpc: true, follow: true, frozenSubgraph: true });
  // The catalogue, once, at start (the embedded timer runs it too); prices for gas costs.
  expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);
  expect((await postJson(`${env.apiUrl}/tokens/update/`, {})).status).toBe(201);
  const tokens = [...new Set(env.devnet.pools.flatMap((p) => p.tokens))];
  const user = trader(env, 1);
  await approveAll(env, user, tokens);
  await approveAll(env, trader(env, 2), tokens);
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, user);
  await (await vault.getFunction('setRelayerApproval')(user.address, env.devnet.addresses.batchRelayer, true)).wait();
  await caughtUp(env);
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
  const third = trader(env, 2);
  const user = trader(env, 1);
  for (let round = 0; round < ROUNDS; round++) {
    // The third party's trade: a random pool and pair, a sell or a buy of 1-5 % of a balance.
    const { pool, tokenIn, tokenOut, block: tradeBlock } = await thirdPartyTrade(env, third, random);
    traded.add(pool.id);
    await reached(env, tradeBlock);

    // GET /pools shows the chain's balances after the trade, though the subgraph is frozen.
    const after = await poolTokens(env, pool.id);
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
      share(random, after.balances[after.tokens.indexOf(amountToken)]!, await balanceOf(sell, user.address)) / 4n;
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
  await caughtUp(env);
  for (const id of traded) {
    const res = await postJson<{ data: { pool: StoredTokens } }>(env.subgraphUrl!, {
      query: `{ pool(id: "${id}") { tokens { address balance decimals } } }`,
    });
    const frozen = res.body.data.pool.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
    const chain = await poolTokens(env, id);
    const served = await getJson<StoredTokens>(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${id}`);
    expect(served.tokens.map((t) => decimalToUnits(t.balance, t.decimals))).toEqual(chain.balances);
    expect(frozen).not.toEqual(chain.balances);
  }
});

test('a reorg (the chain rewound and a different block mined at the same height) is re-read: the state is the new chain', async () => {
  const third = trader(env, 2);
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, third);
  const swapIn = async (pool: (typeof env.devnet.pools)[number]) => {
    const [tokenIn, tokenOut] = await tradable(env, pool, third.address);
    const { balances, tokens } = await poolTokens(env, pool.id);
    const amount = share(random, balances[tokens.indexOf(tokenIn!)]!, await balanceOf(tokenIn!, third.address));
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
  const aBefore = (await poolTokens(env, a.id)).balances;

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
  expect(await served(b.id)).toEqual((await poolTokens(env, b.id)).balances);
});
