import { Contract, HDNodeWallet, MaxUint256, parseUnits, Wallet } from 'ethers';
import { devAccount, DEPLOYER_INDEX, LIDO_ADMIN_INDEX } from '../../src/devnet/accounts';
import { DEVNET_CHAIN_ID, type DevnetPool } from '../../src/devnet/devnet';
import { balancerAbi } from '../../src/devnet/artifacts';
import { decimalToUnits } from '../../src/domain/decimal';
import { relayerInterface, relayerLibraryInterface } from '../../src/routing/v2/relayer/relayerAbi';
import { setProtocolFees } from '../helpers/devnetPools';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import {
  approveAll,
  caughtUp,
  ERC20,
  getJson,
  poolTokens,
  reached,
  share,
  sleep,
  thirdPartyTrade,
  tokenBalance,
} from './helpers/follow';
import { decodeBatchSwap, OrderResponse, postJson, vaultInterface } from './helpers/orders';
import { seededRandom } from './helpers/randomOrders';

/**
 * State the chain changes with no pool update and no subgraph to tell: yield dripped into the
 * ERC-4626 vault under the linear pool, a Lido rebase, protocol fees switched on (then joins and
 * exits after trades grew the fee basis), and third parties trading while the subgraph answers from
 * a copy a minute of chain time old. After each event a user asks /order at slippage 0 about a
 * second after the event's block and sends it as returned: it must pay and receive exactly the
 * quote, measured on the user's balances, and the answer's block must be at or after the event's.
 *
 * The API follows the head (every 250 ms) and runs its catalogue update every few seconds against
 * the lagging subgraph, so older balances keep reaching the store and the chain's must win.
 */

const LAG_SECONDS = 60;
const LAG_ROUNDS = 6;

const FEE_CACHE = [
  'function updateProtocolFeePercentageCache()',
  'function getProtocolFeePercentageCache(uint256 feeType) view returns (uint256)',
];

interface StoredTokens {
  tokens: { address: string; balance: string; decimals: number }[];
}

let env: E2eEnvironment;
let user: HDNodeWallet;
let third: HDNodeWallet;
const random = seededRandom(20261127);
const rounds = new Map<string, { orders: number; exact: number; inexact: string[] }>();
/** stETH sold: what the sender's balance fell by beyond the amount (Lido's share rounding), in wei. */
const lidoRounding: bigint[] = [];

const token = (symbol: string) => env.devnet.tokens.find((t) => t.symbol === symbol)!.address;
const pool = (name: string) => env.devnet.pools.find((p) => p.name === name)!;
const balanceOf = (t: string, account: string) => tokenBalance(env, t, account);

async function head(): Promise<{ number: number; timestamp: number }> {
  const b = (await env.chain.provider.getBlock('latest'))!;
  return { number: b.number, timestamp: b.timestamp };
}

/** The library calls of a relayer multicall, or the pools of a Vault batchSwap. */
function route(order: OrderResponse): string[] {
  if (order.to.toLowerCase() === env.devnet.addresses.vault)
    return decodeBatchSwap(order.data).swaps.map((s) => s.poolId.toLowerCase());
  const [calls] = relayerInterface.decodeFunctionData('multicall', order.data) as unknown as [string[]];
  return calls.map((c) => relayerLibraryInterface.parseTransaction({ data: c })!.name);
}

/** Every approval the answer lists is one the user gave at the start, so the order is the next block. */
async function approvalsInPlace(order: OrderResponse): Promise<void> {
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, env.chain.provider);
  for (const a of order.approvals) {
    if (a.kind === 'relayer') expect(await vault.getFunction('hasApprovedRelayer')(user.address, a.relayer)).toBe(true);
    else {
      const c = new Contract(a.token, ERC20, env.chain.provider);
      expect((await c.getFunction('allowance')(user.address, a.spender)) as bigint).toBeGreaterThanOrEqual(
        BigInt(a.amount),
      );
    }
  }
}

interface Ask {
  readonly sell: string;
  readonly buy: string;
  readonly amount: bigint;
  readonly kind?: 'sell' | 'buy';
  /** A receiver other than the user (stETH out: one holding none gets Lido's lower bound exactly). */
  readonly receiver?: string;
}

/**
 * The user's /order at slippage 0, asked a second after `eventBlock` (once the follower has read
 * it) and sent as the next block, at the next second as the service evaluates (blockSeconds 1):
 * what the user paid and the receiver got, against the quote. `label` names it in the summary.
 */
