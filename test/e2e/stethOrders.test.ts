import { Contract, HDNodeWallet, parseEther, Wallet } from 'ethers';
import { devAccount } from '../../src/devnet/accounts';
import { DEVNET_CHAIN_ID, tokenBySymbol } from '../../src/devnet/devnet';
import { relayerInterface, relayerLibraryInterface } from '../../src/routing/v2/relayer/relayerAbi';
import { E2eEnvironment, startE2eEnvironment } from './helpers/e2eEnvironment';
import { OrderResponse, postJson, SwapInfoResponse } from './helpers/orders';

/**
 * stETH in and out through the BatchRelayer, end to end: the devnet's Lido (share-based stETH,
 * rebased so a wstETH is worth about 1.1537 stETH) and its relayer library built with wstETH; the
 * API reads the ratio through the node's RPC. A fresh wallet sends only the approvals /order lists
 * and then the order at slippage 0; what it receives must be the quote to the wei (for stETH out,
 * the quote is Lido's lower bound, which a receiver holding no stETH gets exactly).
 */

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
];
const WSTETH = [
  'function getWstETHByStETH(uint256) view returns (uint256)',
  'function getStETHByWstETH(uint256) view returns (uint256)',
];

let env: E2eEnvironment;
let snapshot: string | undefined;
const figures: string[] = [];

beforeAll(async () => {
  env = await startE2eEnvironment({ rpc: true });
  expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);
  expect((await postJson(`${env.apiUrl}/tokens/update/`, {})).status).toBe(201);
}, 120_000);

afterAll(async () => {
  process.stdout.write(`e2e stETH orders (${env?.description}):\n${figures.join('\n')}\n`);
  await env?.close();
});

beforeEach(async () => {
  snapshot = await env.chain.snapshot();
});

afterEach(async () => {
  if (snapshot !== undefined) await env.chain.revert(snapshot);
  snapshot = undefined;
});

const address = (symbol: string) => tokenBySymbol(env.devnet, symbol).address;

async function balance(symbol: string, holder: string): Promise<bigint> {
  return (await new Contract(address(symbol), ERC20, env.chain.provider).getFunction('balanceOf')(holder)) as bigint;
}

/**
 * A wallet with gas money and at least `amount` of `symbol` from trader 1 (stETH: the transfer
 * moves shares, so it sends 2 wei more than asked to be sure), and no approval of any kind.
 */
async function freshWallet(symbol: string, amount: bigint): Promise<HDNodeWallet> {
  const wallet = Wallet.createRandom().connect(env.chain.provider);
  const rich = devAccount(1, env.chain.provider);
  await (await rich.sendTransaction({ to: wallet.address, value: parseEther('10') })).wait();
  if (symbol === 'wstETH') {
    // Traders hold stETH; the deployer holds what is left of the pools' wstETH seed: wrap some.
    const st = new Contract(address('stETH'), ['function approve(address,uint256) returns (bool)'], rich);
    await (await st.getFunction('approve')(address('wstETH'), amount * 2n)).wait();
    await (
      await new Contract(address('wstETH'), ['function wrap(uint256) returns (uint256)'], rich).getFunction('wrap')(
        amount * 2n,
      )
    ).wait();
  }
  await (
    await new Contract(address(symbol), ERC20, rich).getFunction('transfer')(
      wallet.address,
      symbol === 'stETH' ? amount + 2n : amount,
    )
  ).wait();
  expect(await balance(symbol, wallet.address)).toBeGreaterThanOrEqual(amount);
  return wallet;
}

function callNames(order: OrderResponse): string[] {
  const [calls] = relayerInterface.decodeFunctionData('multicall', order.data) as unknown as [string[]];
  return calls.map((c) => relayerLibraryInterface.parseTransaction({ data: c })!.name);
}

function request(sell: string, buy: string, amount: bigint, sender: string, extra: Record<string, unknown> = {}) {
  return {
    sellToken: address(sell),
    buyToken: address(buy),
    orderKind: 'sell',
    amount: amount.toString(),
    gasPrice: '1000000000',
    sender,
    slippagePercentage: '0',
    ...extra,
  };
}

