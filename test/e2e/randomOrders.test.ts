import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { DEV_TOKENS, WETH_SYMBOL, WRAPPED_TOKENS } from '../../src/devnet/universe';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import {
  decodeBatchSwap,
  executeOrder,
  orderBody,
  OrderResponse,
  postJson,
  queryBatchSwap,
  revertReason,
  tokenAddressFor,
} from './helpers/orders';
import { bptSymbols, drawOrders, ORDER_CLASSES, type OrderClass, type RandomOrder } from './helpers/randomOrders';

/**
 * Random orders on the devnet, quoted by POST /order at slippage 0 and sent exactly as returned
 * (the listed approvals first), as a user would: the receiver must get, and the sender pay,
 * exactly the quote, to the wei, and nothing may revert. Pairs need one, two or three pools
 * (LINK -> USDT, LINK -> wUSDC, LINK -> bb-USD ...), a pool's own BPT is sold and bought
 * (the boosted pool's bb-USD, the linear pool's bb-USDC, B-stable-USD), both kinds, sizes from
 * about $0.3 to $10,000. Every pair here is connected within three pools, so "no route" is a
 * failure too. Each order runs on a chain snapshot that is reverted afterwards, so every quote
 * sees the state the service indexed.
 *
 * The draw is reproducible: E2E_SEED picks another one (the seed is printed with the results).
 */
const SEED = Number(process.env.E2E_SEED ?? 13);
const COUNT = 60;
const SYMBOLS = [
  WETH_SYMBOL,
  ...DEV_TOKENS.map((t) => t.symbol),
  ...WRAPPED_TOKENS.map((t) => t.symbol),
  ...bptSymbols(),
];
const ORDERS: readonly RandomOrder[] = drawOrders({
  seed: SEED,
  count: COUNT,
  symbols: SYMBOLS,
  usdExponents: [-0.5, 4],
});

/** refused: the service answered neither an order nor 422; bad order: the order's amounts or limits are not the quote's. */
type Status = 'exact' | 'mismatch' | 'revert' | 'no route' | 'refused' | 'bad order';

interface Outcome {
  readonly order: RandomOrder;
  readonly status: Status;
  readonly detail: string;
  /** Pool types the executed route crossed, in order (undefined when nothing was sent). */
  readonly route?: readonly string[];
}

let env: E2eEnvironment;
let snapshot: string | undefined;
const outcomes: Outcome[] = [];
const started = Date.now();

beforeAll(async () => {
  env = await startE2eEnvironment();
  expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);
  expect((await postJson(`${env.apiUrl}/tokens/update/`, {})).status).toBe(201);
}, 120_000);

afterAll(async () => {
  const count = (s: Status) => outcomes.filter((o) => o.status === s).length;
  const routed = outcomes.length - count('no route') - count('refused');
  const bad = count('bad order');
  const lines = [
    `e2e random orders (seed ${SEED}, ${env?.description}): ${outcomes.length} orders, ${routed} routed, ${count('no route')} no route, ${count('refused')} refused; ` +
      `${count('exact')} exact to the wei, ${count('mismatch')} paid/received another amount, ${count('revert')} reverted${bad ? `, ${bad} with limits other than the quote` : ''}; in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    `  routes: ${routeShapes()}`,
    ...ORDER_CLASSES.map((c) => {
      const of = outcomes.filter((o) => o.order.orderClass === c);
      return `  ${c.padEnd(7)} ${of.filter((o) => o.status === 'exact').length}/${of.length} exact`;
    }),
    ...outcomes.filter((o) => o.status !== 'exact').map((o) => `  ${o.order.name}: ${o.status}: ${o.detail}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await env?.close();
});

beforeEach(async () => {
  snapshot = await env.chain.snapshot();
});

afterEach(async () => {
  if (snapshot !== undefined) await env.chain.revert(snapshot);
  snapshot = undefined;
});

/** How many executed routes had how many swaps, and which pool kinds they crossed how often. */
function routeShapes(): string {
  const swaps = new Map<number, number>();
  const kinds = new Map<string, number>();
  for (const o of outcomes) {
    if (!o.route) continue;
    swaps.set(o.route.length, (swaps.get(o.route.length) ?? 0) + 1);
    for (const k of new Set(o.route.map((r) => r.split(':')[0]!))) kinds.set(k, (kinds.get(k) ?? 0) + 1);
  }
  const list = (m: Map<string | number, number>) =>
    [...m.entries()]
      .sort((a, b) => (a[0] < b[0] ? -1 : 1))
      .map(([k, n]) => `${k}: ${n}`)
      .join(', ');
  return `by swaps {${list(swaps)}}; orders crossing {${list(kinds)}}`;
}

/** Pool types of the route an order carries (the Vault's batchSwap; a relayer order is named as such). */
function routeOf(order: OrderResponse): string[] {
  if (order.to.toLowerCase() !== env.devnet.addresses.vault) return ['relayer multicall'];
  return decodeBatchSwap(order.data).swaps.map((s) => {
    const pool = env.devnet.pools.find((p) => p.id === s.poolId.toLowerCase());
    return pool ? `${pool.kind}:${pool.symbol}` : s.poolId;
  });
}

async function run(order: RandomOrder): Promise<Outcome> {
  const { spec } = order;
  const wallet = trader(env, 1);
  const body = orderBody(env, spec, wallet.address);
  const amount = BigInt(body.amount);
  const res = await postJson<OrderResponse & { error?: string }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, body);
  if (res.status === 422) return { order, status: 'no route', detail: res.body.error ?? 'HTTP 422' };
  if (res.status !== 200) return { order, status: 'refused', detail: `HTTP ${res.status}: ${res.body.error ?? ''}` };
  const quote = res.body;
  const route = routeOf(quote);
  const sellAmount = BigInt(quote.price.sellAmount);
  const buyAmount = BigInt(quote.price.buyAmount);
  // At slippage 0 the limits are the quote itself.
  const fixedOk =
    spec.kind === 'sell'
      ? sellAmount === amount && quote.minBuyAmount === quote.price.buyAmount
      : buyAmount === amount && quote.maxSellAmount === quote.price.sellAmount;
  if (!fixedOk)
    return {
      order,
      status: 'bad order',
      detail: `price ${JSON.stringify(quote.price)}, minBuyAmount ${quote.minBuyAmount}, maxSellAmount ${quote.maxSellAmount} for amount ${amount}`,
      route,
    };
  const quoted = spec.kind === 'sell' ? buyAmount : sellAmount;

  // What the Vault says the calldata's swaps return on this state, before anything is sent.
  let forecast = 'n/a (relayer)';
  if (quote.to.toLowerCase() === env.devnet.addresses.vault) {
    const call = decodeBatchSwap(quote.data);
    try {
      const deltas = await queryBatchSwap(env, call.kind, call.swaps, call.assets, wallet.address);
      const side = call.assets.indexOf(
        tokenAddressFor(env.devnet, spec.kind === 'sell' ? spec.buy : spec.sell).toLowerCase(),
      );
      forecast = String(spec.kind === 'sell' ? -deltas[side]! : deltas[side]!);
    } catch (e) {
      forecast = `reverts (${(e as { reason?: string }).reason ?? (e as Error).message.slice(0, 80)})`;
    }
  }
  for (const approval of quote.approvals)
    await (await wallet.sendTransaction({ to: approval.to, data: approval.data })).wait();

  const where = `quoted ${quoted}, Vault forecast ${forecast}; route ${route.join(' > ')}`;
  const reason = await revertReason(env, wallet.address, quote);
  if (reason !== undefined) return { order, status: 'revert', detail: `${reason}; ${where}`, route };
  const done = await executeOrder(env, wallet, spec, quote);
  const fixedSide = spec.kind === 'sell' ? done.paid : done.received;
  const quotedSide = spec.kind === 'sell' ? done.received : done.paid;
  if (fixedSide !== amount || quotedSide !== quoted) {
    return {
      order,
      status: 'mismatch',
      detail: `${spec.kind === 'sell' ? 'received' : 'paid'} ${quotedSide} (${quotedSide - quoted > 0n ? '+' : ''}${quotedSide - quoted}), fixed side ${fixedSide} of ${amount}; ${where}`,
      route,
    };
  }
  return { order, status: 'exact', detail: where, route };
}

