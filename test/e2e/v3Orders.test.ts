import { Contract, formatUnits, HDNodeWallet, parseUnits, Wallet } from 'ethers';
import { devAccount, DEPLOYER_INDEX } from '../../src/devnet/accounts';
import { demoCommands } from '../../src/devnet/demoBanner';
import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { approveThroughPermit2 } from '../../src/devnet/v3/permit2';
import { batchRouterInterface, routerInterface } from '../../src/routing/v3/v3Abi';
import type { SerializedV3SwapInfo } from '../../src/routing/types';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import { caughtUp, getJson, reached, sleep } from './helpers/follow';
import {
  executeOrder,
  NATIVE_EEEE,
  NATIVE_ZERO,
  orderBody,
  OrderResponse,
  OrderSpec,
  postJson,
  revertReason,
} from './helpers/orders';
import { seededRandom } from './helpers/randomOrders';
import {
  accrueBufferYield,
  createWeightedPool,
  queryPaths,
  sendInNextBlock,
  thirdPartyV3Trade,
  v3PoolsFollowed,
  v3Token,
} from './helpers/v3Chain';

/**
 * Balancer V3 end to end on the devnet, with no pool update call: the service takes the V3 pools
 * from the devnet's V3 subgraphs once (its embedded timer's first run) and follows the V3 Vault
 * from then on. Between quotes a third party trades on the V3 pools or through a buffer, or an
 * ERC-4626 vault under the boosted pool earns yield (no Vault event says so). After each, a user
 * asks `/order` with `protocolVersion: 3` at slippage 0 once the served state holds the event's
 * block, sends the approvals it lists (token -> Permit2, Permit2 -> router) and the order: it must
 * pay and receive exactly the quote, to the wei, measured on the user's balances. Orders sell and
 * buy, on one pool, through the boosted pool's buffers and split over paths, native ETH in and
 * out. `/order` without protocolVersion (the better Vault) is exact too for pairs both Vaults
 * hold, and `/sor` with `protocolVersion: 3` equals the BatchRouter's own query of its paths at
 * the answer's block. One devnet for the file; E2E_SEED draws other orders.
 */
const SEED = Number(process.env.E2E_SEED ?? 3);
const random = seededRandom(SEED);

/**
 * Shapes the draw cycles through: every V3 pair the devnet connects, both native directions, and
 * large stable trades ($25k-$120k) that split between the V3 stable pool and the boosted pool's
 * buffer path, and wraps larger than the buffer holds (the ERC-4626 token serves them itself).
 */
type Size = 'any' | 'large' | 'beyond buffer';
const PAIRS: readonly (readonly [string, string, Size])[] = [
  ['WETH', 'USDC', 'any'],
  ['USDC', 'USDT', 'large'],
  ['waUSDC', 'waUSDT', 'any'],
  ['USDC', 'waUSDT', 'any'],
  ['USDT', 'USDC', 'large'],
  ['ETH', 'USDC', 'any'],
  ['USDC', 'ETH', 'any'],
  ['ETH', 'USDT', 'any'],
  ['USDT', 'ETH', 'any'],
  ['waUSDT', 'USDC', 'any'],
  ['USDC', 'USDT', 'any'],
  ['USDC', 'waUSDC', 'beyond buffer'],
  ['USDT', 'waUSDT', 'beyond buffer'],
  ['USDC', 'waUSDT', 'beyond buffer'],
  ['USDT', 'USDC', 'beyond buffer'],
];
const ORDER_COUNT = 18;
const PRICE_USD: Readonly<Record<string, number>> = { WETH: 3000, ETH: 3000 };
const DECIMALS: Readonly<Record<string, number>> = { WETH: 18, ETH: 18 };

/** Log10 of the USD sizes drawn: $3..$30,000, $25,000..$120,000, $140,000..$250,000 (the buffers hold about $100,000). */
const SIZES: Readonly<Record<Size, readonly [number, number]>> = {
  any: [0.5, 4.5],
  large: [Math.log10(25_000), Math.log10(120_000)],
  'beyond buffer': [Math.log10(140_000), Math.log10(250_000)],
};

