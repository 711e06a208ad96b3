import { Interface } from 'ethers';
import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { decimalToUnits } from '../../src/domain/decimal';
import { FaultRpcProxy, type RpcAnswerBody, type RpcCallBody } from '../fakes/faultRpcProxy';
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
} from './helpers/follow';
import { OrderResponse, postJson } from './helpers/orders';
import { seededRandom } from './helpers/randomOrders';

/**
 * The service follows the devnet's head through a JSON-RPC proxy that lies while a third party
 * trades: the traded pool's `getPoolTokens` answered null or empty, every call of a batch given its
 * neighbour's answer, the block's `eth_call`s answered from the block before. Nothing of that block
 * may be served; once the proxy is honest again every pool equals the chain's, and an order at
 * slippage 0 on the traded pair pays exactly what was quoted.
 */
const GET_POOL_TOKENS = new Interface(['function getPoolTokens(bytes32)']).getFunction('getPoolTokens')!.selector;

let env: E2eEnvironment;
let proxy: FaultRpcProxy;
const random = seededRandom(20261127);

beforeAll(async () => {
  env = await startE2eEnvironment({
    rpc: true,
    follow: true,
    frozenSubgraph: true,
    rpcThrough: async (url) => (proxy = await FaultRpcProxy.start(url)),
  });
  expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);
  expect((await postJson(`${env.apiUrl}/tokens/update/`, {})).status).toBe(201);
  const tokens = [...new Set(env.devnet.pools.flatMap((p) => p.tokens))];
  await approveAll(env, trader(env, 1), tokens);
  await approveAll(env, trader(env, 2), tokens);
  await caughtUp(env);
}, 180_000);

afterAll(async () => env?.close());

const isEthCall = (c: RpcCallBody, selector?: string) =>
  c.method === 'eth_call' &&
  (selector === undefined || String((c.params?.[0] as { data?: string })?.data).startsWith(selector));
const answer = (a: RpcAnswerBody, result: unknown): RpcAnswerBody => ({ jsonrpc: '2.0', id: a.id, result });

const lies: [string, (p: FaultRpcProxy) => void][] = [
  ['getPoolTokens answered null', (p) => (p.lie = (c, a) => (isEthCall(c, GET_POOL_TOKENS) ? answer(a, null) : a))],
  ['getPoolTokens answered 0x', (p) => (p.lie = (c, a) => (isEthCall(c, GET_POOL_TOKENS) ? answer(a, '0x') : a))],
  ["every call of a batch given its neighbour's answer", (p) => (p.rotateIds = true)],
  [
    'eth_calls answered from the block before the one asked',
    (p) =>
      (p.rewrite = (c) => {
        const tag = c.params?.[1];
        if (!isEthCall(c) || typeof tag !== 'string' || !tag.startsWith('0x')) return c;
        return { ...c, params: [c.params![0], `0x${(Number(tag) - 1).toString(16)}`] };
      }),
  ],
];