describe('random orders execute exactly as quoted at slippage 0', () => {
  test.each(ORDERS.map((o) => [o.name, o] as const))(
    '%s',
    async (_name, order) => {
      const outcome = await run(order);
      outcomes.push(outcome);
      expect(outcome.status === 'exact' ? 'exact' : `${outcome.status}: ${outcome.detail}`).toBe('exact');
    },
    60_000,
  );
});

// Runs after the table (jest keeps declaration order within a file).
describe('what the draw covered and how the router did', () => {
  const inClass = (c: OrderClass) => ORDERS.filter((o) => o.orderClass === c);

  test('at least 50 orders: both kinds, sizes over four orders of magnitude, pairs one, two and three pools apart', () => {
    expect(ORDERS.length).toBeGreaterThanOrEqual(50);
    expect(new Set(ORDERS.map((o) => o.spec.kind))).toEqual(new Set(['sell', 'buy']));
    const sizes = ORDERS.map((o) => o.usd);
    expect(Math.max(...sizes) / Math.min(...sizes)).toBeGreaterThan(1e4);
    for (const hops of [1, 2, 3]) expect(ORDERS.filter((o) => o.hops === hops).length).toBeGreaterThanOrEqual(5);
    expect(
      ORDERS.some((o) => o.spec.sell === 'LINK' && o.hops === 3) ||
        ORDERS.some((o) => o.spec.buy === 'LINK' && o.hops === 3),
    ).toBe(true);
  });

  test('the BPT of both composable stable pools and of the linear pool is sold and bought', () => {
    for (const bpt of bptSymbols()) {
      expect({
        bpt,
        sold: inClass('BPT in').some((o) => o.spec.sell === bpt) || inClass('BPT out').some((o) => o.spec.sell === bpt),
      }).toEqual({ bpt, sold: true });
      expect({
        bpt,
        bought: inClass('BPT out').some((o) => o.spec.buy === bpt) || inClass('BPT in').some((o) => o.spec.buy === bpt),
      }).toEqual({ bpt, bought: true });
    }
  });

  test('every order was routed: each pair is within three pools', () => {
    expect(outcomes.length).toBe(ORDERS.length);
    expect(
      outcomes
        .filter((o) => o.status === 'no route' || o.status === 'refused')
        .map((o) => `${o.order.name}: ${o.detail}`),
    ).toEqual([]);
  });

  test('no order reverted and none paid or received another amount than quoted', () => {
    expect(
      outcomes
        .filter((o) => o.status === 'revert' || o.status === 'mismatch' || o.status === 'bad order')
        .map((o) => `${o.order.name}: ${o.status}: ${o.detail}`),
    ).toEqual([]);
  });

  test('executed routes crossed the stable, the linear and the boosted pool', () => {
    const crossed = new Set(
      outcomes.flatMap((o) => (o.status === 'exact' ? (o.route ?? []) : [])).map((r) => r.split(':')[0]),
    );
    for (const kind of ['stable', 'linear', 'composableStable'])
      expect({ kind, crossed: crossed.has(kind) }).toEqual({ kind, crossed: true });
  });
});
