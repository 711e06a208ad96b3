import { AbiCoder, Contract, HDNodeWallet, parseEther, parseUnits, Wallet } from 'ethers';
import { devAccount } from '../../src/devnet/accounts';
import { balancerAbi } from '../../src/devnet/artifacts';
import { Devnet, DevnetPool, tokenBySymbol } from '../../src/devnet/devnet';
import { ensureDevnet } from '../../src/devnet/ensure';
import { LocalChain, startInProcessChain } from '../../src/devnet/localChain';
import { encodeRelayerOrder, type RoutePool } from '../../src/routing/v2/relayer/encodeRelayerOrder';
import type { RelayerRoute, RouteAction, RouteStep } from '../../src/routing/v2/relayer/relayerRoute';
import type { SorOrderResponse } from '../../src/routing/types';

/**
 * Hand-assembled relayer routes, encoded by the service's encoder and sent to the real
 * BatchRelayer on the devnet from a fresh wallet that has done nothing but the approvals the
 * encoder lists. What each step should give is asked of BalancerQueries beforehand (every route
 * here touches each pool once, so the per-step queries see the state the transaction meets); the
 * transaction must deliver exactly that, and a limit one wei tighter must revert.
 */

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
];
const ZERO = '0x0000000000000000000000000000000000000000';
const coder = AbiCoder.defaultAbiCoder();

let chain: LocalChain;
let devnet: Devnet;
let snapshot: string;

beforeAll(async () => {
  chain = startInProcessChain();
  devnet = (await ensureDevnet(chain.provider)).devnet;
}, 120_000);

afterAll(async () => {
  await chain?.close();
});

beforeEach(async () => {
  snapshot = await chain.snapshot();
});

afterEach(async () => {
  await chain.revert(snapshot);
});

function pool(name: string): DevnetPool {
  const p = devnet.pools.find((x) => x.name === name);
  if (!p) throw new Error(`no devnet pool ${name}`);
  return p;
}

function token(symbol: string): string {
  return tokenBySymbol(devnet, symbol).address;
}

function routePool(poolId: string): RoutePool | undefined {
  const p = devnet.pools.find((x) => x.id === poolId);
  return (
    p && { poolType: p.kind === 'weighted' ? 'Weighted' : 'ComposableStable', address: p.address, tokens: p.tokens }
  );
}

/** A wallet with ETH and `funds` of one token, and no approval of any kind. */
async function freshWallet(funds?: { symbol: string; amount: bigint }): Promise<HDNodeWallet> {
  const wallet = Wallet.createRandom().connect(chain.provider);
  const rich = devAccount(1, chain.provider);
  await (await rich.sendTransaction({ to: wallet.address, value: parseEther('50') })).wait();
  if (funds) {
    const t = new Contract(token(funds.symbol), ERC20, rich);
    await (await t.getFunction('transfer')(wallet.address, funds.amount)).wait();
  }
  return wallet;
}

const queries = () => new Contract(devnet.addresses.balancerQueries, balancerAbi('BalancerQueries'), chain.provider);

interface Leg {
  readonly action: RouteAction;
  readonly pool: DevnetPool;
  readonly tokenIn: string;
  readonly tokenOut: string;
}