async function exactOrder(roundName: string, label: string, eventBlock: number, ask: Ask) {
  await sleep(1000);
  await reached(env, eventBlock);
  const quotedAt = await head();
  const receiver = ask.receiver ?? user.address;
  const res = await postJson<OrderResponse & { blockNumber?: number }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
    sellToken: ask.sell,
    buyToken: ask.buy,
    orderKind: ask.kind ?? 'sell',
    amount: ask.amount.toString(),
    gasPrice: '1000000000',
    sender: user.address,
    ...(ask.receiver ? { receiver: ask.receiver } : {}),
    slippagePercentage: '0',
    // The chain's clock runs ahead of the server's here (evm_increaseTime): a deadline from the chain's.
    deadline: quotedAt.timestamp + 3600,
  });
  expect(res.status).toBe(200);
  const order = res.body;
  expect(order.blockNumber).toBeGreaterThanOrEqual(eventBlock);
  await approvalsInPlace(order);
  const [sellBefore, buyBefore] = await Promise.all([balanceOf(ask.sell, user.address), balanceOf(ask.buy, receiver)]);
  if (order.blockNumber === quotedAt.number)
    await env.chain.provider.send('evm_setNextBlockTimestamp', [quotedAt.timestamp + 1]);
  const done = await (
    await user.sendTransaction({ to: order.to, data: order.data, value: BigInt(order.value) })
  ).wait();
  expect(done?.status).toBe(1);
  const paid = sellBefore - (await balanceOf(ask.sell, user.address));
  const received = (await balanceOf(ask.buy, receiver)) - buyBefore;
  const quoted = { paid: BigInt(order.price.sellAmount), received: BigInt(order.price.buyAmount) };
  const tally = rounds.get(roundName) ?? { orders: 0, exact: 0, inexact: [] };
  rounds.set(roundName, tally);
  tally.orders++;
  if (paid === quoted.paid && received === quoted.received) tally.exact++;
  else
    tally.inexact.push(
      `${label} (${route(order).join('+')}): quoted ${quoted.paid}/${quoted.received}, executed ${paid}/${received}`,
    );
  return { order, paid, received, quoted, route: route(order), block: done!.blockNumber };
}

function expectRoundExact(roundName: string, orders: number): void {
  const tally = rounds.get(roundName)!;
  expect(tally.inexact).toEqual([]);
  expect(tally.exact).toBe(orders);
}

/** Moves the chain's clock and mines a block. */
async function advance(seconds: number): Promise<number> {
  await env.chain.provider.send('evm_increaseTime', [seconds]);
  await env.chain.provider.send('evm_mine', []);
  return (await head()).number;
}

beforeAll(async () => {
  env = await startE2eEnvironment({
    rpc: true,
    follow: true,
    subgraphLagSeconds: LAG_SECONDS,
    poolUpdateSeconds: 3,
  });
  expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);
  expect((await postJson(`${env.apiUrl}/tokens/update/`, {})).status).toBe(201);
  user = trader(env, 1);
  third = trader(env, 2);
  const tokens = [...new Set([...env.devnet.pools.flatMap((p) => p.tokens), token('stETH')])];
  // The user's wstETH: wrapped from the stETH every trader staked.
  const wst = new Contract(token('wstETH'), ['function wrap(uint256) returns (uint256)'], user);
  await (await new Contract(token('stETH'), ERC20, user).getFunction('approve')(token('wstETH'), MaxUint256)).wait();
  await (await wst.getFunction('wrap')(20n * 10n ** 18n)).wait();
  await approveAll(env, user, tokens);
  await approveAll(env, third, tokens);
  const vault = new Contract(env.devnet.addresses.vault, vaultInterface, user);
  await (await vault.getFunction('setRelayerApproval')(user.address, env.devnet.addresses.batchRelayer, true)).wait();
  await caughtUp(env);
}, 180_000);

afterAll(async () => {
  const all = [...rounds.values()];
  const exact = all.reduce((n, r) => n + r.exact, 0);
  const orders = all.reduce((n, r) => n + r.orders, 0);
  const per = [...rounds.entries()].map(([name, r]) => `${name} ${r.exact}/${r.orders}`).join(', ');
  const inexact = all.flatMap((r) => r.inexact);
  process.stdout.write(
    `e2e follow state (${env?.description}): ${exact}/${orders} orders at slippage 0 paid and received exactly the quote (${per}; ` +
      `stETH sold moved the sender's balance by the amount ${lidoRounding.map((d) => `${d >= 0n ? '+' : ''}${d}`).join(', ')} wei, Lido's share rounding)` +
      `${inexact.length ? `; inexact: ${inexact.join('; ')}` : ''}\n`,
  );
  await env?.close();
});

