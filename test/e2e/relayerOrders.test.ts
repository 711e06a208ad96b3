import { Contract, HDNodeWallet, id, MaxUint256, parseEther, parseUnits, Wallet } from 'ethers';
import { devAccount } from '../../src/devnet/accounts';
import { DEVNET_CHAIN_ID, type DevnetPool } from '../../src/devnet/devnet';
import { DEV_TOKENS, ETH_PRICE_USD } from '../../src/devnet/universe';
import { relayerInterface, relayerLibraryInterface } from '../../src/routing/v2/relayer/relayerAbi';
import { E2eEnvironment, startE2eEnvironment } from './helpers/e2eEnvironment';
import { NATIVE_EEEE, NATIVE_ZERO, OrderResponse, postJson, SwapInfoResponse } from './helpers/orders';

/**
 * Routes with joins and exits, end to end: the service indexes the devnet, /order answers a
 * BatchRelayer multicall, and a fresh wallet that did nothing but the approvals the answer lists
 * sends it exactly as returned. Every order must pay and receive its quote to the wei. Each case
 * runs on a chain snapshot reverted afterwards, so every order sees the state the service indexed.
 */

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
];
const ZERO = NATIVE_ZERO;

let env: E2eEnvironment;
let snapshot: string | undefined;
const tally = {
  orders: 0,
  exact: 0,
  joins: 0,
  exits: 0,
  native: 0,
  split: 0,
  withSwaps: 0,
  inexact: [] as string[],
  cases: [] as string[],
};

beforeAll(async () => {
  env = await startE2eEnvironment();
  expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);
  expect((await postJson(`${env.apiUrl}/tokens/update/`, {})).status).toBe(201);
}, 120_000);