/** What BalancerQueries says each leg gives, feeding each result to the next leg. */
async function queryLegs(legs: readonly Leg[], amountIn: bigint, account: string): Promise<bigint[]> {
  const out: bigint[] = [];
  let amount = amountIn;
  const q = queries();
  const funds = { sender: account, fromInternalBalance: false, recipient: account, toInternalBalance: false };
  for (const leg of legs) {
    if (leg.action === 'swap') {
      const deltas = (await q
        .getFunction('queryBatchSwap')
        .staticCall(
          0,
          [{ poolId: leg.pool.id, assetInIndex: 0, assetOutIndex: 1, amount, userData: '0x' }],
          [leg.tokenIn, leg.tokenOut],
          funds,
        )) as bigint[];
      amount = -deltas[1]!;
    } else if (leg.action === 'join') {
      const amounts = leg.pool.tokens
        .filter((t) => leg.pool.kind === 'weighted' || t !== leg.pool.address)
        .map((t) => (t === leg.tokenIn ? amount : 0n));
      const userData = coder.encode(['uint256', 'uint256[]', 'uint256'], [1, amounts, 0]);
      const maxIn = leg.pool.tokens.map((t) => (t === leg.tokenIn ? amount : 0n));
      const [bptOut] = (await q.getFunction('queryJoin').staticCall(leg.pool.id, account, account, {
        assets: leg.pool.tokens,
        maxAmountsIn: maxIn,
        userData,
        fromInternalBalance: false,
      })) as [bigint];
      amount = bptOut;
    } else {
      const counted = leg.pool.tokens.filter((t) => leg.pool.kind === 'weighted' || t !== leg.pool.address);
      const userData = coder.encode(['uint256', 'uint256', 'uint256'], [0, amount, counted.indexOf(leg.tokenOut)]);
      const [, amountsOut] = (await q.getFunction('queryExit').staticCall(leg.pool.id, account, account, {
        assets: leg.pool.tokens,
        minAmountsOut: leg.pool.tokens.map(() => 0n),
        userData,
        toInternalBalance: false,
      })) as [bigint, bigint[]];
      amount = amountsOut[leg.pool.tokens.indexOf(leg.tokenOut)]!;
    }
    out.push(amount);
  }
  return out;
}

function routeOf(
  legs: readonly Leg[],
  amountIn: bigint,
  outs: readonly bigint[],
  native: { in?: boolean; out?: boolean } = {},
): RelayerRoute {
  const steps: RouteStep[] = legs.map((l, k) => ({
    action: l.action,
    poolId: l.pool.id,
    tokenIn: l.tokenIn,
    tokenOut: l.tokenOut,
    amountOut: outs[k]!,
  }));
  return {
    tokenIn: legs[0]!.tokenIn,
    tokenOut: legs.at(-1)!.tokenOut,
    nativeIn: native.in ?? false,
    nativeOut: native.out ?? false,
    paths: [{ amountIn, steps }],
    returnAmount: outs.at(-1)!,
  };
}

function order(
  route: RelayerRoute,
  wallet: HDNodeWallet,
  amountIn: bigint,
  extra: { slippage?: string; deadline?: number; receiver?: string } = {},
): SorOrderResponse {
  return encodeRelayerOrder({
    route,
    pool: routePool,
    amount: amountIn,
    sender: wallet.address,
    receiver: extra.receiver ?? wallet.address,
    slippage: extra.slippage ?? '0',
    deadline: extra.deadline ?? 4_000_000_000,
    vault: devnet.addresses.vault,
    relayer: devnet.addresses.batchRelayer,
    marketSp: '0',
  });
}

async function approveAsListed(wallet: HDNodeWallet, o: SorOrderResponse): Promise<void> {
  for (const a of o.approvals) {
    const receipt = await (await wallet.sendTransaction({ to: a.to, data: a.data })).wait();
    expect(receipt?.status).toBe(1);
  }
}

async function balance(address: string, holder: string): Promise<bigint> {
  if (address === ZERO) return chain.provider.getBalance(holder);
  return (await new Contract(address, ERC20, chain.provider).getFunction('balanceOf')(holder)) as bigint;
}

async function revertReason(wallet: HDNodeWallet, o: SorOrderResponse): Promise<string | undefined> {
  try {
    await chain.provider.call({ from: wallet.address, to: o.to, data: o.data, value: BigInt(o.value) });
    return undefined;
  } catch (e) {
    const err = e as { reason?: string; shortMessage?: string; message: string };
    return err.reason ?? err.shortMessage ?? err.message;
  }
}

/** Sends the order and measures what the wallet paid and the receiver got (gas excluded). */
async function send(wallet: HDNodeWallet, o: SorOrderResponse, pay: string, get: string, receiver = wallet.address) {
  const [payBefore, getBefore] = [await balance(pay, wallet.address), await balance(get, receiver)];
  const receipt = await (await wallet.sendTransaction({ to: o.to, data: o.data, value: BigInt(o.value) })).wait();
  expect(receipt?.status).toBe(1);
  const gas = receipt!.gasUsed * receipt!.gasPrice;
  const paid = payBefore - (await balance(pay, wallet.address)) - (pay === ZERO ? gas : 0n);
  const got = (await balance(get, receiver)) - getBefore + (get === ZERO && receiver === wallet.address ? gas : 0n);
  return { paid, got };
}