/** A random amount of `symbol` worth about the size's USD, cut to its decimals. */
function drawAmount(symbol: string, size: Size = 'any'): string {
  const [low, high] = SIZES[size];
  const usd = 10 ** (low + random() * (high - low));
  const decimals = DECIMALS[symbol] ?? 6;
  const units = BigInt(Math.max(1, Math.floor((usd / (PRICE_USD[symbol] ?? 1)) * 10 ** Math.min(decimals, 15))));
  const raw = units * 10n ** BigInt(Math.max(0, decimals - 15)) + BigInt(Math.floor(random() * 997));
  return formatUnits(raw, decimals);
}

function drawSpec(n: number): OrderSpec {
  const [sell, buy, size] = PAIRS[n % PAIRS.length]!;
  const kind = random() < 0.5 ? ('sell' as const) : ('buy' as const);
  const native = sell === 'ETH' || buy === 'ETH';
  return {
    sell,
    buy,
    kind,
    amount: drawAmount(kind === 'sell' ? sell : buy, size),
    slippage: '0',
    ...(native ? { nativeAlias: random() < 0.5 ? NATIVE_ZERO : NATIVE_EEEE } : {}),
  };
}

interface Sent {
  readonly name: string;
  readonly exact: boolean;
  readonly detail: string;
  /** Each path's steps as `pool` or `buffer`, joined; undefined when nothing was sent. */
  readonly shape?: readonly string[];
  readonly native?: 'in' | 'out';
  /** The kinds of the approvals the answer listed. */
  readonly approvals?: readonly string[];
}

/** What the suite reads of a pool in /pools. */
interface ServedPool {
  readonly address: string;
  readonly protocolVersion?: number;
  readonly poolType: string;
  readonly v3?: { lastLiveBalances: string[] | null; minTokenBalances?: string[]; maxImbalanceRatio?: string };
}

let env: E2eEnvironment;
let user: HDNodeWallet;
let third: HDNodeWallet;
const sent: Sent[] = [];
const STABLE_V3_AMP = [
  'function getActionId(bytes4 selector) view returns (bytes32)',
  'function startAmplificationParameterUpdate(uint256 rawEndValue, uint256 endTime)',
  'function getAmplificationParameter() view returns (uint256 value, bool isUpdating, uint256 precision)',
];
const sorChecks: string[] = [];
const started = Date.now();

const label = (s: OrderSpec) =>
  s.kind === 'sell' ? `sell ${s.amount} ${s.sell} for ${s.buy}` : `buy ${s.amount} ${s.buy} with ${s.sell}`;

/** The paths a V3 order's calldata carries, each as its steps' kinds. */
function shapeOf(order: OrderResponse): string[] {
  const to = order.to.toLowerCase();
  if (to === env.devnet.v3.addresses.router) {
    routerInterface.parseTransaction({ data: order.data });
    return ['pool'];
  }
  if (to !== env.devnet.v3.addresses.batchRouter) return [`not a V3 router: ${to}`];
  const call = batchRouterInterface.parseTransaction({ data: order.data })!;
  const [paths] = call.args as unknown as [[string, [string, string, boolean][]][]];
  return paths.map(([, steps]) => steps.map((s) => (s[2] ? 'buffer' : 'pool')).join('>'));
}

