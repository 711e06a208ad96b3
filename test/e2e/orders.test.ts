import { Contract } from 'ethers';
import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { decimalToUnits } from '../../src/domain/decimal';
import type { StoredPool } from '../../src/domain/pool';
import { replayWireSwaps } from '../routing/v2/exactReplay';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import {
  approveVault,
  decodeBatchSwap,
  executeOrder,
  NATIVE_EEEE,
  NATIVE_ZERO,
  orderBody,
  OrderResponse,
  OrderSpec,
  postJson,
  queryBatchSwap,
  revertReason,
  SwapInfoResponse,
  tokenAddressFor,
  vaultInterface,
} from './helpers/orders';

/**
 * End to end on the real Balancer V2 contracts: the service indexes the devnet through its
 * subgraph-shaped endpoint (POST /pools/31337/update), quotes and builds orders, and the chain
 * executes them. Every quote must match execution to the wei. Each case runs on a chain snapshot
 * and is reverted afterwards, so every order sees the state the service indexed.
 */

const ORDERS: readonly (readonly [string, OrderSpec])[] = [
  // sells, one hop (18 -> 6, 6 -> 18, 8 -> 18, stable pool 18 -> 6 and 6 -> 18)
  ['sell 1 WETH for USDC', { sell: 'WETH', buy: 'USDC', kind: 'sell', amount: '1', slippage: '0.01' }],
  ['sell 5000 USDC for WETH', { sell: 'USDC', buy: 'WETH', kind: 'sell', amount: '5000', slippage: '0.005' }],
  ['sell 0.5 WBTC for WETH', { sell: 'WBTC', buy: 'WETH', kind: 'sell', amount: '0.5', slippage: '0.01' }],
  ['sell 10000 DAI for USDC (stable)', { sell: 'DAI', buy: 'USDC', kind: 'sell', amount: '10000', slippage: '0.001' }],
  [
    'sell 2500.5 USDT for DAI (stable)',
    { sell: 'USDT', buy: 'DAI', kind: 'sell', amount: '2500.5', slippage: '0.0005' },
  ],
  // sells, two hops
  ['sell 1000 BAL for USDC (two hops)', { sell: 'BAL', buy: 'USDC', kind: 'sell', amount: '1000', slippage: '0.02' }],
  ['sell 500 LINK for DAI (two hops)', { sell: 'LINK', buy: 'DAI', kind: 'sell', amount: '500', slippage: '0.01' }],
  ['sell 0.1 WBTC for BAL (two hops)', { sell: 'WBTC', buy: 'BAL', kind: 'sell', amount: '0.1', slippage: '0.05' }],
  [
    'sell 2000 BAL for DAI (v1 weighted pool)',
    { sell: 'BAL', buy: 'DAI', kind: 'sell', amount: '2000', slippage: '0.01' },
  ],
  // sells with native ETH in and out (both aliases)
  [
    'sell 2 ETH (0x0) for USDC',
    { sell: 'ETH', buy: 'USDC', kind: 'sell', amount: '2', slippage: '0.01', nativeAlias: NATIVE_ZERO },
  ],
  [
    'sell 3000 USDC for ETH (0xeee)',
    { sell: 'USDC', buy: 'ETH', kind: 'sell', amount: '3000', slippage: '0.01', nativeAlias: NATIVE_EEEE },
  ],
  [
    'sell 0.75 ETH (0xeee) for WBTC',
    { sell: 'ETH', buy: 'WBTC', kind: 'sell', amount: '0.75', slippage: '0.03', nativeAlias: NATIVE_EEEE },
  ],
  [
    'sell 250 LINK for ETH (0x0), no slippage',
    { sell: 'LINK', buy: 'ETH', kind: 'sell', amount: '250', slippage: '0', nativeAlias: NATIVE_ZERO },
  ],
  // buys, one hop
  ['buy 1 WETH with USDC', { sell: 'USDC', buy: 'WETH', kind: 'buy', amount: '1', slippage: '0.01' }],
  ['buy 2500 USDC with WETH', { sell: 'WETH', buy: 'USDC', kind: 'buy', amount: '2500', slippage: '0.005' }],
  ['buy 0.05 WBTC with DAI', { sell: 'DAI', buy: 'WBTC', kind: 'buy', amount: '0.05', slippage: '0.02' }],
  ['buy 1000 DAI with USDT (stable)', { sell: 'USDT', buy: 'DAI', kind: 'buy', amount: '1000', slippage: '0.001' }],
  [
    'buy 777.777777 USDC with DAI (stable)',
    { sell: 'DAI', buy: 'USDC', kind: 'buy', amount: '777.777777', slippage: '0.0005' },
  ],
  // buys, two hops
  ['buy 100 BAL with USDC (two hops)', { sell: 'USDC', buy: 'BAL', kind: 'buy', amount: '100', slippage: '0.02' }],
  ['buy 50 LINK with WBTC (two hops)', { sell: 'WBTC', buy: 'LINK', kind: 'buy', amount: '50', slippage: '0.01' }],
  ['buy 300 DAI with BAL', { sell: 'BAL', buy: 'DAI', kind: 'buy', amount: '300', slippage: '0.05' }],
  // buys with native ETH in and out
  [
    'buy 1 ETH (0x0) with DAI',
    { sell: 'DAI', buy: 'ETH', kind: 'buy', amount: '1', slippage: '0.01', nativeAlias: NATIVE_ZERO },
  ],
  [
    'buy 1000 USDC with ETH (0xeee)',
    { sell: 'ETH', buy: 'USDC', kind: 'buy', amount: '1000', slippage: '0.01', nativeAlias: NATIVE_EEEE },
  ],
  [
    'buy 0.01 WBTC with ETH (0x0), no slippage',
    { sell: 'ETH', buy: 'WBTC', kind: 'buy', amount: '0.01', slippage: '0', nativeAlias: NATIVE_ZERO },
  ],
  [
    'buy 20 BAL with ETH (0xeee) (two hops via WETH pools)',
    { sell: 'ETH', buy: 'BAL', kind: 'buy', amount: '20', slippage: '0.01', nativeAlias: NATIVE_EEEE },
  ],
  // tokens that live only in liquidity bootstrapping pools: through both LBPs, at the quote
  [
    'sell 10000 SALEA for SALEB (two LBPs), no slippage',
    { sell: 'SALEA', buy: 'SALEB', kind: 'sell', amount: '10000', slippage: '0' },
  ],
  [
    'buy 2500.5 SALEA with SALEB (two LBPs), no slippage',
    { sell: 'SALEB', buy: 'SALEA', kind: 'buy', amount: '2500.5', slippage: '0' },
  ],
];