/** /sor and /order, the listed approvals, the order; balances measured on chain. */
async function runOrder(sell: string, buy: string, amount: bigint) {
  const wallet = await freshWallet(sell, amount);
  const req = request(sell, buy, amount, wallet.address);
  const [sor, res] = await Promise.all([
    postJson<SwapInfoResponse>(`${env.apiUrl}/sor/${DEVNET_CHAIN_ID}`, req),
    postJson<OrderResponse>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, req),
  ]);
  expect(sor.status).toBe(200);
  expect(res.status).toBe(200);
  const order = res.body;
  expect(sor.body.relayerRequired).toBe(true);
  expect(order.price.buyAmount).toBe(sor.body.returnAmount);
  expect(order.minBuyAmount).toBe(order.price.buyAmount);
  expect(order.to.toLowerCase()).toBe(env.devnet.addresses.batchRelayer);
  for (const a of order.approvals) {
    const receipt = await (await wallet.sendTransaction({ to: a.to, data: a.data })).wait();
    expect(receipt?.status).toBe(1);
  }
  const [payBefore, getBefore] = [await balance(sell, wallet.address), await balance(buy, wallet.address)];
  expect(getBefore).toBe(0n);
  const receipt = await (
    await wallet.sendTransaction({ to: order.to, data: order.data, value: BigInt(order.value) })
  ).wait();
  expect(receipt?.status).toBe(1);
  const paid = payBefore - (await balance(sell, wallet.address));
  const got = (await balance(buy, wallet.address)) - getBefore;
  const calls = callNames(order);
  figures.push(
    `  sell ${amount} ${sell} -> ${buy}: quote ${order.price.buyAmount}, received ${got} (${calls.join(' + ')}; sender's ${sell} balance fell by ${paid})`,
  );
  return { sor: sor.body, order, got, paid, calls };
}

const wstEth = () => new Contract(address('wstETH'), WSTETH, env.chain.provider);