test('yield dripped into the ERC-4626 vault: orders through the linear pool and the boosted pool execute exactly', async () => {
  const linear = pool('Linear USDC (ERC4626)');
  const boosted = pool('Boosted USD (bb-USDC, DAI, USDT)');
  const wUSDC = token('wUSDC');
  const usdc = new Contract(
    token('USDC'),
    ['function mint(address to, uint256 amount)'],
    devAccount(DEPLOYER_INDEX, env.chain.provider),
  );
  const rate = new Contract(
    linear.address,
    ['function getWrappedTokenRate() view returns (uint256)'],
    env.chain.provider,
  );
  const used = new Set<string>();
  for (const drip of [200n, 350n]) {
    const before = (await rate.getFunction('getWrappedTokenRate')()) as bigint;
    const assets = await balanceOf(token('USDC'), wUSDC);
    const receipt = await (await usdc.getFunction('mint')(wUSDC, assets / drip)).wait();
    expect((await rate.getFunction('getWrappedTokenRate')()) as bigint).toBeGreaterThan(before);
    const block = receipt!.blockNumber;

    const toLinearBpt = await exactOrder('yield', `USDC -> bb-USDC after 1/${drip}`, block, {
      sell: token('USDC'),
      buy: linear.address,
      amount: 25_000n * 10n ** 6n,
    });
    // No route asserted: with the boosted pool's bb-USDC rate still cached from before the yield,
    // buying bb-USDC there can beat minting it in the linear pool.
    toLinearBpt.route.forEach((p) => used.add(p));
    const wrapped = await exactOrder('yield', `wUSDC -> USDC after 1/${drip}`, block, {
      sell: wUSDC,
      buy: token('USDC'),
      amount: 4_000n * 10n ** 6n,
    });
    expect(wrapped.route).toContain(linear.id);
    const toBoosted = await exactOrder('yield', `USDC -> bb-USD after 1/${drip}`, block, {
      sell: token('USDC'),
      buy: boosted.address,
      amount: 30_000n * 10n ** 6n,
    });
    toBoosted.route.forEach((p) => used.add(p));
    const out = await exactOrder('yield', `DAI -> USDC (buy) after 1/${drip}`, block, {
      sell: token('DAI'),
      buy: token('USDC'),
      amount: 12_345n * 10n ** 6n,
      kind: 'buy',
    });
    out.route.forEach((p) => used.add(p));
  }
  expect([...used]).toEqual(expect.arrayContaining([linear.id, boosted.id]));
  expectRoundExact('yield', 8);
}, 120_000);