let env: E2eEnvironment;
let storedPools: Map<string, StoredPool>;
let snapshot: string | undefined;
/** Quote vs execution, per order: the suite's headline figure (target: every order exact to the wei). */
const tally = {
  orders: 0,
  exact: 0,
  sorExact: 0,
  replayExact: 0,
  replayMisses: [] as string[],
  sells: 0,
  buys: 0,
  multiHop: 0,
  relayer: 0,
  inexact: [] as string[],
};
const started = Date.now();

beforeAll(async () => {
  env = await startE2eEnvironment();
  const update = await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {});
  expect(update.status).toBe(201);
  const prices = await postJson(`${env.apiUrl}/tokens/update/`, {});
  expect(prices.status).toBe(201);
  const listed = (await (await fetch(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}`)).json()) as StoredPool[];
  storedPools = new Map(listed.map((p) => [p.id, p]));
}, 120_000);

afterAll(async () => {
  process.stdout.write(
    `e2e orders (${env?.description}): ${tally.exact}/${tally.orders} exact to the wei ` +
      `(${tally.sells} sells, ${tally.buys} buys, ${tally.multiHop} multi-pool, ${tally.relayer} via relayer; ` +
      `/sor = queryBatchSwap for ${tally.sorExact}/${tally.orders}; off-chain batchSwap replay = queryBatchSwap for ${tally.replayExact}/${tally.orders}) ` +
      `in ${((Date.now() - started) / 1000).toFixed(1)} s${tally.inexact.length ? `; inexact: ${tally.inexact.join('; ')}` : ''}\n`,
  );
  await env?.close();
});

beforeEach(async () => {
  snapshot = await env.chain.snapshot();
});

afterEach(async () => {
  if (snapshot !== undefined) await env.chain.revert(snapshot);
  snapshot = undefined;
});

async function quoteAndOrder(spec: OrderSpec, sender: string, extra: Record<string, unknown> = {}) {
  const body = orderBody(env, spec, sender, extra);
  const [sor, order] = await Promise.all([
    postJson<SwapInfoResponse>(`${env.apiUrl}/sor/${DEVNET_CHAIN_ID}`, body),
    postJson<OrderResponse>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, body),
  ]);
  expect(sor.status).toBe(200);
  expect(order.status).toBe(200);
  return { body, sor: sor.body, order: order.body };
}

describe('the pool update indexed the devnet', () => {
  test('GET /pools/31337 lists every devnet pool with on-chain balances', async () => {
    const res = await fetch(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}`);
    expect(res.status).toBe(200);
    const pools = (await res.json()) as { id: string; poolType: string }[];
    expect(pools.map((p) => p.id).sort()).toEqual(env.devnet.pools.map((p) => p.id).sort());
    expect(new Set(pools.map((p) => p.poolType))).toEqual(
      new Set(['Weighted', 'ComposableStable', 'Stable', 'ERC4626Linear', 'LiquidityBootstrapping']),
    );
  });

  test('stored balances are the Vault balances to the wei', async () => {
    const vault = new Contract(env.devnet.addresses.vault, vaultInterface, env.chain.provider);
    for (const pool of env.devnet.pools) {
      const stored = (await (await fetch(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${pool.id}`)).json()) as {
        tokens: { address: string; balance: string; decimals: number }[];
      };
      const [tokens, balances] = (await vault.getFunction('getPoolTokens')(pool.id)) as [string[], bigint[]];
      expect(stored.tokens.map((t) => [t.address, decimalToUnits(t.balance, t.decimals)])).toEqual(
        tokens.map((a, i) => [a.toLowerCase(), balances[i]]),
      );
    }
  });
});

describe('orders execute exactly as quoted', () => {
  test.each(ORDERS)('%s', async (name, spec) => {
    const wallet = trader(env, 1);
    const { body, sor, order } = await quoteAndOrder(spec, wallet.address);
    const amount = BigInt(body.amount);

    // What the Vault itself says /sor's swaps return on this state (queryBatchSwap, staticCall).
    const sorDeltas = await queryBatchSwap(env, spec.kind, sor.swaps, sor.tokenAddresses, wallet.address);
    const sorIn = sor.tokenAddresses.findIndex((a) => a.toLowerCase() === sor.tokenIn.toLowerCase());
    const sorOut = sor.tokenAddresses.findIndex((a) => a.toLowerCase() === sor.tokenOut.toLowerCase());
    expect(BigInt(sor.swapAmount)).toBe(amount);
    const sorOnChain = spec.kind === 'sell' ? -sorDeltas[sorOut]! : sorDeltas[sorIn]!;
    // The exact off-chain replay of the same swaps over the stored pools agrees with the Vault.
    const replay = replayWireSwaps(
      spec.kind,
      sor.swaps,
      sor.tokenAddresses,
      storedPools.values(),
      env.devnet.addresses.weth,
    );
    if (replay.ok && replay.deltas.every((d, k) => d === sorDeltas[k])) tally.replayExact++;
    else
      tally.replayMisses.push(
        `${name}: ${replay.ok ? `replay ${replay.deltas.join(',')} vs chain ${sorDeltas.join(',')}` : replay.reason}`,
      );

    // The order's calldata is the Vault's batchSwap for this trader with limits that honour slippage.
    const call = decodeBatchSwap(order.data);
    expect(order.to.toLowerCase()).toBe(
      order.relayerApprovalRequired ? env.devnet.addresses.batchRelayer : env.devnet.addresses.vault,
    );
    expect(call.kind).toBe(spec.kind);
    expect(call.funds).toEqual({ sender: wallet.address.toLowerCase(), recipient: wallet.address.toLowerCase() });
    const inIndex = call.assets.indexOf(tokenAddressFor(env.devnet, spec.sell).toLowerCase());
    const outIndex = call.assets.indexOf(tokenAddressFor(env.devnet, spec.buy).toLowerCase());
    const sellAmount = BigInt(order.price.sellAmount);
    const buyAmount = BigInt(order.price.buyAmount);
    if (spec.kind === 'sell') {
      expect(sellAmount).toBe(amount);
      expect(buyAmount.toString()).toBe(sor.returnAmount);
      expect(call.limits[outIndex]).toBe(-BigInt(order.minBuyAmount!));
      expect(BigInt(order.minBuyAmount!)).toBeLessThanOrEqual(buyAmount);
    } else {
      expect(buyAmount).toBe(amount);
      expect(sellAmount.toString()).toBe(sor.returnAmount);
      expect(call.limits[inIndex]).toBe(BigInt(order.maxSellAmount!));
      expect(BigInt(order.maxSellAmount!)).toBeGreaterThanOrEqual(sellAmount);
    }
    expect(BigInt(order.value)).toBe(
      spec.sell === 'ETH' ? (spec.kind === 'sell' ? amount : BigInt(order.maxSellAmount!)) : 0n,
    );
    // The chain's own forecast for exactly this calldata, before it runs.
    const forecast = await queryBatchSwap(env, call.kind, call.swaps, call.assets, wallet.address);

    if (order.relayerApprovalRequired) {
      const vault = new Contract(env.devnet.addresses.vault, vaultInterface, wallet);
      await (await vault.getFunction('setRelayerApproval')(wallet.address, order.to, true)).wait();
      tally.relayer++;
    }
    await approveVault(env, wallet, spec.sell);
    const done = await executeOrder(env, wallet, spec, order);

    // The transaction did what the Vault forecast and what the user was promised.
    expect(done.paid).toBe(forecast[inIndex]);
    expect(done.received).toBe(-forecast[outIndex]!);
    if (spec.kind === 'sell') {
      expect(done.paid).toBe(amount);
      expect(done.received).toBeGreaterThanOrEqual(BigInt(order.minBuyAmount!));
    } else {
      expect(done.received).toBe(amount);
      expect(done.paid).toBeLessThanOrEqual(BigInt(order.maxSellAmount!));
    }

    tally.orders++;
    tally[spec.kind === 'sell' ? 'sells' : 'buys']++;
    if (new Set(call.swaps.map((s) => s.poolId)).size > 1) tally.multiHop++;
    if (sorOnChain.toString() === sor.returnAmount) tally.sorExact++;
    const quoted = spec.kind === 'sell' ? buyAmount : sellAmount;
    const executed = spec.kind === 'sell' ? done.received : done.paid;
    if (executed === quoted) tally.exact++;
    else {
      const pools = call.swaps
        .map((sw) => env.devnet.pools.find((p) => p.id === sw.poolId)?.name ?? sw.poolId)
        .join(' + ');
      tally.inexact.push(
        `${name}: quoted ${quoted}, executed ${executed} (${executed > quoted ? '+' : ''}${executed - quoted}; swaps: ${pools})`,
      );
    }
  });

  test('a sell to another receiver pays the receiver, not the sender', async () => {
    const wallet = trader(env, 1);
    const receiver = trader(env, 3).address;
    const spec: OrderSpec = { sell: 'DAI', buy: 'WETH', kind: 'sell', amount: '1234.5', slippage: '0.01' };
    const { order } = await quoteAndOrder(spec, wallet.address, { receiver });
    expect(decodeBatchSwap(order.data).funds.recipient).toBe(receiver.toLowerCase());
    await approveVault(env, wallet, spec.sell);
    const done = await executeOrder(env, wallet, spec, order, receiver);
    expect(done.paid).toBe(BigInt(order.price.sellAmount));
    expect(done.received).toBeGreaterThanOrEqual(BigInt(order.minBuyAmount!));
  });

  // Runs after the table (jest keeps declaration order within a file). The per-order tests above
  // hold what protects the user (limits, exact fixed side, chain = Vault forecast); this one holds
  // the quote itself to the wei: /sor's returnAmount = queryBatchSwap, and quote = execution.
  test('every /order quote equals the executed amount to the wei (buyAmount of sells, sellAmount of buys)', () => {
    expect(tally.orders).toBe(ORDERS.length);
    expect(tally.inexact).toEqual([]);
  });

  test('every /sor returnAmount equals Vault.queryBatchSwap of its swaps on the same state', () => {
    expect(tally.orders).toBe(ORDERS.length);
    expect(tally.sorExact).toBe(tally.orders);
  });

  test('the off-chain batchSwap replay (src/domain/swap) equals Vault.queryBatchSwap for every route', () => {
    expect(tally.replayMisses).toEqual([]);
    expect(tally.replayExact).toBe(ORDERS.length);
  });
});

describe('tokens that live only in liquidity bootstrapping pools', () => {
  test('SALEA -> SALEB starts in the SALEA LBP and ends in the SALEB LBP, both ways', async () => {
    const lbp = (symbol: string) => env.devnet.pools.find((p) => p.symbol === symbol)!.id;
    for (const [spec, first, last] of [
      [{ sell: 'SALEA', buy: 'SALEB', kind: 'sell', amount: '10000' }, 'LBP-SALEA', 'LBP-SALEB'],
      [{ sell: 'SALEB', buy: 'SALEA', kind: 'buy', amount: '2500.5' }, 'LBP-SALEB', 'LBP-SALEA'],
    ] as const) {
      const { sor } = await quoteAndOrder(spec, trader(env, 1).address);
      // Vault order: a sell's swaps run from the token in, a buy's from the token out.
      const pools = sor.swaps.map((s) => s.poolId.toLowerCase());
      const ordered = spec.kind === 'sell' ? pools : [...pools].reverse();
      expect(ordered[0]).toBe(lbp(first));
      expect(ordered.at(-1)).toBe(lbp(last));
      expect(ordered.length).toBeGreaterThanOrEqual(3);
    }
  });
});

describe('orders the chain must refuse', () => {
  const moveThePrice = async (spec: OrderSpec) => {
    const other = trader(env, 2);
    const { order } = await quoteAndOrder(spec, other.address);
    await approveVault(env, other, spec.sell);
    await executeOrder(env, other, spec, order);
  };

  test('a sell reverts with BAL#507 once another trader moved the price beyond its slippage', async () => {
    const wallet = trader(env, 1);
    const spec: OrderSpec = { sell: 'WETH', buy: 'USDC', kind: 'sell', amount: '5', slippage: '0.005' };
    const { order } = await quoteAndOrder(spec, wallet.address);
    await approveVault(env, wallet, spec.sell);
    expect(await revertReason(env, wallet.address, order)).toBeUndefined();

    await moveThePrice({ sell: 'WETH', buy: 'USDC', kind: 'sell', amount: '20' });
    expect(await revertReason(env, wallet.address, order)).toContain('BAL#507');
    await expect(
      wallet.sendTransaction({ to: order.to, data: order.data, value: BigInt(order.value), gasLimit: 2_000_000n }),
    ).rejects.toThrow(/BAL#507/);
  });

  test('a buy reverts with BAL#507 once another trader moved the price beyond its slippage', async () => {
    const wallet = trader(env, 1);
    const spec: OrderSpec = {
      sell: 'ETH',
      buy: 'USDC',
      kind: 'buy',
      amount: '10000',
      slippage: '0.01',
      nativeAlias: NATIVE_ZERO,
    };
    const { order } = await quoteAndOrder(spec, wallet.address);
    expect(await revertReason(env, wallet.address, order)).toBeUndefined();

    // Somebody buys USDC with WETH first: USDC gets dearer, our maximum WETH no longer covers it.
    await moveThePrice({ sell: 'WETH', buy: 'USDC', kind: 'sell', amount: '30' });
    expect(await revertReason(env, wallet.address, order)).toContain('BAL#507');
  });

  test('an order past its deadline reverts with BAL#508', async () => {
    const wallet = trader(env, 1);
    const spec: OrderSpec = { sell: 'USDC', buy: 'DAI', kind: 'sell', amount: '100' };
    const { order } = await quoteAndOrder(spec, wallet.address);
    await approveVault(env, wallet, spec.sell);
    expect(decodeBatchSwap(order.data).deadline).toBe(order.deadline);
    expect(await revertReason(env, wallet.address, order)).toBeUndefined();

    await env.chain.provider.send('evm_setNextBlockTimestamp', [order.deadline + 1]);
    await env.chain.provider.send('evm_mine', []);
    expect(await revertReason(env, wallet.address, order)).toContain('BAL#508');
  });
});
