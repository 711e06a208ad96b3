import { Contract, HDNodeWallet, parseUnits } from 'ethers';
import { devAccount, DEPLOYER_INDEX } from '../../../src/devnet/accounts';
import { balancerAbi } from '../../../src/devnet/artifacts';
import { DEVNET_CHAIN_ID, type DevnetPool } from '../../../src/devnet/devnet';
import { decimalToUnits } from '../../../src/domain/decimal';
import { setProtocolFees } from '../../helpers/devnetPools';
import { E2eEnvironment, startE2eEnvironment, trader } from './e2eEnvironment';
import {
  approveAll,
  caughtUp,
  followStatus,
  getJson,
  poolTokens,
  share,
  thirdPartyTrade,
  tokenBalance,
  tradable,
} from './follow';
import { OrderResponse, postJson, vaultInterface } from './orders';
import { seededRandom } from './randomOrders';

/**
 * Quotes at the head the moment a block lands, on the devnet with the API following it and no pool
 * update after start: the moment a receipt is in, a third party's or the user's own, the user asks
 * /order at slippage 0 and sends it. Every order must pay and receive exactly the quote: the
 * service must answer from the receipt's block, never the one before. And the pool update's 201
 * comes only once the served state has the head. Run with the follower learning blocks from the
 * node's newHeads (as the demo does, `atHead.test.ts`) and by polling every 250 ms alone
 * (`atHeadPolling.test.ts`: only the wait for the head the order asked makes the orders exact).
 */

