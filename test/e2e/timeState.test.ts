import { Contract, HDNodeWallet, MaxUint256 } from 'ethers';
import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { devAccount, DEPLOYER_INDEX } from '../../src/devnet/accounts';
import { decimalToUnits, unitsToDecimal } from '../../src/domain/decimal';
import { ampAt } from '../../src/domain/poolTypes/stable/stableAmp';
import { lbpOwnerContract, startLbpWeightUpdate } from '../../src/devnet/lbpWeightUpdate';
import { DEMO_LBP_WEIGHT_UPDATE } from '../../src/devnet/universe';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import { decodeBatchSwap, OrderResponse, postJson } from './helpers/orders';

/**
 * State that moves with time and no Vault event, followed from the head with no pool update and a
 * frozen subgraph: an amp ramp in progress (the owner's startAmplificationParameterUpdate), a
 * composable stable pool's rate cache that expired while its rate provider's rate moved (yield
 * reaching the ERC-4626 vault behind the linear pool whose BPT the boosted pool holds) and a
 * liquidity bootstrapping pool's gradual weight update. The served pools show the values a swap in
 * the next block uses, and an /order at slippage 0 sent in that block pays and receives exactly
 * the quote.
 */

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function mint(address to, uint256 amount)',
];
const POOL = [
  'function startAmplificationParameterUpdate(uint256 rawEndValue, uint256 endTime)',
  'function getAmplificationParameter() view returns (uint256 value, bool isUpdating, uint256 precision)',
  'function getTokenRate(address token) view returns (uint256)',
  'function getTokenRateCache(address token) view returns (uint256 rate, uint256 oldRate, uint256 duration, uint256 expires)',
  'function getRate() view returns (uint256)',
];
const WEIGHTED = ['function getNormalizedWeights() view returns (uint256[])'];
const DAY = 86_400;