test('a stETH rebase: wraps and unwraps at the new ratio through the relayer execute exactly', async () => {
  const lido = new Contract(
    token('stETH'),
    ['function getTotalPooledEther() view returns (uint256)', 'function rebase(uint256)'],
    devAccount(LIDO_ADMIN_INDEX, env.chain.provider),
  );
  const wstEth = new Contract(
    token('wstETH'),
    ['function getStETHByWstETH(uint256) view returns (uint256)'],
    env.chain.provider,
  );
  // A reward, then a loss (a slashing), each an odd fraction so wraps and unwraps round.
  for (const [num, den] of [
    [10_007n, 10_000n],
    [99_991n, 100_000n],
  ] as const) {
    const ratio = (await wstEth.getFunction('getStETHByWstETH')(10n ** 18n)) as bigint;
    const pooled = (await lido.getFunction('getTotalPooledEther')()) as bigint;
    const receipt = await (await lido.getFunction('rebase')((pooled * num) / den)).wait();
    expect((await wstEth.getFunction('getStETHByWstETH')(10n ** 18n)) as bigint).not.toBe(ratio);
    const block = receipt!.blockNumber;

    // stETH out goes to a receiver holding none: Lido's balance floor is then exactly the quote.
    const unwrapTo = Wallet.createRandom().address;
    const out = await exactOrder('rebase', `WETH -> stETH after ${num}/${den}`, block, {
      sell: token('WETH'),
      buy: token('stETH'),
      amount: 2n * 10n ** 18n + 123_457n,
      receiver: unwrapTo,
    });
    expect(out.route).toEqual(['batchSwap', 'unwrapWstETH']);
    const unwrap = await exactOrder('rebase', `wstETH -> stETH after ${num}/${den}`, block, {
      sell: token('wstETH'),
      buy: token('stETH'),
      amount: 3n * 10n ** 18n + 7n,
      receiver: Wallet.createRandom().address,
    });
    expect(unwrap.route[0]).toBe('unwrapWstETH');
    // stETH in: the relayer pulls `amount` stETH, which Lido moves as shares; the sender's balance
    // may then fall by 1-2 wei more or less than the amount (Lido's own rounding, as on mainnet),
    // so this one's exactness is what it receives: the wrap at the new ratio and the pool after it.
    const wrapIn = 5n * 10n ** 18n + 987_654_321n;
    const [sellBefore, buyBefore] = [
      await balanceOf(token('stETH'), user.address),
      await balanceOf(token('WETH'), user.address),
    ];
    await sleep(1000);
    await reached(env, block);
    const res = await postJson<OrderResponse & { blockNumber?: number }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
      sellToken: token('stETH'),
      buyToken: token('WETH'),
      orderKind: 'sell',
      amount: wrapIn.toString(),
      gasPrice: '1000000000',
      sender: user.address,
      slippagePercentage: '0',
      deadline: (await head()).timestamp + 3600,
    });
    expect(res.status).toBe(200);
    expect(res.body.blockNumber).toBeGreaterThanOrEqual(block);
    expect(route(res.body)).toEqual(['wrapStETH', 'approveVault', 'batchSwap']);
    await approvalsInPlace(res.body);
    const done = await (await user.sendTransaction({ to: res.body.to, data: res.body.data })).wait();
    expect(done?.status).toBe(1);
    const paid = sellBefore - (await balanceOf(token('stETH'), user.address));
    const got = (await balanceOf(token('WETH'), user.address)) - buyBefore;
    const tally = rounds.get('rebase')!;
    tally.orders++;
    lidoRounding.push(paid - wrapIn);
    if (got.toString() === res.body.price.buyAmount && paid - wrapIn >= -2n && paid - wrapIn <= 2n) tally.exact++;
    else
      tally.inexact.push(
        `stETH -> WETH after ${num}/${den}: quoted ${wrapIn}/${res.body.price.buyAmount}, executed ${paid}/${got}`,
      );
  }
  expectRoundExact('rebase', 6);
}, 120_000);

test('protocol fees switched on: joins, exits and composable stable BPT swaps after trades execute exactly', async () => {
  const deployer = devAccount(DEPLOYER_INDEX, env.chain.provider);
  const vault = new Contract(env.devnet.addresses.vault, balancerAbi('Vault'), deployer);
  const half = parseUnits('0.5', 18);
  await setProtocolFees({ devnet: env.devnet, vault, deployer, owner: deployer.address }, { swap: half, yield: half });
  // Pools of the fee provider's generation cache the percentages; anyone may refresh a pool's
  // cache. Legacy pools (weighted v1, stable v2) have none: the Vault hands them the collector's
  // swap fee at each join or exit.
  let cachedBy = 0;
  for (const p of env.devnet.pools) {
    const c = new Contract(p.address, FEE_CACHE, deployer);
    const refreshable = await c
      .getFunction('updateProtocolFeePercentageCache')
      .staticCall()
      .then(() => true)
      .catch(() => false);
    if (!refreshable) continue;
    await (await c.getFunction('updateProtocolFeePercentageCache')()).wait();
    expect(await c.getFunction('getProtocolFeePercentageCache')(0)).toBe(half);
    cachedBy++;
  }
  expect(cachedBy).toBeGreaterThanOrEqual(3);

  /** Two trades of 1-5 % on `p` by the third party, so the invariant (the fee basis) grows. */
  const trades = async (p: DevnetPool, n: number) => {
    let block = 0;
    for (let i = 0; i < n; i++) block = (await thirdPartyTrade(env, third, random, [p])).block;
    return block;
  };
  // Weighted v2+ pools mint the protocol's share as BPT; the weighted v1 pool pays it out of its
  // largest-weight token (BAL) at each join or exit, so that one joins with BAL and exits to BAL;
  // the Stable v2 pool pays it out of its largest balance.
  for (const [name, joinWith, exitTo] of [
    ['WETH-USDC 50/50', 'USDC', 'WETH'],
    ['BAL-DAI 60/40 (v1)', 'BAL', 'BAL'],
    ['WBTC-USDT 50/50', 'WBTC', 'USDT'],
    ['DAI-WETH 50/50', 'WETH', 'DAI'],
    ['USDC-USDT stable (v2)', 'USDC', 'USDT'],
  ] as const) {
    const p = pool(name);
    const [tokenIn, tokenOut] = [token(joinWith), token(exitTo)];
    const { tokens, balances } = await poolTokens(env, p.id);
    const amount = share(random, balances[tokens.indexOf(tokenIn)]!, await balanceOf(tokenIn, user.address)) / 4n;
    const join = await exactOrder('fees', `${amount} ${joinWith} -> BPT(${p.name})`, await trades(p, 2), {
      sell: tokenIn,
      buy: p.address,
      amount,
    });
    expect(join.route).toContain('joinPool');
    const exit = await exactOrder('fees', `BPT(${p.name}) ${join.received} -> ${exitTo}`, await trades(p, 1), {
      sell: p.address,
      buy: tokenOut,
      amount: join.received,
    });
    expect(exit.route).toContain('exitPool');
  }
  for (const [name, sell, buy] of [
    ['DAI-USDC-USDT stable', 'USDC', 'DAI'],
    ['Boosted USD (bb-USDC, DAI, USDT)', 'USDT', 'DAI'],
  ] as const) {
    const p = pool(name);
    const toBpt = await exactOrder('fees', `${sell} -> BPT(${name})`, await trades(p, 2), {
      sell: token(sell),
      buy: p.address,
      amount: 15_000n * 10n ** 6n,
    });
    expect(toBpt.route).toContain(p.id);
    const fromBpt = await exactOrder('fees', `BPT(${name}) -> ${buy}`, await trades(p, 1), {
      sell: p.address,
      buy: token(buy),
      amount: 9_000n * 10n ** 18n,
    });
    expect(fromBpt.route).toContain(p.id);
  }
  expectRoundExact('fees', 14);
}, 180_000);