describe('relayer multicalls built by the encoder execute exactly as BalancerQueries forecast', () => {
  test('DAI -> swap to WETH -> join WETH/USDC, then that BPT -> exit to WETH -> swap to USDC -> swap to USDT', async () => {
    const weightedWethUsdc = pool('WETH-USDC 50/50');
    const bpt = weightedWethUsdc.address;
    const daiIn = parseUnits('2500', 18);
    const wallet = await freshWallet({ symbol: 'DAI', amount: daiIn });

    const joinLegs: Leg[] = [
      { action: 'swap', pool: pool('DAI-WETH 50/50'), tokenIn: token('DAI'), tokenOut: token('WETH') },
      { action: 'join', pool: weightedWethUsdc, tokenIn: token('WETH'), tokenOut: bpt },
    ];
    const joinOuts = await queryLegs(joinLegs, daiIn, wallet.address);
    const tight = order(routeOf(joinLegs, daiIn, [joinOuts[0]!, joinOuts[1]! + 1n]), wallet, daiIn);
    const join = order(routeOf(joinLegs, daiIn, joinOuts), wallet, daiIn);
    expect(join.to.toLowerCase()).toBe(devnet.addresses.batchRelayer);
    expect(join.approvals.map((a) => a.kind)).toEqual(['relayer', 'erc20']);
    expect(join.approvals[1]).toMatchObject({
      token: expect.stringMatching(new RegExp(token('DAI'), 'i')),
      amount: daiIn.toString(),
    });
    // Before the approvals the relayer may not act for the wallet.
    expect(await revertReason(wallet, join)).toBeDefined();
    await approveAsListed(wallet, join);
    expect(await revertReason(wallet, tight)).toMatch(/BAL#208/); // BPT_OUT_MIN_AMOUNT
    const joined = await send(wallet, join, token('DAI'), bpt);
    expect(joined).toEqual({ paid: daiIn, got: joinOuts[1] });

    const exitLegs: Leg[] = [
      { action: 'exit', pool: weightedWethUsdc, tokenIn: bpt, tokenOut: token('WETH') },
      { action: 'swap', pool: pool('WETH-USDC 80/20'), tokenIn: token('WETH'), tokenOut: token('USDC') },
      { action: 'swap', pool: pool('DAI-USDC-USDT stable'), tokenIn: token('USDC'), tokenOut: token('USDT') },
    ];
    const bptIn = joined.got;
    const exitOuts = await queryLegs(exitLegs, bptIn, wallet.address);
    const exit = order(routeOf(exitLegs, bptIn, exitOuts), wallet, bptIn);
    // An exit burns the sender's BPT itself: only the relayer approval is needed, and it is in place.
    expect(exit.approvals.map((a) => a.kind)).toEqual(['relayer']);
    expect(
      await revertReason(
        wallet,
        order(routeOf(exitLegs, bptIn, [...exitOuts.slice(0, 2), exitOuts[2]! + 1n]), wallet, bptIn),
      ),
    ).toMatch(/BAL#507/); // SWAP_LIMIT
    expect(await send(wallet, exit, bpt, token('USDT'))).toEqual({ paid: bptIn, got: exitOuts[2] });
  });

  test('native ETH joins, and an exit pays native ETH to another receiver; slippage sets the minimum', async () => {
    const p = pool('WETH-USDC 80/20');
    const wallet = await freshWallet();
    const ethIn = parseEther('1.5');
    const joinLegs: Leg[] = [{ action: 'join', pool: p, tokenIn: token('WETH'), tokenOut: p.address }];
    const [bptOut] = await queryLegs(joinLegs, ethIn, wallet.address);
    const join = order(routeOf(joinLegs, ethIn, [bptOut!], { in: true }), wallet, ethIn, { slippage: '0.01' });
    expect(join.value).toBe(ethIn.toString());
    expect(join.minBuyAmount).toBe(((bptOut! * 99n) / 100n).toString());
    expect(join.approvals.map((a) => a.kind)).toEqual(['relayer']);
    await approveAsListed(wallet, join);
    expect(await send(wallet, join, ZERO, p.address)).toEqual({ paid: ethIn, got: bptOut });

    const receiver = Wallet.createRandom().address;
    const exitLegs: Leg[] = [{ action: 'exit', pool: p, tokenIn: p.address, tokenOut: token('WETH') }];
    const [ethOut] = await queryLegs(exitLegs, bptOut!, wallet.address);
    const exit = order(routeOf(exitLegs, bptOut!, [ethOut!], { out: true }), wallet, bptOut!, { receiver });
    expect(exit.value).toBe('0');
    expect(await send(wallet, exit, p.address, ZERO, receiver)).toEqual({ paid: bptOut, got: ethOut });
    expect(await balance(token('WETH'), receiver)).toBe(0n);
  });

  test('composable stable pools: swap into USDC -> join, then exit to DAI (their userData leaves out the BPT)', async () => {
    const stable = pool('DAI-USDC-USDT stable');
    const wethIn = parseEther('2');
    const wallet = await freshWallet({ symbol: 'WETH', amount: wethIn });
    const joinLegs: Leg[] = [
      { action: 'swap', pool: pool('WETH-USDC 50/50'), tokenIn: token('WETH'), tokenOut: token('USDC') },
      { action: 'join', pool: stable, tokenIn: token('USDC'), tokenOut: stable.address },
    ];
    const joinOuts = await queryLegs(joinLegs, wethIn, wallet.address);
    const join = order(routeOf(joinLegs, wethIn, joinOuts), wallet, wethIn);
    await approveAsListed(wallet, join);
    const joined = await send(wallet, join, token('WETH'), stable.address);
    expect(joined).toEqual({ paid: wethIn, got: joinOuts[1] });

    const exitLegs: Leg[] = [{ action: 'exit', pool: stable, tokenIn: stable.address, tokenOut: token('DAI') }];
    const exitOuts = await queryLegs(exitLegs, joined.got, wallet.address);
    expect(
      await send(
        wallet,
        order(routeOf(exitLegs, joined.got, exitOuts), wallet, joined.got),
        stable.address,
        token('DAI'),
      ),
    ).toEqual({ paid: joined.got, got: exitOuts[0] });
  });

  test('a route without swaps (one join) still honours the deadline, through an empty batchSwap', async () => {
    const p = pool('WETH-USDC 50/50');
    const wethIn = parseEther('1');
    const wallet = await freshWallet({ symbol: 'WETH', amount: wethIn });
    const legs: Leg[] = [{ action: 'join', pool: p, tokenIn: token('WETH'), tokenOut: p.address }];
    const [bptOut] = await queryLegs(legs, wethIn, wallet.address);
    const now = (await chain.provider.getBlock('latest'))!.timestamp;
    const join = order(routeOf(legs, wethIn, [bptOut!]), wallet, wethIn, { deadline: now + 100 });
    await approveAsListed(wallet, join);
    expect(await revertReason(wallet, join)).toBeUndefined();
    await chain.provider.send('evm_increaseTime', [200]);
    await chain.provider.send('evm_mine', []);
    expect(await revertReason(wallet, join)).toMatch(/BAL#508/); // SWAP_DEADLINE
  });

  test('the ERC-20 approval the encoder lists is exactly what the Vault pulls', async () => {
    const daiIn = parseUnits('1000', 18);
    const wallet = await freshWallet({ symbol: 'DAI', amount: daiIn });
    const legs: Leg[] = [
      { action: 'swap', pool: pool('DAI-WETH 50/50'), tokenIn: token('DAI'), tokenOut: token('WETH') },
      {
        action: 'join',
        pool: pool('WBTC-WETH 50/50'),
        tokenIn: token('WETH'),
        tokenOut: pool('WBTC-WETH 50/50').address,
      },
    ];
    const outs = await queryLegs(legs, daiIn, wallet.address);
    const o = order(routeOf(legs, daiIn, outs), wallet, daiIn);
    await approveAsListed(wallet, o);
    await send(wallet, o, token('DAI'), pool('WBTC-WETH 50/50').address);
    const dai = new Contract(token('DAI'), ERC20, chain.provider);
    expect(await dai.getFunction('allowance')(wallet.address, devnet.addresses.vault)).toBe(0n);
  });
});