let env: E2eEnvironment;
let user: HDNodeWallet;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ServedPool {
  amp: string | null;
  swapEnabled: boolean;
  tokens: { address: string; balance: string; decimals: number; priceRate: string; weight: string | null }[];
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

const served = (id: string) => getJson<ServedPool>(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${id}`);
const token = (symbol: string) => env.devnet.tokens.find((t) => t.symbol === symbol)!;
const pool = (name: string) => env.devnet.pools.find((p) => p.name === name)!;
const balanceOf = async (t: string, account: string) =>
  (await new Contract(t, ERC20, env.chain.provider).getFunction('balanceOf')(account)) as bigint;

async function head(): Promise<{ number: number; timestamp: number }> {
  const b = (await env.chain.provider.getBlock('latest'))!;
  return { number: b.number, timestamp: b.timestamp };
}

/** Waits until the served state is the chain's head (the follower polls every 250 ms here). */
async function caughtUp(): Promise<void> {
  const want = (await head()).number;
  for (let i = 0; i < 60; i++) {
    const ready = await getJson<{ chains: { follow: { stateBlock: number | null } | null }[] }>(`${env.apiUrl}/readyz`);
    if (ready.chains[0]?.follow?.stateBlock === want) return;
    await sleep(100);
  }
  throw new Error(`the follower did not reach block ${want}`);
}

/** Moves the chain's clock and mines a block, so the head is `seconds` later. */
async function advance(seconds: number): Promise<void> {
  await env.chain.provider.send('evm_increaseTime', [seconds]);
  await env.chain.provider.send('evm_mine', []);
}

/**
 * The user's /order at slippage 0, sent in the block after the one it was quoted at, stamped with
 * the time the answer says it priced at (`pricedAt`: the quoted block's + 1, or the chain's clock
 * when that ran on): what it paid and received, the pools it used, and that time.
 */
async function orderExactly(sell: string, buy: string, amount: bigint) {
  const quotedAt = await head();
  const res = await postJson<OrderResponse & { blockNumber?: number }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
    sellToken: sell,
    buyToken: buy,
    orderKind: 'sell',
    amount: amount.toString(),
    gasPrice: '1000000000',
    sender: user.address,
    slippagePercentage: '0',
    // The chain's clock runs ahead of the server's here (evm_increaseTime): a deadline from the chain's.
    deadline: quotedAt.timestamp + 3600,
  });
  expect(res.status).toBe(200);
  const order = res.body;
  expect(order.blockNumber).toBe(quotedAt.number);
  const [sellBefore, buyBefore] = await Promise.all([balanceOf(sell, user.address), balanceOf(buy, user.address)]);
  expect(order.pricedAt).toBeGreaterThanOrEqual(quotedAt.timestamp + 1);
  await env.chain.provider.send('evm_setNextBlockTimestamp', [order.pricedAt]);
  const done = await (
    await user.sendTransaction({ to: order.to, data: order.data, value: BigInt(order.value) })
  ).wait();
  expect(done?.status).toBe(1);
  return {
    pricedAt: order.pricedAt!,
    quotedAt,
    quoted: { paid: BigInt(order.price.sellAmount), received: BigInt(order.price.buyAmount) },
    executed: {
      paid: sellBefore - (await balanceOf(sell, user.address)),
      received: (await balanceOf(buy, user.address)) - buyBefore,
    },
    pools: new Set(decodeBatchSwap(order.data).swaps.map((s) => s.poolId.toLowerCase())),
  };
}

beforeAll(async () => {
  env = await startE2eEnvironment({ rpc: true, follow: true, frozenSubgraph: true });
  expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);
  expect((await postJson(`${env.apiUrl}/tokens/update/`, {})).status).toBe(201);
  user = trader(env, 1);
  for (const symbol of ['USDC', 'USDT', 'DAI'])
    await (
      await new Contract(token(symbol).address, ERC20, user).getFunction('approve')(
        env.devnet.addresses.vault,
        MaxUint256,
      )
    ).wait();
  await caughtUp();
}, 180_000);

afterAll(async () => {
  await env?.close();
});

test('during an amp ramp the served amp is the next block timestamp value and a large order executes exactly', async () => {
  const stable = pool('USDC-USDT stable (v2)');
  const owner = devAccount(DEPLOYER_INDEX, env.chain.provider);
  const contract = new Contract(stable.address, POOL, owner);
  // 120 -> 240 over one day (the steepest the pool allows): the amp moves by about 1.4 each second.
  const start = (await head()).timestamp + 1;
  await env.chain.provider.send('evm_setNextBlockTimestamp', [start]);
  await (await contract.getFunction('startAmplificationParameterUpdate')(240n, BigInt(start + DAY + 10))).wait();
  await advance(3 * 3600 + 17);
  await caughtUp();

  const at = await head();
  const [atHead] = (await contract.getFunction('getAmplificationParameter')()) as [bigint];
  const next = ampAt(
    { startValue: 120_000n, endValue: 240_000n, startTime: BigInt(start), endTime: BigInt(start + DAY + 10) },
    BigInt(at.timestamp + 1),
  );
  expect(next).not.toBe(atHead);
  expect((await served(stable.id)).amp).toBe(unitsToDecimal(next, 3));

  // A large share of the pool's USDT, which it is short of: a price impact the amp visibly shapes.
  const r = await orderExactly(token('USDT').address, token('USDC').address, 60_000n * 10n ** 6n);
  expect([...r.pools]).toContain(stable.id);
  expect(r.executed).toEqual(r.quoted);
  const [afterOrder] = (await contract.getFunction('getAmplificationParameter')()) as [bigint];
  expect(afterOrder).toBe(next);
}, 120_000);

test('after a rate cache expired the served rate is the provider rate, and an order through the pool executes exactly', async () => {
  const boosted = pool('Boosted USD (bb-USDC, DAI, USDT)');
  const linear = pool('Linear USDC (ERC4626)');
  const bpt = linear.address;
  const contract = new Contract(boosted.address, POOL, env.chain.provider);
  const provider = new Contract(linear.address, POOL, env.chain.provider);
  // Yield reaches the ERC-4626 vault behind the linear pool: its share price, and the linear BPT's rate, rise.
  const owner = devAccount(DEPLOYER_INDEX, env.chain.provider);
  const wUSDC = token('wUSDC').address;
  const usdc = new Contract(token('USDC').address, ERC20, owner);
  const assets = await balanceOf(token('USDC').address, wUSDC);
  const rateBefore = (await provider.getFunction('getRate')()) as bigint;
  await (await usdc.getFunction('mint')(wUSDC, assets / 10n)).wait();
  const [, , , expires] = (await contract.getFunction('getTokenRateCache')(bpt)) as bigint[];
  const now = (await head()).timestamp;
  await advance(Math.max(1, Number(expires!) - now + 1));
  await caughtUp();

  const cached = (await contract.getFunction('getTokenRate')(bpt)) as bigint;
  const live = (await provider.getFunction('getRate')()) as bigint;
  expect(live).toBeGreaterThan(rateBefore);
  expect(live).not.toBe(cached);
  const rateServed = (await served(boosted.id)).tokens.find((t) => t.address === bpt)!.priceRate;
  expect(decimalToUnits(rateServed, 18)).toBe(live);

  const r = await orderExactly(token('DAI').address, token('USDT').address, 200_000n * 10n ** 18n);
  expect(r.pools.has(boosted.id)).toBe(true);
  expect(r.executed).toEqual(r.quoted);
  // The swap refreshed the cache from the provider, as the quote assumed.
  expect((await contract.getFunction('getTokenRate')(bpt)) as bigint).toBe(live);
}, 120_000);

test('during an LBP weight update orders into the sale token execute exactly as time moves, and none routes through it once swaps are off', async () => {
  const lbp = pool(DEMO_LBP_WEIGHT_UPDATE.pool);
  const weth = token('WETH').address;
  const saleA = token('SALEA').address;
  await (await new Contract(weth, ERC20, user).getFunction('approve')(env.devnet.addresses.vault, MaxUint256)).wait();
  const update = await startLbpWeightUpdate(env.chain.provider, env.devnet, DEMO_LBP_WEIGHT_UPDATE);
  const contract = new Contract(lbp.address, WEIGHTED, env.chain.provider);
  const weightsServed: bigint[][] = [];
  // Time moves with no event from the pool: only mined blocks and the clock.
  for (const seconds of [600, 3 * 3600 + 7, DAY + 1]) {
    await advance(seconds);
    await caughtUp();
    const servedTokens = (await served(lbp.id)).tokens;
    // In the Vault's order, as the pool answers.
    const servedWeights = lbp.tokens.map((a) => decimalToUnits(servedTokens.find((t) => t.address === a)!.weight!, 18));
    const r = await orderExactly(weth, saleA, 10n ** 18n);
    expect([...r.pools]).toEqual([lbp.id]);
    expect(r.executed).toEqual(r.quoted);
    // What the pool was served with is what the pool's swap used: its weights in the order's block.
    const block = (await env.chain.provider.getBlock('latest'))!;
    expect(block.timestamp).toBeLessThan(update.endTime);
    expect(servedWeights).toEqual([
      ...((await contract.getFunction('getNormalizedWeights')({ blockTag: block.number })) as bigint[]),
    ]);
    weightsServed.push(servedWeights);
  }
  // The chain's clock runs on with no block (an order asked a while after the last one): the order
  // lands in a block stamped then, and is priced there, not at the block after the head.
  await env.chain.provider.send('evm_increaseTime', [37]);
  const late = await orderExactly(weth, saleA, 10n ** 18n);
  expect(late.pricedAt).toBeGreaterThanOrEqual(late.quotedAt.timestamp + 37);
  expect(late.executed).toEqual(late.quoted);
  // The sale token's weight fell between every two orders.
  const sale = lbp.tokens.indexOf(saleA);
  expect(weightsServed[1]![sale]).toBeLessThan(weightsServed[0]![sale]!);
  expect(weightsServed[2]![sale]).toBeLessThan(weightsServed[1]![sale]!);

  await (await lbpOwnerContract(env.chain.provider, lbp).getFunction('setSwapEnabled')(false)).wait();
  await caughtUp();
  expect((await served(lbp.id)).swapEnabled).toBe(false);
  const at = await head();
  const refused = await postJson<{ message?: string }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
    sellToken: weth,
    buyToken: saleA,
    orderKind: 'sell',
    amount: (10n ** 18n).toString(),
    gasPrice: '1000000000',
    sender: user.address,
    slippagePercentage: '0',
    deadline: at.timestamp + 3600,
  });
  // The LBP is the only pool holding SALEA: with its swaps off there is no route at all.
  expect(refused.status).toBe(422);
  expect(JSON.stringify(refused.body)).toMatch(/no route/);
}, 120_000);