test.each(lies)(
  'a trade read through a lying node (%s): nothing of it is served; after recovery every pool is the chain and a slippage-0 order pays the quote',
  async (_what, lie) => {
    await caughtUp(env);
    const failuresBefore = (
      await getJson<{ chains: { follow: { malformedAnswers: number } }[] }>(`${env.apiUrl}/readyz`)
    ).chains[0]!.follow.malformedAnswers;
    lie(proxy);
    const third = trader(env, 2);
    const { pool, tokenIn, tokenOut, block } = await thirdPartyTrade(env, third, random);
    // The lie fails the follower's steps: the block is not served while it lasts.
    const deadline = Date.now() + 30_000;
    let refused = 0;
    while (Date.now() < deadline) {
      refused =
        (await getJson<{ chains: { follow: { malformedAnswers: number } }[] }>(`${env.apiUrl}/readyz`)).chains[0]!
          .follow.malformedAnswers - failuresBefore;
      if (refused >= 2) break;
      await sleep(50);
    }
    expect(refused).toBeGreaterThanOrEqual(2);
    expect((await followStatus(env)).stateBlock).toBeLessThan(block);

    proxy.lie = undefined;
    proxy.rewrite = undefined;
    proxy.rotateIds = false;
    await reached(env, block);
    for (const p of env.devnet.pools) {
      const served = await getJson<{ tokens: { address: string; balance: string; decimals: number }[] }>(
        `${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/${p.id}`,
      );
      const chain = await poolTokens(env, p.id);
      expect({ pool: p.name, balances: served.tokens.map((t) => decimalToUnits(t.balance, t.decimals)) }).toEqual({
        pool: p.name,
        balances: chain.balances,
      });
    }

    const user = trader(env, 1);
    const after = await poolTokens(env, pool.id);
    const amount =
      share(random, after.balances[after.tokens.indexOf(tokenIn)]!, await tokenBalance(env, tokenIn, user.address)) /
      4n;
    const res = await postJson<OrderResponse & { blockNumber?: number }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
      sellToken: tokenIn,
      buyToken: tokenOut,
      orderKind: 'sell',
      amount: amount.toString(),
      gasPrice: '1000000000',
      sender: user.address,
      slippagePercentage: '0',
    });
    expect(res.status).toBe(200);
    expect(res.body.blockNumber).toBeGreaterThanOrEqual(block);
    const [sellBefore, buyBefore] = await Promise.all([
      tokenBalance(env, tokenIn, user.address),
      tokenBalance(env, tokenOut, user.address),
    ]);
    const sent = await user.sendTransaction({ to: res.body.to, data: res.body.data, value: BigInt(res.body.value) });
    expect((await sent.wait())?.status).toBe(1);
    expect({
      paid: sellBefore - (await tokenBalance(env, tokenIn, user.address)),
      received: (await tokenBalance(env, tokenOut, user.address)) - buyBefore,
    }).toEqual({ paid: BigInt(res.body.price.sellAmount), received: BigInt(res.body.price.buyAmount) });
  },
  120_000,
);

test('the slow re-read went over the real pools meanwhile and found none differing (the lies never reached the state)', async () => {
  const ready = await getJson<{ chains: { follow: { recheck: { pools: number; mismatches: number } } }[] }>(
    `${env.apiUrl}/readyz`,
  );
  expect(ready.chains[0]!.follow.recheck.pools).toBeGreaterThan(0);
  expect(ready.chains[0]!.follow.recheck.mismatches).toBe(0);
});

test('a latest that flips 3 blocks back while third parties trade: stateBlock and /sor blockNumber never decrease, the state reaches every trade', async () => {
  await caughtUp(env);
  const lagging = `0x${((await env.chain.provider.getBlockNumber()) - 3).toString(16)}`;
  let flip = 0;
  // Every other head poll reaches a backend stuck 3 blocks back.
  proxy.rewrite = (c) =>
    c.method === 'eth_getBlockByNumber' && c.params?.[0] === 'latest' && flip++ % 2 === 0
      ? { ...c, params: [lagging, ...(c.params ?? []).slice(1)] }
      : c;
  const states: number[] = [];
  const quoted: number[] = [];
  let sampling = true;
  const pair = env.devnet.pools[0]!.tokens;
  const sampler = (async () => {
    while (sampling) {
      states.push((await followStatus(env)).stateBlock!);
      const sor = await postJson<{ blockNumber?: number }>(`${env.apiUrl}/sor/${DEVNET_CHAIN_ID}`, {
        sellToken: pair[0],
        buyToken: pair[1],
        orderKind: 'sell',
        amount: '1000',
        gasPrice: '0',
      });
      if (sor.body.blockNumber !== undefined) quoted.push(sor.body.blockNumber);
      await sleep(20);
    }
  })();
  try {
    const third = trader(env, 2);
    for (let i = 0; i < 3; i++) {
      const { block } = await thirdPartyTrade(env, third, random);
      await reached(env, block);
    }
    await sleep(500);
  } finally {
    sampling = false;
    await sampler;
    proxy.rewrite = undefined;
  }
  const ready = await getJson<{ chains: { follow: { headsBehind: number } }[] }>(`${env.apiUrl}/readyz`);
  expect(ready.chains[0]!.follow.headsBehind).toBeGreaterThan(0);
  expect(quoted.length).toBeGreaterThan(10);
  for (const list of [states, quoted]) expect(list.filter((n, i) => i > 0 && n < list[i - 1]!)).toEqual([]);
});