/** Asks `/order`, sends its approvals and the order; exact when both sides are the quote's. */
async function sendOrder(spec: OrderSpec, afterBlock: number, extra: Record<string, unknown>): Promise<Sent> {
  const name = label(spec);
  await reached(env, afterBlock);
  const body = orderBody(env, spec, user.address, extra);
  const res = await postJson<OrderResponse & { error?: string; blockNumber?: number }>(
    `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
    body,
  );
  if (res.status !== 200) return { name, exact: false, detail: `HTTP ${res.status}: ${res.body.error ?? ''}` };
  const quote = res.body;
  const amount = BigInt(body.amount);
  const quotedSell = BigInt(quote.price.sellAmount);
  const quotedBuy = BigInt(quote.price.buyAmount);
  const limitsOk =
    spec.kind === 'sell'
      ? quotedSell === amount && quote.minBuyAmount === quote.price.buyAmount
      : quotedBuy === amount && quote.maxSellAmount === quote.price.sellAmount;
  const shape = quote.protocolVersion === 3 ? shapeOf(quote) : ['V2'];
  const native = spec.sell === 'ETH' ? ('in' as const) : spec.buy === 'ETH' ? ('out' as const) : undefined;
  if (!limitsOk) return { name, exact: false, detail: `limits are not the quote: ${JSON.stringify(quote.price)}` };
  for (const a of quote.approvals) await (await user.sendTransaction({ to: a.to, data: a.data })).wait();
  const where = `quote at block ${quote.blockNumber ?? '?'} (event at ${afterBlock}), paths ${shape.join(' | ')}`;
  const reason = await revertReason(env, user.address, quote);
  if (reason !== undefined) return { name, exact: false, detail: `reverts: ${reason}; ${where}`, shape, native };
  const done = await executeOrder(env, user, spec, quote);
  const exact = done.paid === quotedSell && done.received === quotedBuy;
  return {
    name,
    exact,
    detail: `paid ${done.paid} (quote ${quotedSell}), received ${done.received} (quote ${quotedBuy}); ${where}`,
    shape,
    native,
    approvals: quote.approvals.map((a) => a.kind),
  };
}

beforeAll(async () => {
  env = await startE2eEnvironment({ rpc: true, follow: true, v3: true });
  user = trader(env, 1);
  third = trader(env, 2);
  await v3PoolsFollowed(env);
  await caughtUp(env);
}, 120_000);

afterAll(async () => {
  const exact = sent.filter((s) => s.exact).length;
  const lines = [
    `e2e V3 orders (seed ${SEED}, ${env?.description}): ${exact}/${sent.length} orders exact to the wei; ${sorChecks.length} /sor answers checked against the BatchRouter's query; in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ...sent.map((s) => `  ${s.exact ? 'exact' : 'INEXACT'} ${s.name}: ${s.detail}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await env?.close();
});

test("the V3 catalogue comes from the devnet, and the follower learns each pool's build from the chain", async () => {
  const pools = await getJson<ServedPool[]>(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}`);
  const v3 = pools.filter((p) => p.protocolVersion === 3);
  expect(new Set(v3.map((p) => p.address.toLowerCase()))).toEqual(new Set(env.devnet.v3.pools.map((p) => p.address)));
  // The devnet's pools are the npm 1.0.0 builds: minimum balances (Weighted), the imbalance limit (Stable).
  for (const p of v3)
    if (p.poolType === 'Weighted') expect(p.v3?.minTokenBalances?.length).toBe(2);
    else if (p.poolType === 'Stable') expect(p.v3?.maxImbalanceRatio).toBe('10000');
});

test(`${ORDER_COUNT} random V3 orders, after third-party trades and buffer yield, pay and receive exactly the quote`, async () => {
  // The user has approved nothing yet: the first orders list both Permit2 approvals.
  for (let n = 0; n < ORDER_COUNT; n++) {
    const event =
      random() < 0.6
        ? await thirdPartyV3Trade(env, third, random)
        : await (async () => {
            const buffer = env.devnet.v3.buffers[Math.floor(random() * env.devnet.v3.buffers.length)]!;
            const block = await accrueBufferYield(env, buffer, BigInt(150 + Math.floor(random() * 400)));
            return { what: `yield on ${buffer.symbol}`, block };
          })();
    const spec = drawSpec(n);
    const outcome = await sendOrder(spec, event.block, { protocolVersion: 3 });
    sent.push({ ...outcome, name: `#${n + 1} ${outcome.name} after ${event.what}` });
  }
  const v3Sent = sent.filter((s) => s.shape && !s.shape.includes('V2'));
  // The user had approved nothing: its first order of a token listed the token's approval of
  // Permit2 and Permit2's of the router (a native sell needs none).
  const first = v3Sent.find((s) => s.native !== 'in');
  expect(first?.approvals).toEqual(['erc20', 'permit2']);
  expect(sent.filter((s) => !s.exact).map((s) => `${s.name}: ${s.detail}`)).toEqual([]);
  // What the draw covered: both kinds, split routes, the boosted path through both buffers, native both ways.
  expect(v3Sent.some((s) => s.name.includes(' sell '))).toBe(true);
  expect(v3Sent.some((s) => (s.shape?.length ?? 0) > 1)).toBe(true);
  expect(v3Sent.some((s) => s.shape?.some((p) => p === 'buffer>pool>buffer'))).toBe(true);
  expect(v3Sent.some((s) => s.native === 'in')).toBe(true);
  expect(v3Sent.some((s) => s.native === 'out')).toBe(true);
}, 120_000);