test('with the subgraph a minute of chain time behind, orders after third-party trades execute exactly', async () => {
  let last: Awaited<ReturnType<typeof thirdPartyTrade>> | undefined;
  for (let r = 0; r < LAG_ROUNDS; r++) {
    // A minute of chain time passes, then a third party trades: what the subgraph serves now is
    // a copy of the index from before this round.
    await advance(LAG_SECONDS + 1);
    const trade = await thirdPartyTrade(env, third, random);
    last = trade;
    const after = await poolTokens(env, trade.pool.id);
    const sell = random() < 0.5 ? trade.tokenOut : trade.tokenIn;
    const buy = sell === trade.tokenIn ? trade.tokenOut : trade.tokenIn;
    const kind = random() < 0.5 ? 'sell' : 'buy';
    const amountToken = kind === 'sell' ? sell : buy;
    const amount =
      share(random, after.balances[after.tokens.indexOf(amountToken)]!, await balanceOf(sell, user.address)) / 4n;
    await exactOrder(
      'lagging subgraph',
      `round ${r} ${kind} ${amount} of ${amountToken} in ${trade.pool.name}`,
      trade.block,
      {
        sell,
        buy,
        amount,
        kind,
      },
    );
  }
  expectRoundExact('lagging subgraph', LAG_ROUNDS);

  // The subgraph really is behind: its block is a minute of chain time older than the head and
  // before the last trade, whose pool it shows with other balances than the chain and the API.
  const meta = await postJson<{ data: { _meta: { block: { number: number; timestamp: number } } } }>(env.subgraphUrl!, {
    query: '{ _meta { block { number timestamp } } }',
  });
  const at = await head();
  expect(meta.body.data._meta.block.timestamp).toBeLessThanOrEqual(at.timestamp - LAG_SECONDS);
  expect(meta.body.data._meta.block.number).toBeLessThan(last!.block);
  await caughtUp(env);
  const id = last!.pool.id;
  const indexed = await postJson<{ data: { pool: StoredTokens } }>(env.subgraphUrl!, {
    query: `{ pool(id: "${id}") { tokens { address balance decimals } } }`,
  });
  const chain = await poolTokens(env, id);
  const served = await getJson<StoredTokens>(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${id}`);
  expect(served.tokens.map((t) => decimalToUnits(t.balance, t.decimals))).toEqual(chain.balances);
  expect(indexed.body.data.pool.tokens.map((t) => decimalToUnits(t.balance, t.decimals))).not.toEqual(chain.balances);
}, 180_000);