export function atHeadSuite(heads: 'subscription' | 'polling'): void {
  const ROUNDS = 6;

  let env: E2eEnvironment;
  let user: HDNodeWallet;
  let third: HDNodeWallet;
  const random = seededRandom(heads === 'subscription' ? 20261128 : 20261129);
  const tally = new Map<string, { orders: number; exact: number; inexact: string[] }>();

  const balanceOf = (t: string, account: string) => tokenBalance(env, t, account);
  const token = (symbol: string) => env.devnet.tokens.find((t) => t.symbol === symbol)!.address;
  const pool = (name: string) => env.devnet.pools.find((p) => p.name === name)!;

  interface Ask {
    readonly sell: string;
    readonly buy: string;
    readonly amount: bigint;
    readonly kind: 'sell' | 'buy';
  }

  /**
   * The user's /order at slippage 0 asked at once (no wait for the follower) after `eventBlock`,
   * sent as the next block: what was paid and received against the quote.
   */
  async function orderAtOnce(name: string, label: string, eventBlock: number, ask: Ask) {
    const latest = (await env.chain.provider.getBlock('latest'))!;
    const res = await postJson<OrderResponse & { blockNumber?: number }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
      sellToken: ask.sell,
      buyToken: ask.buy,
      orderKind: ask.kind,
      amount: ask.amount.toString(),
      gasPrice: '1000000000',
      sender: user.address,
      slippagePercentage: '0',
      deadline: latest.timestamp + 3600,
    });
    expect(res.status).toBe(200);
    const order = res.body;
    expect(order.blockNumber).toBeGreaterThanOrEqual(eventBlock);
    const [sellBefore, buyBefore] = await Promise.all([
      balanceOf(ask.sell, user.address),
      balanceOf(ask.buy, user.address),
    ]);
    // The service evaluates at the next block's time, its head's + 1 s (the devnet's blockSeconds).
    if (order.blockNumber === latest.number)
      await env.chain.provider.send('evm_setNextBlockTimestamp', [latest.timestamp + 1]);
    const done = await (
      await user.sendTransaction({ to: order.to, data: order.data, value: BigInt(order.value) })
    ).wait();
    expect(done?.status).toBe(1);
    const paid = sellBefore - (await balanceOf(ask.sell, user.address));
    const received = (await balanceOf(ask.buy, user.address)) - buyBefore;
    const quoted = { paid: BigInt(order.price.sellAmount), received: BigInt(order.price.buyAmount) };
    const t = tally.get(name) ?? { orders: 0, exact: 0, inexact: [] };
    tally.set(name, t);
    t.orders++;
    if (paid === quoted.paid && received === quoted.received) t.exact++;
    else t.inexact.push(`${label}: quoted ${quoted.paid}/${quoted.received}, executed ${paid}/${received}`);
    return { order, received, block: done!.blockNumber };
  }

  /** A sell or buy of a quarter of a 1-5 % share on a pair of `p` the user holds. */
  async function askOn(p: DevnetPool): Promise<Ask> {
    const pair = await tradable(env, p, user.address);
    const sell = pair[Math.floor(random() * pair.length)]!;
    const buy = pair.filter((t) => t !== sell)[Math.floor(random() * (pair.length - 1))]!;
    const kind = random() < 0.5 ? 'sell' : 'buy';
    const { tokens, balances } = await poolTokens(env, p.id);
    const amountToken = kind === 'sell' ? sell : buy;
    const amount = share(random, balances[tokens.indexOf(amountToken)]!, await balanceOf(sell, user.address)) / 4n;
    return { sell, buy, amount, kind };
  }

  beforeAll(async () => {
    env = await startE2eEnvironment({
      rpc: true,
      follow: true,
      subscribe: heads === 'subscription',
      frozenSubgraph: true,
    });
    expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);
    expect((await postJson(`${env.apiUrl}/tokens/update/`, {})).status).toBe(201);
    user = trader(env, 1);
    third = trader(env, 2);
    const tokens = [...new Set(env.devnet.pools.flatMap((p) => p.tokens))];
    await approveAll(env, user, tokens);
    await approveAll(env, third, tokens);
    const vault = new Contract(env.devnet.addresses.vault, vaultInterface, user);
    await (await vault.getFunction('setRelayerApproval')(user.address, env.devnet.addresses.batchRelayer, true)).wait();
    await caughtUp(env);
  }, 180_000);

  afterAll(async () => {
    const per = [...tally.entries()].map(([n, t]) => `${n} ${t.exact}/${t.orders}`).join(', ');
    const inexact = [...tally.values()].flatMap((t) => t.inexact);
    process.stdout.write(
      `e2e at head, heads by ${heads} (${env?.description}): orders at slippage 0 asked the moment a receipt was in, exact: ${per}` +
        `${inexact.length ? `; inexact: ${inexact.join('; ')}` : ''}\n`,
    );
    await env?.close();
  });

  test(`/readyz says the follower learns blocks by ${heads}`, async () => {
    const ready = await getJson<{ chains: { follow: { heads: string } }[] }>(`${env.apiUrl}/readyz`);
    expect(ready.chains[0]!.follow.heads).toBe(heads);
  });

  test("orders asked the moment a third party's trade or the user's own order is mined execute exactly", async () => {
    const pools = env.devnet.pools.filter((p) => p.tokens.filter((t) => t !== p.address).length >= 2);
    for (let round = 0; round < ROUNDS; round++) {
      // Either the third party trades first and the user orders twice, or the user orders first.
      const thirdFirst = random() < 0.5;
      let moved: DevnetPool;
      if (thirdFirst) moved = (await thirdPartyTrade(env, third, random, pools)).pool;
      else {
        moved = pools[Math.floor(random() * pools.length)]!;
        await orderAtOnce('own first', `round ${round} ${moved.name}`, 0, await askOn(moved));
      }
      const { block } = thirdFirst
        ? { block: await env.chain.provider.getBlockNumber() }
        : await thirdPartyTrade(env, third, random, [moved]);
      const after = await orderAtOnce('after trade', `round ${round} ${moved.name}`, block, await askOn(moved));
      await orderAtOnce('after own order', `round ${round} ${moved.name}`, after.block, await askOn(moved));
    }
    for (const t of tally.values()) expect(t.inexact).toEqual([]);
  }, 300_000);

  test('protocol fees on: a relayer join and, at once, an exit of the BPT it minted execute exactly', async () => {
    const deployer = devAccount(DEPLOYER_INDEX, env.chain.provider);
    const vault = new Contract(env.devnet.addresses.vault, balancerAbi('Vault'), deployer);
    const half = parseUnits('0.5', 18);
    await setProtocolFees(
      { devnet: env.devnet, vault, deployer, owner: deployer.address },
      { swap: half, yield: half },
    );
    for (const p of env.devnet.pools) {
      const c = new Contract(p.address, ['function updateProtocolFeePercentageCache()'], deployer);
      const refreshable = await c
        .getFunction('updateProtocolFeePercentageCache')
        .staticCall()
        .then(() => true)
        .catch(() => false);
      if (refreshable) await (await c.getFunction('updateProtocolFeePercentageCache')()).wait();
    }
    for (const [name, joinWith, exitTo] of [
      ['WETH-USDC 50/50', 'USDC', 'WETH'],
      ['BAL-DAI 60/40 (v1)', 'BAL', 'BAL'],
      ['WBTC-USDT 50/50', 'WBTC', 'USDT'],
      ['DAI-WETH 50/50', 'WETH', 'DAI'],
      ['USDC-USDT stable (v2)', 'USDC', 'USDT'],
    ] as const) {
      const p = pool(name);
      // A trade first, so the protocol's fee is due at the join.
      const traded = await thirdPartyTrade(env, third, random, [p]);
      const { tokens, balances } = await poolTokens(env, p.id);
      const amount =
        share(random, balances[tokens.indexOf(token(joinWith))]!, await balanceOf(token(joinWith), user.address)) / 4n;
      const join = await orderAtOnce('join', `${joinWith} -> BPT(${name})`, traded.block, {
        sell: token(joinWith),
        buy: p.address,
        amount,
        kind: 'sell',
      });
      expect(join.order.to.toLowerCase()).toBe(env.devnet.addresses.batchRelayer);
      await orderAtOnce('exit at once', `BPT(${name}) -> ${exitTo}`, join.block, {
        sell: p.address,
        buy: token(exitTo),
        amount: join.received,
        kind: 'sell',
      });
    }
    for (const t of tally.values()) expect(t.inexact).toEqual([]);
  }, 300_000);

  test("after a third party's trade, the pool update's 201 comes once /readyz's stateBlock and GET /pools include the trade", async () => {
    const pools = env.devnet.pools.filter((p) => p.kind === 'weighted');
    for (let i = 0; i < 5; i++) {
      const { pool: p, block } = await thirdPartyTrade(env, third, random, pools);
      const res = await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {});
      expect(res.status).toBe(201);
      expect((await followStatus(env)).stateBlock).toBeGreaterThanOrEqual(block);
      const chain = await poolTokens(env, p.id);
      const served = await getJson<{ tokens: { address: string; balance: string; decimals: number }[] }>(
        `${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${p.id}`,
      );
      expect(served.tokens.map((t) => [t.address, decimalToUnits(t.balance, t.decimals)])).toEqual(
        chain.tokens.map((a, k) => [a, chain.balances[k]]),
      );
    }
  });
}