test('/order without protocolVersion (the better Vault) is exact for pairs both Vaults hold', async () => {
  // V2 orders pull through the V2 Vault: its approvals are in the answers too.
  const specs: OrderSpec[] = [
    { sell: 'WETH', buy: 'USDC', kind: 'sell', amount: drawAmount('WETH'), slippage: '0' },
    { sell: 'USDC', buy: 'WETH', kind: 'buy', amount: drawAmount('WETH'), slippage: '0' },
    { sell: 'USDC', buy: 'USDT', kind: 'sell', amount: drawAmount('USDC'), slippage: '0' },
    { sell: 'USDT', buy: 'USDC', kind: 'buy', amount: drawAmount('USDC'), slippage: '0' },
  ];
  const outcomes: Sent[] = [];
  for (const spec of specs) {
    const event = await thirdPartyV3Trade(env, third, random);
    const outcome = await sendOrder(spec, event.block, {});
    outcomes.push(outcome);
    sent.push({ ...outcome, name: `better of both: ${outcome.name}` });
  }
  expect(outcomes.filter((s) => !s.exact).map((s) => `${s.name}: ${s.detail}`)).toEqual([]);
}, 60_000);

test("/sor with protocolVersion 3 equals the BatchRouter's query of its paths at the answer's block", async () => {
  const mismatches: string[] = [];
  for (let n = 0; n < 10; n++) {
    if (n % 3 === 0) {
      const event = await thirdPartyV3Trade(env, third, random);
      await reached(env, event.block);
    }
    const spec = drawSpec(Math.floor(random() * PAIRS.length));
    const body = orderBody(env, spec, user.address, { protocolVersion: 3 });
    const res = await postJson<SerializedV3SwapInfo & { blockNumber?: number }>(
      `${env.apiUrl}/sor/${DEVNET_CHAIN_ID}`,
      body,
    );
    expect(res.status).toBe(200);
    const info = res.body;
    expect(info.protocolVersion).toBe(3);
    expect(info.paths.length).toBeGreaterThan(0);
    const block = info.blockNumber!;
    const perPath = await queryPaths(env, spec.kind, info, block);
    const served = info.paths.map((p) => BigInt(spec.kind === 'sell' ? p.amountOut : p.amountIn));
    const total = served.reduce((a, b) => a + b, 0n);
    sorChecks.push(label(spec));
    if (perPath.join(',') !== served.join(',') || BigInt(info.returnAmount) !== total)
      mismatches.push(
        `${label(spec)} at ${block}: /sor ${served.join(',')} (total ${info.returnAmount}), query ${perPath.join(',')}`,
      );
  }
  expect(mismatches).toEqual([]);
}, 60_000);

/** The devnet's token sale of `kind` (`src/devnet/v3/universe.ts` V3_LBPS). */
const sale = (kind: 'lbp' | 'fixedPriceLbp') => env.devnet.v3.pools.find((p) => p.kind === kind)!;

/** Moves the chain's clock `hours` on and mines a block there: the weighted sale's weights move. */
async function advanceHours(hours: number): Promise<number> {
  await env.chain.provider.send('evm_increaseTime', [hours * 3_600]);
  await env.chain.provider.send('evm_mine', []);
  return env.chain.provider.getBlockNumber();
}

/**
 * Orders through `pool` at slippage 0, the n-th `hoursOf(n)` hours of chain time after the one
 * before, each quoted at a block with no transaction. The block before it (the last order, or what
 * set the pool moving) is followed on its own first, so the quote block's step reads no log naming
 * the pool: only the pool's schedule (weights, an amp ramp) moves it.
 */
