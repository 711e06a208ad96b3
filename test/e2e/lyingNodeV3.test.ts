import { Contract, id } from 'ethers';
import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { decimalToUnits } from '../../src/domain/decimal';
import { FaultRpcProxy, type RpcAnswerBody, type RpcCallBody } from '../fakes/faultRpcProxy';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import { caughtUp, followStatus, getJson, reached, sleep, tokenBalance } from './helpers/follow';
import { OrderResponse, postJson } from './helpers/orders';
import { thirdPartyV3Trade, v3PoolsFollowed } from './helpers/v3Chain';

/**
 * The service follows the devnet's Balancer V3 through a JSON-RPC proxy that lies while a third
 * party swaps on a V3 pool or wraps or unwraps through a buffer: answers from the block before, a
 * buffer's balances answered `0x`, a wrapped token's share price answered null. Each fault is
 * counted in /readyz while it lasts and nothing of its block is served; once the proxy is honest
 * every V3 pool equals the chain's own reads, and a slippage-0 V3 order through the traded pool or
 * buffer pays exactly its quote (the buffers' state against the chain is
 * `test/jobs/headFollowerV3.faults.test.ts`'s).
 */
let env: E2eEnvironment;
let proxy: FaultRpcProxy;

const VAULT = [
  'function getPoolTokenInfo(address pool) view returns (address[] tokens, (uint8,address,bool)[] tokenInfo, uint256[] balancesRaw, uint256[] lastBalancesLiveScaled18)',
];

beforeAll(async () => {
  env = await startE2eEnvironment({
    rpc: true,
    follow: true,
    v3: true,
    rpcThrough: async (url) => (proxy = await FaultRpcProxy.start(url)),
  });
  await v3PoolsFollowed(env);
  await caughtUp(env);
}, 120_000);

afterAll(async () => env?.close());

const selector = (signature: string) => id(signature).slice(0, 10);
const isCall = (c: RpcCallBody, sel: string) =>
  c.method === 'eth_call' && String((c.params?.[0] as { data?: string })?.data).startsWith(sel);
const answer = (a: RpcAnswerBody, result: unknown): RpcAnswerBody => ({ jsonrpc: '2.0', id: a.id, result });

/** Choices for `thirdPartyV3Trade`'s draws: a swap on the first V3 pool, or a wrap or unwrap through the first buffer. */
const draws = (values: number[]) => () => values.shift() ?? 0.5;
const SWAP = [0.9, 0.1, 0, 0, 0.5];
const WRAP = [0.1, 0, 0.1, 0.5];
const UNWRAP = [0.1, 0, 0.9, 0.5];

const lies: [string, number[], (p: FaultRpcProxy) => void][] = [
  [
    'a V3 swap read from the block before',
    SWAP,
    (p) =>
      (p.rewrite = (c) => {
        const tag = c.params?.[1];
        if (c.method !== 'eth_call' || typeof tag !== 'string' || !tag.startsWith('0x')) return c;
        return { ...c, params: [c.params![0], `0x${(Number(tag) - 1).toString(16)}`] };
      }),
  ],
  [
    "a buffer wrap with the buffer's balances answered 0x",
    WRAP,
    (p) => (p.lie = (c, a) => (isCall(c, selector('getBufferBalance(address)')) ? answer(a, '0x') : a)),
  ],
  [
    "a buffer unwrap with the token's share price answered null",
    UNWRAP,
    (p) => (p.lie = (c, a) => (isCall(c, selector('convertToAssets(uint256)')) ? answer(a, null) : a)),
  ],
];

interface ServedPool {
  address: string;
  protocolVersion?: number;
  tokens: { address: string; balance: string; decimals: number }[];
}

/** Every V3 pool's balances as served equal the chain's own reads at the head (a buffer's show in the exact order after). */
async function expectV3IsTheChain(): Promise<void> {
  const vault = new Contract(env.devnet.v3.addresses.vault, VAULT, env.chain.provider);
  const served = await getJson<ServedPool[]>(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}`);
  for (const p of env.devnet.v3.pools) {
    const s = served.find((x) => x.address.toLowerCase() === p.address)!;
    const [tokens, , balances] = (await vault.getFunction('getPoolTokenInfo')(p.address)) as [
      string[],
      unknown,
      bigint[],
    ];
    const byToken = new Map(s.tokens.map((t) => [t.address.toLowerCase(), decimalToUnits(t.balance, t.decimals)]));
    expect({ pool: p.symbol, balances: tokens.map((t) => byToken.get(t.toLowerCase())) }).toEqual({
      pool: p.symbol,
      balances,
    });
  }
}

test.each(lies)(
  '%s: counted in /readyz, nothing of it served; once honest every V3 pool is the chain and a slippage-0 order through it pays its quote',
  async (_what, choices, lie) => {
    await caughtUp(env);
    const malformed = async () =>
      (await getJson<{ chains: { follow: { malformedAnswers: number } }[] }>(`${env.apiUrl}/readyz`)).chains[0]!.follow
        .malformedAnswers;
    const before = await malformed();
    lie(proxy);
    const trade = await thirdPartyV3Trade(env, trader(env, 2), draws([...choices]));
    const deadline = Date.now() + 20_000;
    while ((await malformed()) === before && Date.now() < deadline) await sleep(50);
    expect(await malformed()).toBeGreaterThan(before);
    expect((await followStatus(env)).stateBlock).toBeLessThan(trade.block);

    proxy.lie = undefined;
    proxy.rewrite = undefined;
    await reached(env, trade.block);
    await expectV3IsTheChain();

    // The same trade again, by a user at slippage 0: it pays exactly the quote.
    const user = trader(env, 1);
    const amount = (await tokenBalance(env, trade.tokenIn, user.address)) / 1000n;
    const res = await postJson<OrderResponse & { blockNumber?: number }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
      sellToken: trade.tokenIn,
      buyToken: trade.tokenOut,
      orderKind: 'sell',
      amount: amount.toString(),
      gasPrice: '1000000000',
      sender: user.address,
      slippagePercentage: '0',
      protocolVersion: 3,
    });
    expect(res.status).toBe(200);
    for (const a of res.body.approvals) await (await user.sendTransaction({ to: a.to, data: a.data })).wait();
    const [sellBefore, buyBefore] = await Promise.all([
      tokenBalance(env, trade.tokenIn, user.address),
      tokenBalance(env, trade.tokenOut, user.address),
    ]);
    const sent = await user.sendTransaction({ to: res.body.to, data: res.body.data, value: BigInt(res.body.value) });
    expect((await sent.wait())?.status).toBe(1);
    expect({
      paid: sellBefore - (await tokenBalance(env, trade.tokenIn, user.address)),
      received: (await tokenBalance(env, trade.tokenOut, user.address)) - buyBefore,
    }).toEqual({ paid: BigInt(res.body.price.sellAmount), received: BigInt(res.body.price.buyAmount) });
  },
  60_000,
);