afterAll(async () => {
  process.stdout.write(
    `e2e relayer orders (${env?.description}): ${tally.exact}/${tally.orders} exact to the wei ` +
      `(${tally.joins} with a join, ${tally.exits} with an exit, ${tally.withSwaps} with swaps too, ${tally.split} split, ${tally.native} with native ETH)${tally.inexact.length ? `; inexact: ${tally.inexact.join('; ')}` : ''}\n` +
      (process.env.E2E_VERBOSE ? `${tally.cases.join('\n')}\n` : ''),
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

/** A token by symbol, a pool's BPT by pool name, or ETH. */
interface Asset {
  readonly label: string;
  /** What the request sends (a native alias for ETH). */
  readonly wire: string;
  /** Where the balance is read: the zero address for ETH. */
  readonly address: string;
  readonly decimals: number;
  /** Holder that can fund a fresh wallet with it. */
  readonly holder: number;
}

function tokenAsset(symbol: string): Asset {
  const t = env.devnet.tokens.find((x) => x.symbol === symbol);
  if (!t) throw new Error(`devnet has no token ${symbol}`);
  return { label: symbol, wire: t.address, address: t.address, decimals: t.decimals, holder: 1 };
}

function bptAsset(pool: DevnetPool): Asset {
  // The deployer seeded every pool and holds its initial BPT.
  return { label: `BPT(${pool.name})`, wire: pool.address, address: pool.address, decimals: 18, holder: 0 };
}

const ethAsset = (alias: string): Asset => ({ label: 'ETH', wire: alias, address: ZERO, decimals: 18, holder: 1 });

function poolNamed(name: string): DevnetPool {
  const p = env.devnet.pools.find((x) => x.name === name);
  if (!p) throw new Error(`no devnet pool ${name}`);
  return p;
}

async function balance(asset: Asset, holder: string): Promise<bigint> {
  if (asset.address === ZERO) return env.chain.provider.getBalance(holder);
  return (await new Contract(asset.address, ERC20, env.chain.provider).getFunction('balanceOf')(holder)) as bigint;
}

/** A wallet with ETH for gas and `amount` of `asset`, and no approval of any kind. */
async function freshWallet(asset: Asset, amount: bigint): Promise<HDNodeWallet> {
  const wallet = Wallet.createRandom().connect(env.chain.provider);
  const gasMoney = devAccount(1, env.chain.provider);
  await (
    await gasMoney.sendTransaction({
      to: wallet.address,
      value: parseEther('10') + (asset.address === ZERO ? amount : 0n),
    })
  ).wait();
  if (asset.address !== ZERO) {
    const from = devAccount(asset.holder, env.chain.provider);
    await (await new Contract(asset.address, ERC20, from).getFunction('transfer')(wallet.address, amount)).wait();
  }
  return wallet;
}

function body(sell: Asset, buy: Asset, amount: bigint, sender: string, extra: Record<string, unknown> = {}) {
  return {
    sellToken: sell.wire,
    buyToken: buy.wire,
    orderKind: 'sell',
    amount: amount.toString(),
    gasPrice: '1000000000',
    sender,
    slippagePercentage: '0',
    ...extra,
  };
}

/** The library calls of an /order multicall, by name. */
function callNames(order: OrderResponse): string[] {
  const [calls] = relayerInterface.decodeFunctionData('multicall', order.data) as unknown as [string[]];
  return calls.map((c) => relayerLibraryInterface.parseTransaction({ data: c })!.name);
}

async function revertReason(from: string, order: OrderResponse): Promise<string | undefined> {
  try {
    await env.chain.provider.call({ from, to: order.to, data: order.data, value: BigInt(order.value) });
    return undefined;
  } catch (e) {
    const err = e as { reason?: string; shortMessage?: string; message: string };
    return err.reason ?? err.shortMessage ?? err.message;
  }
}

/**
 * /sor and /order for a fresh wallet holding exactly `amount` of the sell asset, the listed
 * approvals sent as listed, then the order as returned; what moved is measured on chain.
 */
async function runOrder(sell: Asset, buy: Asset, amount: bigint, extra: Record<string, unknown> = {}) {
  const wallet = await freshWallet(sell, amount);
  const req = body(sell, buy, amount, wallet.address, extra);
  const [sor, res] = await Promise.all([
    postJson<SwapInfoResponse>(`${env.apiUrl}/sor/${DEVNET_CHAIN_ID}`, req),
    postJson<OrderResponse>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, req),
  ]);
  expect(sor.status).toBe(200);
  expect(res.status).toBe(200);
  const order = res.body;
  expect(sor.body.relayerRequired).toBe(true);
  expect(order.to.toLowerCase()).toBe(env.devnet.addresses.batchRelayer);
  expect(order.relayerApprovalRequired).toBe(true);
  expect(order.price.buyAmount).toBe(sor.body.returnAmount);
  expect(order.price.sellAmount).toBe(amount.toString());
  expect(order.approvals[0]).toMatchObject({
    kind: 'relayer',
    to: expect.stringMatching(new RegExp(env.devnet.addresses.vault, 'i')),
  });

  // Nothing may move before the approvals.
  expect(await revertReason(wallet.address, order)).toBeDefined();
  for (const a of order.approvals) {
    const receipt = await (await wallet.sendTransaction({ to: a.to, data: a.data })).wait();
    expect(receipt?.status).toBe(1);
  }
  const receiver = String(extra.receiver ?? wallet.address);
  const [payBefore, getBefore] = [await balance(sell, wallet.address), await balance(buy, receiver)];
  const receipt = await (
    await wallet.sendTransaction({ to: order.to, data: order.data, value: BigInt(order.value) })
  ).wait();
  expect(receipt?.status).toBe(1);
  const gas = receipt!.gasUsed * receipt!.gasPrice;
  const paid = payBefore - (await balance(sell, wallet.address)) - (sell.address === ZERO ? gas : 0n);
  const got =
    (await balance(buy, receiver)) - getBefore + (buy.address === ZERO && receiver === wallet.address ? gas : 0n);
  return { wallet, sor: sor.body, order, paid, got, calls: callNames(order) };
}

function record(name: string, r: Awaited<ReturnType<typeof runOrder>>, amount: bigint, native: boolean) {
  tally.orders++;
  if (r.calls.includes('joinPool')) tally.joins++;
  if (r.calls.includes('exitPool')) tally.exits++;
  if (native) tally.native++;
  if (r.calls.includes('batchSwap') && r.sor.swaps.some((x) => x.action === undefined)) tally.withSwaps++;
  if (r.sor.swaps.filter((x) => BigInt(x.amount) > 0n).length > 1) tally.split++;
  tally.cases.push(`${name}: ${r.calls.join('+')}`);
  if (r.paid === amount && r.got.toString() === r.order.price.buyAmount) tally.exact++;
  else
    tally.inexact.push(`${name}: paid ${r.paid} of ${amount}, got ${r.got} for a quote of ${r.order.price.buyAmount}`);
}

describe('join and exit routes execute exactly as quoted', () => {
  test('DAI -> BPT of the WETH/USDC weighted pool, then that BPT -> USDT', async () => {
    const bpt = bptAsset(poolNamed('WETH-USDC 50/50'));
    const dai = parseUnits('2500', 18);
    const before = await env.chain.snapshot();
    const join = await runOrder(tokenAsset('DAI'), bpt, dai);
    expect(join.calls).toContain('joinPool');
    expect(join.order.approvals.map((a) => a.kind)).toEqual(['relayer', 'erc20']);
    expect(join.order.approvals[1]).toMatchObject({ kind: 'erc20', amount: dai.toString() });
    expect({ paid: join.paid, got: join.got.toString() }).toEqual({ paid: dai, got: join.order.price.buyAmount });
    record('DAI -> BPT', join, dai, false);

    // The service indexed the chain before the join: sell the same amount of that BPT from the
    // indexed state (a fresh wallet funded by the deployer, who holds the pool's initial BPT).
    await env.chain.revert(before);
    const exit = await runOrder(bpt, tokenAsset('USDT'), join.got);
    expect(exit.calls).toContain('exitPool');
    // An exit burns the sender's BPT itself: the relayer approval is all it needs.
    expect(exit.order.approvals.map((a) => a.kind)).toEqual(['relayer']);
    expect({ paid: exit.paid, got: exit.got.toString() }).toEqual({ paid: join.got, got: exit.order.price.buyAmount });
    record('BPT -> USDT', exit, join.got, false);
  });

  // A seeded walk over the devnet: every weighted pool's BPT against every token (and ETH under
  // both aliases), both directions and BPT -> BPT, amounts over four orders of magnitude.
  const CASES = 15;
  test(`${CASES} random join/exit routes pay and receive their quotes to the wei`, async () => {
    let seed = 0x5eed14;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
    const weighted = env.devnet.pools.filter((p) => p.kind === 'weighted');
    const usd = (symbol: string) =>
      Number(
        symbol === 'WETH' || symbol === 'ETH' ? ETH_PRICE_USD : DEV_TOKENS.find((t) => t.symbol === symbol)!.priceUsd,
      );
    const failures: string[] = [];
    for (let n = 0; n < CASES; n++) {
      const pool = pick(weighted);
      const bpt = bptAsset(pool);
      // Every shape in turn (token -> BPT, BPT -> token, BPT -> BPT, native ETH in and out); the
      // pool, the token and the amount at random.
      const shape = (['join', 'exit', 'bpt', 'join', 'exit'] as const)[n % 5]!;
      const symbol = n % 5 === 3 || n % 5 === 4 ? 'ETH' : pick(['WETH', ...DEV_TOKENS.map((t) => t.symbol)]);
      const token = symbol === 'ETH' ? ethAsset(pick([NATIVE_ZERO, NATIVE_EEEE])) : tokenAsset(symbol);
      // 1 to 10 000 USD worth, or 1e-6 to 1e-2 of the deployer's BPT (nearly all of the supply).
      const magnitude = 10 ** (rnd() * 4);
      let sell: Asset;
      let buy: Asset;
      let amount: bigint;
      if (shape === 'join') {
        [sell, buy] = [token, bpt];
        amount = parseUnits((magnitude / usd(symbol)).toFixed(token.decimals), token.decimals);
      } else {
        [sell, buy] = shape === 'exit' ? [bpt, token] : [bpt, bptAsset(pick(weighted.filter((p) => p !== pool)))];
        const held = await balance(bpt, devAccount(0).address);
        amount = (held * BigInt(Math.round(magnitude))) / 1_000_000n;
      }
      const name = `#${n} ${sell.label} -> ${buy.label} (${amount})`;
      const slippage = pick(['0', '0', '0.001', '0.01']);
      const snap = await env.chain.snapshot();
      try {
        const r = await runOrder(sell, buy, amount, { slippagePercentage: slippage });
        record(name, r, amount, sell.address === ZERO || buy.address === ZERO);
        expect(BigInt(r.order.minBuyAmount!)).toBeLessThanOrEqual(r.got);
      } catch (e) {
        failures.push(
          `${name}: ${
            e instanceof Error
              ? e.message
                  .split('\n')
                  .filter((l) => l.trim() !== '')
                  .slice(0, 6)
                  .join(' | ')
              : String(e)
          }`,
        );
      } finally {
        await env.chain.revert(snap);
      }
    }
    expect(failures).toEqual([]);
    expect(tally.inexact).toEqual([]);
    expect(tally.orders).toBeGreaterThanOrEqual(CASES);
  }, 300_000);
});

describe('join and exit routes the chain or the service must refuse', () => {
  test('at slippage 0, a join whose pool another wallet joined first reverts (BAL#208) and moves nothing', async () => {
    const pool = poolNamed('WETH-USDC 50/50');
    const weth = tokenAsset('WETH');
    const amount = parseEther('3');
    const wallet = await freshWallet(weth, amount);
    const res = await postJson<OrderResponse>(
      `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
      body(weth, bptAsset(pool), amount, wallet.address),
    );
    expect(res.status).toBe(200);
    for (const a of res.body.approvals) await (await wallet.sendTransaction({ to: a.to, data: a.data })).wait();
    expect(await revertReason(wallet.address, res.body)).toBeUndefined();

    // Somebody joins the same pool first: the BPT price moves and the exact minimum is missed.
    const other = await freshWallet(weth, amount);
    const front = await postJson<OrderResponse>(
      `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
      body(weth, bptAsset(pool), amount, other.address),
    );
    for (const a of front.body.approvals) await (await other.sendTransaction({ to: a.to, data: a.data })).wait();
    await (
      await other.sendTransaction({ to: front.body.to, data: front.body.data, value: BigInt(front.body.value) })
    ).wait();

    expect(await revertReason(wallet.address, res.body)).toMatch(/BAL#208/);
    await expect(
      wallet.sendTransaction({ to: res.body.to, data: res.body.data, gasLimit: 2_000_000n }),
    ).rejects.toThrow(/BAL#208/);
    expect(await balance(weth, wallet.address)).toBe(amount);
  });

  test('the relayer or the Vault as receiver -> 400; buying a BPT (joins take an exact amount in) -> 422', async () => {
    const bpt = bptAsset(poolNamed('WETH-USDC 50/50'));
    const sender = devAccount(1).address;
    const toRelayer = await postJson<{ error: string }>(
      `${env.apiUrl}/order/${DEVNET_CHAIN_ID}`,
      body(tokenAsset('DAI'), bpt, 10n ** 18n, sender, { receiver: env.devnet.addresses.batchRelayer }),
    );
    expect(toRelayer.status).toBe(400);
    expect(toRelayer.body.error).toMatch(/^receiver: .*batch relayer/);
    const buy = await postJson<{ error: string }>(`${env.apiUrl}/order/${DEVNET_CHAIN_ID}`, {
      ...body(tokenAsset('DAI'), bpt, 10n ** 18n, sender),
      orderKind: 'buy',
    });
    expect(buy.status).toBe(422);
    expect(buy.body.error).toMatch(/sell/);
  });
});

// Last in the file: it leaves the service's store indexed with protocol fees on (the chain is
// reverted after it as after every case).
describe('with protocol fees on (50 % swap, 50 % yield, as on mainnet)', () => {
  test('a weighted join and exit whose pool owes protocol fee BPT execute exactly at slippage 0', async () => {
    const admin = devAccount(0, env.chain.provider);
    const vault = new Contract(
      env.devnet.addresses.vault,
      [
        'function getProtocolFeesCollector() view returns (address)',
        'function swap((bytes32 poolId, uint8 kind, address assetIn, address assetOut, uint256 amount, bytes userData), (address sender, bool fromInternalBalance, address recipient, bool toInternalBalance), uint256 limit, uint256 deadline) returns (uint256)',
      ],
      admin,
    );
    const authorizer = new Contract(
      env.devnet.addresses.authorizer,
      ['function grantRole(bytes32 role, address account)'],
      admin,
    );
    const collector = new Contract(
      String(await vault.getFunction('getProtocolFeesCollector')()),
      ['function setSwapFeePercentage(uint256)', 'function getActionId(bytes4) view returns (bytes32)'],
      admin,
    );
    const provider = new Contract(
      env.devnet.addresses.protocolFeePercentagesProvider,
      ['function setFeeTypePercentage(uint256, uint256)', 'function getActionId(bytes4) view returns (bytes32)'],
      admin,
    );
    for (const [c, sig] of [
      [collector, 'setSwapFeePercentage(uint256)'],
      [provider, 'setFeeTypePercentage(uint256,uint256)'],
    ] as const) {
      const action = String(await c.getFunction('getActionId')(id(sig).slice(0, 10)));
      await (await authorizer.getFunction('grantRole')(action, admin.address)).wait();
    }
    const half = parseUnits('0.5', 18);
    await (await collector.getFunction('setSwapFeePercentage')(half)).wait();
    await (await provider.getFunction('setFeeTypePercentage')(2, half)).wait();
    // The pool caches the percentages; anyone may refresh its cache.
    const pool = poolNamed('WETH-USDC 50/50');
    const poolContract = new Contract(
      pool.address,
      [
        'function updateProtocolFeePercentageCache()',
        'function getProtocolFeePercentageCache(uint256) view returns (uint256)',
      ],
      admin,
    );
    await (await poolContract.getFunction('updateProtocolFeePercentageCache')()).wait();
    expect(await poolContract.getFunction('getProtocolFeePercentageCache')(0)).toBe(half);

    // Swaps grow the pool's invariant: the next join or exit first mints the protocol's share.
    const usdc = tokenAsset('USDC');
    const weth = tokenAsset('WETH');
    const trader = await freshWallet(usdc, parseUnits('20000', 6));
    for (const t of [usdc, weth])
      await (
        await new Contract(t.address, ['function approve(address, uint256) returns (bool)'], trader).getFunction(
          'approve',
        )(env.devnet.addresses.vault, MaxUint256)
      ).wait();
    const funds = {
      sender: trader.address,
      fromInternalBalance: false,
      recipient: trader.address,
      toInternalBalance: false,
    };
    const swapAs = vault.connect(trader) as Contract;
    await (
      await swapAs.getFunction('swap')(
        {
          poolId: pool.id,
          kind: 0,
          assetIn: usdc.address,
          assetOut: weth.address,
          amount: parseUnits('20000', 6),
          userData: '0x',
        },
        funds,
        0n,
        MaxUint256,
      )
    ).wait();
    await (
      await swapAs.getFunction('swap')(
        {
          poolId: pool.id,
          kind: 0,
          assetIn: weth.address,
          assetOut: usdc.address,
          amount: await balance(weth, trader.address),
          userData: '0x',
        },
        funds,
        0n,
        MaxUint256,
      )
    ).wait();
    expect((await postJson(`${env.apiUrl}/pools/${DEVNET_CHAIN_ID}/update`, {})).status).toBe(201);

    const bpt = bptAsset(pool);
    const dai = parseUnits('2500', 18);
    const before = await env.chain.snapshot();
    const join = await runOrder(tokenAsset('DAI'), bpt, dai);
    expect(join.calls).toContain('joinPool');
    expect({ paid: join.paid, got: join.got.toString() }).toEqual({ paid: dai, got: join.order.price.buyAmount });
    record('DAI -> BPT (protocol fees on)', join, dai, false);

    await env.chain.revert(before);
    const exit = await runOrder(bpt, tokenAsset('USDT'), join.got);
    expect(exit.calls).toContain('exitPool');
    expect({ paid: exit.paid, got: exit.got.toString() }).toEqual({ paid: join.got, got: exit.order.price.buyAmount });
    record('BPT -> USDT (protocol fees on)', exit, join.got, false);
  });
});