describe('stETH is wrapped or unwrapped by the relayer, exact to the wei', () => {
  test('the devnet ratio is not 1', async () => {
    const st = (await wstEth().getFunction('getStETHByWstETH')(10n ** 18n)) as bigint;
    expect(st).toBeGreaterThan(10n ** 18n);
  });

  test('sell 10 stETH -> WETH: wrapStETH, then the wstETH route from the relayer', async () => {
    const amount = 10n * 10n ** 18n + 123_456_789n;
    const r = await runOrder('stETH', 'WETH', amount);
    expect(r.calls).toEqual(['wrapStETH', 'approveVault', 'batchSwap']);
    expect(r.sor.swaps[0]).toMatchObject({
      action: 'wrap',
      amount: amount.toString(),
      returnAmount: String(await wstEth().getFunction('getWstETHByStETH')(amount)),
    });
    expect(r.order.approvals.map((a) => a.kind)).toEqual(['relayer', 'erc20']);
    expect(r.order.approvals[1]).toMatchObject({
      token: expect.stringMatching(new RegExp(address('stETH'), 'i')),
      amount: amount.toString(),
    });
    expect(r.got.toString()).toBe(r.order.price.buyAmount);
    // Lido moves shares: the sender loses the amount or up to 2 wei more or less in balance terms.
    expect(r.paid - amount).toBeGreaterThanOrEqual(-2n);
    expect(r.paid - amount).toBeLessThanOrEqual(2n);
  });

  test('sell 5 WETH -> stETH: the wstETH route to the relayer, then unwrapWstETH to the receiver', async () => {
    const amount = 5n * 10n ** 18n + 987_654_321n;
    const r = await runOrder('WETH', 'stETH', amount);
    expect(r.calls).toEqual(['batchSwap', 'unwrapWstETH']);
    expect(r.sor.swaps.at(-1)).toMatchObject({ action: 'unwrap', amount: '0' });
    expect(r.got.toString()).toBe(r.order.price.buyAmount);
    expect(r.paid).toBe(amount);
  });

  test('sell 2500 USDC -> stETH: two hops to wstETH, then the unwrap', async () => {
    const amount = 2_500_000_000n;
    const r = await runOrder('USDC', 'stETH', amount);
    expect(r.calls.at(-1)).toBe('unwrapWstETH');
    expect(r.got.toString()).toBe(r.order.price.buyAmount);
    expect(r.paid).toBe(amount);
  });

  test('sell 7 stETH -> wstETH and 3 wstETH -> stETH: the wrap or unwrap alone', async () => {
    const wrap = await runOrder('stETH', 'wstETH', 7n * 10n ** 18n + 1n);
    expect(wrap.calls).toEqual(['wrapStETH', 'batchSwap']);
    expect(wrap.got.toString()).toBe(wrap.order.price.buyAmount);
    await env.chain.revert(snapshot!);
    snapshot = await env.chain.snapshot();
    const unwrap = await runOrder('wstETH', 'stETH', 3n * 10n ** 18n + 7n);
    expect(unwrap.calls).toEqual(['unwrapWstETH', 'batchSwap']);
    expect(unwrap.got.toString()).toBe(unwrap.order.price.buyAmount);
    expect(unwrap.paid).toBe(3n * 10n ** 18n + 7n);
  });

  test('sell 2 stETH -> the wstETH/WETH pool BPT: wrap, then a join', async () => {
    const pool = env.devnet.pools.find((p) => p.name === 'wstETH-WETH 50/50')!;
    const amount = 2n * 10n ** 18n;
    const wallet = await freshWallet('stETH', amount);
    const res = await postJson<OrderResponse>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
      ...request('stETH', 'WETH', amount, wallet.address),
      buyToken: pool.address,
    });
    expect(res.status).toBe(200);
    const calls = callNames(res.body);
    for (const a of res.body.approvals) await (await wallet.sendTransaction({ to: a.to, data: a.data })).wait();
    const bpt = new Contract(pool.address, ERC20, env.chain.provider);
    const receipt = await (await wallet.sendTransaction({ to: res.body.to, data: res.body.data })).wait();
    expect(receipt?.status).toBe(1);
    const got = (await bpt.getFunction('balanceOf')(wallet.address)) as bigint;
    figures.push(
      `  sell ${amount} stETH -> BPT(${pool.name}): quote ${res.body.price.buyAmount}, received ${got} (${calls.join(' + ')})`,
    );
    expect(calls[0]).toBe('wrapStETH');
    expect(got.toString()).toBe(res.body.price.buyAmount);
  });

  test('a receiver already holding stETH gets the quote or one wei more; at 1% slippage the order still pays', async () => {
    const amount = 4n * 10n ** 18n + 55_555n;
    const wallet = await freshWallet('WETH', amount);
    // The receiver holds some stETH already, so its balance rounds over more shares.
    await (
      await new Contract(address('stETH'), ERC20, devAccount(2, env.chain.provider)).getFunction('transfer')(
        wallet.address,
        1_234_567_890_123_456_789n,
      )
    ).wait();
    const res = await postJson<OrderResponse>(
      `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
      request('WETH', 'stETH', amount, wallet.address, { slippagePercentage: '0.01' }),
    );
    expect(res.status).toBe(200);
    for (const a of res.body.approvals) await (await wallet.sendTransaction({ to: a.to, data: a.data })).wait();
    const before = await balance('stETH', wallet.address);
    const receipt = await (await wallet.sendTransaction({ to: res.body.to, data: res.body.data })).wait();
    expect(receipt?.status).toBe(1);
    const got = (await balance('stETH', wallet.address)) - before;
    const quote = BigInt(res.body.price.buyAmount);
    figures.push(
      `  sell ${amount} WETH -> stETH to a holder, 1% slippage: quote ${quote}, received ${got}, minBuyAmount ${res.body.minBuyAmount}`,
    );
    expect(got - quote).toBeGreaterThanOrEqual(0n);
    expect(got - quote).toBeLessThanOrEqual(1n);
    expect(BigInt(res.body.minBuyAmount!)).toBeLessThan(quote);
  });

  test('stETH buys are refused with a 422 naming sells', async () => {
    const res = await postJson<{ error?: string; message?: string }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
      ...request('WETH', 'stETH', 10n ** 18n, devAccount(1).address),
      orderKind: 'buy',
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toMatch(/sell/);
  });

  test('a stETH amount past what wstETH can convert (it reverts on overflow) is a 422 naming amount, not an upstream failure', async () => {
    for (const path of ['sor', 'order']) {
      const res = await postJson<{ error?: string }>(
        `${env.apiUrl}/${path}/${DEVNET_CHAIN_ID}`,
        request('stETH', 'WETH', 2n ** 255n, devAccount(1).address),
      );
      expect([res.status, String(res.body.error)]).toEqual([
        422,
        expect.stringMatching(/^amount: .*beyond what Lido's wstETH converts/),
      ]);
    }
  });
});