async function ordersHoursApart(
  label: string,
  specs: readonly OrderSpec[],
  pool: string,
  hoursOf: (n: number) => number,
): Promise<Sent[]> {
  const outcomes: Sent[] = [];
  for (const [n, spec] of specs.entries()) {
    const hours = hoursOf(n);
    await reached(env, await env.chain.provider.getBlockNumber());
    await advanceHours(hours);
    const outcome = await sendSaleOrder(spec, pool);
    outcomes.push(outcome);
    sent.push({ ...outcome, name: `${label}, ${hours} h on: ${outcome.name}` });
  }
  return outcomes;
}

/**
 * An order through a token sale at slippage 0, sent as a user would at once (`sendInNextBlock`):
 * the sale's price moves every second, so the order is exact only if the quote priced the block it
 * lands in, the block after the quote's.
 */
async function sendSaleOrder(spec: OrderSpec, pool: string): Promise<Sent> {
  const name = label(spec);
  const provider = env.chain.provider;
  await reached(env, await provider.getBlockNumber());
  const body = orderBody(env, spec, user.address, { protocolVersion: 3 });
  const res = await postJson<OrderResponse & { error?: string; blockNumber?: number }>(
    `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
    body,
  );
  if (res.status !== 200) return { name, exact: false, detail: `HTTP ${res.status}: ${res.body.error ?? ''}` };
  const quote = res.body;
  const quotedSell = BigInt(quote.price.sellAmount);
  const quotedBuy = BigInt(quote.price.buyAmount);
  const limitsOk =
    spec.kind === 'sell'
      ? quotedSell === BigInt(body.amount) && quote.minBuyAmount === quote.price.buyAmount
      : quotedBuy === BigInt(body.amount) && quote.maxSellAmount === quote.price.sellAmount;
  if (!limitsOk) return { name, exact: false, detail: `limits are not the quote: ${JSON.stringify(quote.price)}` };
  const shape = shapeOf(quote);
  if (!quote.data.toLowerCase().includes(pool.slice(2)))
    return { name, exact: false, detail: `the route skips the sale ${pool}: ${shape.join(' | ')}` };
  const { receipt, paid, received, quotedAt, minedAt } = await sendInNextBlock(env, user, spec.sell, spec.buy, quote);
  const exact =
    receipt.status === 1 && minedAt.number === quotedAt.number + 1 && paid === quotedSell && received === quotedBuy;
  return {
    name,
    exact,
    detail:
      `${receipt.status === 1 ? '' : 'REVERTED; '}paid ${paid} (quote ${quotedSell}), received ${received} (quote ${quotedBuy}); ` +
      `quote at block ${quotedAt.number} (t=${quotedAt.timestamp}), mined in ${minedAt.number} (t=${minedAt.timestamp})`,
    shape,
    approvals: quote.approvals.map((a) => a.kind),
  };
}

test('the devnet catalogues both token sales with their types, and /pools shows them routable', async () => {
  for (const [kind, poolType] of [
    ['lbp', 'LBP'],
    ['fixedPriceLbp', 'FixedLBP'],
  ] as const) {
    const served = await getJson<ServedPool & { routable: boolean; unroutableReason?: string }>(
      `${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${sale(kind).address}`,
    );
    expect([kind, served.protocolVersion, served.poolType, served.routable, served.unroutableReason]).toEqual([
      kind,
      3,
      poolType,
      true,
      undefined,
    ]);
  }
});

test('orders through the V3 LBP, hours apart as its weights move, pay and receive exactly the quote in the block after it', async () => {
  const lbp = sale('lbp').address;
  // The sale lets buyers sell LINK back (`blockProjectTokenSwapsIn: false`).
  const specs: OrderSpec[] = [
    { sell: 'USDC', buy: 'LINK', kind: 'sell', amount: '2500.123457', slippage: '0' },
    { sell: 'USDC', buy: 'LINK', kind: 'buy', amount: '431.000000000000000123', slippage: '0' },
    { sell: 'LINK', buy: 'USDC', kind: 'sell', amount: '150.5', slippage: '0' },
    { sell: 'USDC', buy: 'LINK', kind: 'sell', amount: '18000', slippage: '0' },
    { sell: 'USDC', buy: 'LINK', kind: 'buy', amount: '77.7', slippage: '0' },
    { sell: 'LINK', buy: 'USDC', kind: 'buy', amount: '999.999999', slippage: '0' },
  ];
  const outcomes = await ordersHoursApart('V3 LBP', specs, lbp, (n) => 3 + 5 * n);
  expect(outcomes.filter((s) => !s.exact).map((s) => `${s.name}: ${s.detail}`)).toEqual([]);
  // Permit2's allowance of the router lasts until an order's deadline (an hour of chain time), so
  // the first order, hours on, listed it again; it was sent before the order, in the same block.
  expect(outcomes[0]!.approvals).toContain('permit2');
}, 60_000);

/**
 * An LBP order as a user sends it: the first `/order` lists the approvals; they are sent (each
 * mines a block); `gap` seconds after the last of them the user asks again (nothing left to
 * approve) and sends the order at once. The devnet makes a block when a transaction comes,
 * stamped with its clock, so the order lands `gap` seconds after the head, not one: exact only if
 * the quote priced that time. Asked just after a second begins, so asking and sending happen in
 * the same second of the chain's clock, as for a user who sends at once.
 */
async function lbpOrderAfterApprovals(wallet: HDNodeWallet, spec: OrderSpec, pool: string, gap: number) {
  const provider = env.chain.provider;
  const ask = async () => {
    await reached(env, await provider.getBlockNumber());
    const res = await postJson<OrderResponse & { error?: string; blockNumber?: number }>(
      `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
      orderBody(env, spec, wallet.address, { protocolVersion: 3 }),
    );
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.error ?? ''}`);
    return res.body;
  };
  const first = await ask();
  for (const a of first.approvals) await (await wallet.sendTransaction({ to: a.to, data: a.data })).wait();
  const lastBlockAt = Date.now();
  if (gap > 0) {
    // `gap` whole seconds of our clock after the last approval's, then ask right away.
    const target = (Math.floor(lastBlockAt / 1000) + gap) * 1000;
    await sleep(target - Date.now());
  }
  const quote = await ask();
  const head = (await provider.getBlock('latest'))!;
  const done = await executeOrder(env, wallet, spec, quote);
  const minedAt = (await provider.getBlock(done.receipt.blockNumber))!;
  return {
    listedFirst: first.approvals.map((a) => a.kind),
    listedThen: quote.approvals.map((a) => a.kind),
    throughSale: quote.data.toLowerCase().includes(pool.slice(2)),
    exact: done.paid === BigInt(quote.price.sellAmount) && done.received === BigInt(quote.price.buyAmount),
    detail: `paid ${done.paid} (quote ${quote.price.sellAmount}), received ${done.received} (quote ${quote.price.buyAmount}); head t=${head.timestamp}, mined t=${minedAt.timestamp}`,
    secondsPastHead: minedAt.timestamp - head.timestamp,
  };
}

test('V3 LBP orders asked 0, 2 and 5 s after the last block, sent after their approvals, pay exactly the quote', async () => {
  const lbp = sale('lbp').address;
  const funder = trader(env, 3);
  const outcomes = [];
  for (const [n, gap] of [0, 2, 5].entries()) {
    // A fresh wallet each time: its first order lists both approvals, which mine blocks first.
    const wallet = Wallet.createRandom(env.chain.provider);
    await (await funder.sendTransaction({ to: wallet.address, value: parseUnits('1', 18) })).wait();
    const usdc = new Contract(v3Token(env, 'USDC'), ['function transfer(address, uint256) returns (bool)'], funder);
    await (await usdc.getFunction('transfer')(wallet.address, parseUnits('5000', 6))).wait();
    const spec: OrderSpec =
      n === 1
        ? { sell: 'USDC', buy: 'LINK', kind: 'buy', amount: '20.000000000000000123', slippage: '0' }
        : { sell: 'USDC', buy: 'LINK', kind: 'sell', amount: `${1200 + n}.654321`, slippage: '0' };
    const outcome = await lbpOrderAfterApprovals(wallet, spec, lbp, gap);
    outcomes.push({ gap, ...outcome });
    sent.push({
      name: `V3 LBP ${gap} s after the last block: ${label(spec)}`,
      exact: outcome.exact,
      detail: outcome.detail,
    });
  }
  expect(
    outcomes.map((o) => [o.gap, o.listedFirst, o.listedThen, o.throughSale, o.exact ? 'exact' : o.detail]),
  ).toEqual(outcomes.map((o) => [o.gap, ['erc20', 'permit2'], [], true, 'exact']));
  // The orders did land seconds after the head, as asked.
  expect(outcomes.map((o) => o.secondsPastHead >= Math.max(1, o.gap))).toEqual([true, true, true]);
}, 90_000);

test('orders through the V3 Stable pool during an amp ramp, hours apart in blocks naming no pool, pay and receive exactly the quote', async () => {
  const stable = env.devnet.v3.pools.find((p) => p.symbol === 'V3-USDC-USDT')!;
  // The pool has no swap fee manager: governance (the Authorizer the V3 Vault answers to) may ramp its amp.
  const admin = devAccount(DEPLOYER_INDEX, env.chain.provider);
  const pool = new Contract(stable.address, STABLE_V3_AMP, admin);
  const action = (await pool.getFunction('getActionId')(
    pool.interface.getFunction('startAmplificationParameterUpdate')!.selector,
  )) as string;
  const authorizer = new Contract(env.devnet.addresses.authorizer, ['function grantRole(bytes32, address)'], admin);
  await (await authorizer.getFunction('grantRole')(action, admin.address)).wait();
  const [before] = (await pool.getFunction('getAmplificationParameter')()) as [bigint];
  const now = (await env.chain.provider.getBlock('latest'))!.timestamp;
  // 1000 -> 1800 over a day and an hour: under the pool's limit of doubling a day.
  await (await pool.getFunction('startAmplificationParameterUpdate')(1800n, BigInt(now + 90_000))).wait();
  const specs: OrderSpec[] = [
    { sell: 'USDC', buy: 'USDT', kind: 'sell', amount: '40000.123457', slippage: '0' },
    { sell: 'USDT', buy: 'USDC', kind: 'buy', amount: '25000.5', slippage: '0' },
    { sell: 'USDT', buy: 'USDC', kind: 'sell', amount: '61000', slippage: '0' },
  ];
  const outcomes = await ordersHoursApart('V3 Stable amp ramp', specs, stable.address, (n) => 2 + 6 * n);
  expect(outcomes.filter((s) => !s.exact).map((s) => `${s.name}: ${s.detail}`)).toEqual([]);
  const [after, updating] = (await pool.getFunction('getAmplificationParameter')()) as [bigint, boolean];
  expect(updating).toBe(true);
  expect(after).toBeGreaterThan(before);
}, 60_000);

test('orders through the fixed-price sale pay its rate exactly; selling its token back has no route', async () => {
  const fixed = sale('fixedPriceLbp').address;
  const specs: OrderSpec[] = [
    { sell: 'DAI', buy: 'BAL', kind: 'sell', amount: '900', slippage: '0' },
    { sell: 'DAI', buy: 'BAL', kind: 'buy', amount: '123.456789012345678901', slippage: '0' },
    { sell: 'DAI', buy: 'BAL', kind: 'sell', amount: '4321.000000000000000007', slippage: '0' },
    { sell: 'DAI', buy: 'BAL', kind: 'buy', amount: '50', slippage: '0' },
  ];
  const outcomes: Sent[] = [];
  for (const [n, spec] of specs.entries()) {
    await advanceHours(7 + n);
    const outcome = await sendSaleOrder(spec, fixed);
    outcomes.push(outcome);
    sent.push({ ...outcome, name: `V3 fixed-price sale: ${outcome.name}` });
  }
  expect(outcomes.filter((s) => !s.exact).map((s) => `${s.name}: ${s.detail}`)).toEqual([]);
  // 900 DAI less the 1 % fee buys 198 BAL at 4.5 DAI each, whatever the hour.
  expect(outcomes[0]!.detail).toContain(`received ${parseUnits('198', 18)} (`);

  // The sale never buys BAL back, and no other V3 pool holds BAL: the answer says so.
  const back = await postJson<{ error?: string }>(
    `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
    orderBody(env, { sell: 'BAL', buy: 'DAI', kind: 'sell', amount: '10', slippage: '0' }, user.address, {
      protocolVersion: 3,
    }),
  );
  expect(back.status).toBe(422);
  expect(back.body.error).toContain(`no route`);
  expect(back.body.error).toContain(`(${fixed}) only sells its project token`);
}, 60_000);

test('a V3 pool registered after the catalogue read is served and traded from the next block, with no update call', async () => {
  // WBTC is in no V3 pool of the devnet: WETH -> WBTC in V3 has this pool alone.
  const pool = await createWeightedPool(env, third, [
    { token: v3Token(env, 'WETH'), amount: parseUnits('20', 18) },
    { token: v3Token(env, 'WBTC'), amount: parseUnits('1', 8) },
  ]);
  await reached(env, pool.block);
  const served = await getJson<ServedPool & { tokens: { symbol: string; balance: string }[] }>(
    `${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${pool.address}`,
  );
  expect([served.protocolVersion, served.poolType]).toEqual([3, 'Weighted']);
  expect(served.tokens.map((t) => t.balance).sort()).toEqual(['1', '20']);
  const outcome = await sendOrder(
    { sell: 'WETH', buy: 'WBTC', kind: 'sell', amount: '0.5', slippage: '0' },
    pool.block,
    { protocolVersion: 3 },
  );
  sent.push({ ...outcome, name: `after a pool registered: ${outcome.name}` });
  expect(outcome.exact ? 'exact' : outcome.detail).toBe('exact');
  expect(outcome.shape).toEqual(['pool']);
}, 60_000);

// Approvals: a later order of the same token lists none (the first ones are in place).
test('a second order of a token already approved lists no approvals', async () => {
  await approveThroughPermit2(
    user,
    env.devnet.v3.addresses.permit2,
    v3Token(env, 'USDC'),
    env.devnet.v3.addresses.batchRouter,
  );
  const res = await postJson<OrderResponse>(
    `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
    orderBody(env, { sell: 'USDC', buy: 'waUSDT', kind: 'sell', amount: '100', slippage: '0' }, user.address, {
      protocolVersion: 3,
    }),
  );
  expect(res.status).toBe(200);
  expect(res.body.approvals).toEqual([]);
});

test("the demo's Balancer V3 examples answer as the banner prints them", async () => {
  const info = {
    apiUrl: env.apiUrl,
    rpcUrl: '',
    subgraphUrl: '',
    priceApiUrl: '',
    sanctionsApiUrl: '',
    simulatorApiUrl: '',
    dataDir: '',
    devnet: env.devnet,
    traders: [{ address: user.address, privateKey: '' }],
    blockedAddress: '',
  };
  const v3 = demoCommands(info).filter((c) => c.title.includes('Balancer V3'));
  expect(v3).toHaveLength(3);
  const answers: unknown[] = [];
  for (const c of v3.filter((c) => c.method === 'POST')) {
    const res = await postJson<unknown>(`${env.apiUrl}${c.path}`, c.body);
    expect([c.title, res.status]).toEqual([c.title, c.expectStatus]);
    answers.push(res.body);
  }
  const [graphql, sor, order] = answers as [
    { data: { pools: { pools: { protocolVersion: number }[] } } },
    SerializedV3SwapInfo,
    OrderResponse,
  ];
  const listed = graphql.data.pools.pools;
  expect(listed.every((p) => p.protocolVersion === 3)).toBe(true);
  expect(listed.length).toBeGreaterThanOrEqual(env.devnet.v3.pools.length);
  expect(sor.paths.some((p) => p.steps.some((s) => s.isBuffer))).toBe(true);
  expect(order.protocolVersion).toBe(3);
});
