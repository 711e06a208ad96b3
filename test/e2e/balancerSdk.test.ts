import {
  AddLiquidity,
  BalancerApi,
  AddLiquidityKind,
  type Path,
  type PoolState,
  RemoveLiquidity,
  RemoveLiquidityKind,
  Slippage,
  Swap,
  SwapKind,
  Token,
  TokenAmount,
  type ExactInQueryOutput,
  type ExactOutQueryOutput,
} from '@balancer/sdk';
import { Contract, formatUnits, HDNodeWallet, MaxUint256, parseUnits } from 'ethers';
import { DEVNET_CHAIN_ID, tokenBySymbol } from '../../src/devnet/devnet';
import { approveThroughPermit2 } from '../../src/devnet/v3/permit2';
import { registerDevnetWithBalancerSdk, SDK_DEVNET_CHAIN } from './helpers/balancerSdk';
import { E2eEnvironment, startE2eEnvironment, trader } from './helpers/e2eEnvironment';
import { caughtUp, ERC20, poolTokens, reached, tokenBalance } from './helpers/follow';
import { approveVault, executeOrder, OrderSpec, postJson } from './helpers/orders';
import { seededRandom } from './helpers/randomOrders';
import { thirdPartyV3Trade, v3PoolsFollowed } from './helpers/v3Chain';

/**
 * Balancer's SDK (`@balancer/sdk` 6.x, unmodified) against the service on the devnet, as a user of
 * the current Balancer API runs it, with the devnet registered as a chain the SDK does not know
 * (helpers/balancerSdk.ts). `BalancerApi.sorSwapPaths` (the service's sorGetSwapPaths) -> `new
 * Swap` -> `swap.query` (the routers' and BalancerQueries' own eth_calls, without `from`, at the
 * block the service answered at) must equal the service's amounts, and `buildCall` at slippage 0,
 * sent after the approvals the SDK's flow needs (the Vault for V2, Permit2 for V3), must pay and
 * receive them to the wei. Orders are drawn over V2, V3 and the better of both, exact in and out,
 * through buffers and with native ETH. Then one add-liquidity and one remove-liquidity flow per
 * Vault through the SDK's entities, on pool state from the service's poolGetPool. E2E_SEED draws
 * other orders.
 */
const SEED = Number(process.env.E2E_SEED ?? 5);
const random = seededRandom(SEED);
const ORDER_COUNT = 14;

/**
 * [sell, buy, protocol version asked for (undefined: the better of both), size]; ETH is native. A
 * large V3 stable trade splits between the stable pool and the boosted pool's buffer path.
 */
const PAIRS: readonly (readonly [string, string, 2 | 3 | undefined, Size?])[] = [
  ['BAL', 'WETH', 2],
  ['WETH', 'USDC', undefined],
  ['waUSDC', 'waUSDT', 3],
  ['WBTC', 'USDT', 2],
  ['USDC', 'waUSDT', 3],
  ['ETH', 'USDC', 3],
  ['USDC', 'USDT', undefined],
  ['DAI', 'ETH', 2],
  ['USDT', 'ETH', 3],
  ['ETH', 'BAL', 2],
  ['USDC', 'WETH', 3],
  ['USDT', 'USDC', 3, 'large'],
  ['USDC', 'ETH', undefined],
  ['waUSDT', 'USDC', 3],
];
const V3_POOL_TOKEN_INFO = [
  'function getPoolTokenInfo(address pool) view returns (address[] tokens, (uint8,address,bool)[] tokenInfo, uint256[] balancesRaw, uint256[] lastBalancesLiveScaled18)',
];
const PRICE_USD: Readonly<Record<string, number>> = { WETH: 3000, ETH: 3000, WBTC: 60_000, BAL: 5, LINK: 15 };

interface Outcome {
  readonly name: string;
  readonly exact: boolean;
  readonly detail: string;
  readonly protocolVersion?: number;
  readonly batch?: boolean;
  readonly buffer?: boolean;
  readonly paths?: number;
}

let env: E2eEnvironment;
let rpcUrl: string;
let user: HDNodeWallet;
let third: HDNodeWallet;
const outcomes: Outcome[] = [];
const started = Date.now();

const symbolOf = (s: string) => (s === 'ETH' ? 'WETH' : s);
const decimalsOf = (s: string) => tokenBySymbol(env.devnet, symbolOf(s)).decimals;

type Size = 'any' | 'large';
/** log10 of the USD sizes drawn: $5..$15,000 or $25,000..$100,000. */
const SIZES: Readonly<Record<Size, readonly [number, number]>> = { any: [0.7, 4.2], large: [4.4, 5] };

/** About a size's USD of `symbol`, cut to its decimals, with a random tail. */
function drawAmount(symbol: string, size: Size = 'any'): string {
  const [low, high] = SIZES[size];
  const usd = 10 ** (low + random() * (high - low));
  const decimals = decimalsOf(symbol);
  const units = (usd / (PRICE_USD[symbol] ?? 1)) * 10 ** Math.min(decimals, 12);
  const raw = BigInt(Math.max(1, Math.floor(units))) * 10n ** BigInt(Math.max(0, decimals - 12));
  return formatUnits(raw + BigInt(Math.floor(random() * 997)), decimals);
}

/**
 * The service's answer through the SDK's own call (`fetchSorSwapPaths`), and the block it was
 * read at: the same question asked once more for `blockNumber`, a field the SDK does not ask for
 * (nothing is mined between the two, so both are read at one state; the suite checks they agree).
 */
async function servicePaths(spec: OrderSpec, version: 2 | 3 | undefined): Promise<{ paths: Path[]; block: number }> {
  const [tokenIn, tokenOut] = [spec.sell, spec.buy].map((s) => tokenBySymbol(env.devnet, symbolOf(s)).address);
  const fixed = spec.kind === 'sell' ? spec.sell : spec.buy;
  const swapAmount = TokenAmount.fromHumanAmount(
    new Token(SDK_DEVNET_CHAIN, (spec.kind === 'sell' ? tokenIn : tokenOut) as `0x${string}`, decimalsOf(fixed)),
    spec.amount as `${number}`,
  );
  const swapKind = spec.kind === 'sell' ? SwapKind.GivenIn : SwapKind.GivenOut;
  const paths = await new BalancerApi(`${env.apiUrl}/graphql`, SDK_DEVNET_CHAIN).sorSwapPaths.fetchSorSwapPaths({
    chainId: SDK_DEVNET_CHAIN,
    tokenIn: tokenIn as `0x${string}`,
    tokenOut: tokenOut as `0x${string}`,
    swapKind,
    swapAmount,
    ...(version === undefined ? {} : { useProtocolVersion: version }),
  });
  const res = await postJson<{ data?: { sorGetSwapPaths: { blockNumber: number; paths: Path[] } }; errors?: unknown }>(
    `${env.apiUrl}/graphql`,
    {
      query: `query($chain: GqlChain!, $tokenIn: String!, $tokenOut: String!, $swapType: GqlSorSwapType!, $swapAmount: AmountHumanReadable!, $useProtocolVersion: Int) {
        sorGetSwapPaths(chain: $chain, tokenIn: $tokenIn, tokenOut: $tokenOut, swapType: $swapType, swapAmount: $swapAmount,
          useProtocolVersion: $useProtocolVersion, considerPoolsWithHooks: true) { blockNumber paths { inputAmountRaw outputAmountRaw } }
      }`,
      variables: {
        chain: 'HARDHAT',
        tokenIn,
        tokenOut,
        swapType: spec.kind === 'sell' ? 'EXACT_IN' : 'EXACT_OUT',
        swapAmount: spec.amount,
        useProtocolVersion: version ?? null,
      },
    },
  );
  expect(res.body.errors).toBeUndefined();
  const answer = res.body.data!.sorGetSwapPaths;
  const amounts = (ps: readonly Pick<Path, 'inputAmountRaw' | 'outputAmountRaw'>[]) =>
    ps.map((p) => `${p.inputAmountRaw}>${p.outputAmountRaw}`);
  expect(amounts(answer.paths)).toEqual(amounts(paths));
  return { paths, block: answer.blockNumber };
}

/** One order through the SDK: query at the service's block, then buildCall at slippage 0 and send. */
async function sdkOrder(spec: OrderSpec, version: 2 | 3 | undefined): Promise<Outcome> {
  const name = `${spec.kind} ${spec.amount} ${spec.kind === 'sell' ? spec.sell : spec.buy} (${spec.sell} -> ${spec.buy}, ${version === undefined ? 'better of both' : `V${version}`})`;
  const { paths, block } = await servicePaths(spec, version);
  if (paths.length === 0) return { name, exact: false, detail: 'no paths' };
  const swapKind = spec.kind === 'sell' ? SwapKind.GivenIn : SwapKind.GivenOut;
  const swap = new Swap({ chainId: DEVNET_CHAIN_ID, paths, swapKind });
  const served = swap.quote.amount;
  const queried = await swap.query(rpcUrl, BigInt(block));
  const onChain =
    queried.swapKind === SwapKind.GivenIn
      ? (queried as ExactInQueryOutput).expectedAmountOut.amount
      : (queried as ExactOutQueryOutput).expectedAmountIn.amount;
  const shape = {
    protocolVersion: swap.protocolVersion,
    batch: swap.isBatchSwap,
    paths: paths.length,
    buffer: paths.some((p) => p.isBuffer?.some(Boolean) ?? false),
  };
  const where = `V${swap.protocolVersion}, ${paths.length} path(s), block ${block}`;
  if (onChain !== served)
    return { name, exact: false, detail: `query ${onChain} != service ${served} (${where})`, ...shape };
  const wethIsEth = spec.sell === 'ETH' || spec.buy === 'ETH';
  const slippage = Slippage.fromPercentage('0');
  const call =
    swap.protocolVersion === 2
      ? swap.buildCall({
          slippage,
          deadline: MaxUint256,
          queryOutput: queried,
          wethIsEth,
          sender: user.address as `0x${string}`,
          recipient: user.address as `0x${string}`,
        })
      : swap.buildCall({ slippage, deadline: MaxUint256, queryOutput: queried, wethIsEth });
  if (spec.sell !== 'ETH') {
    if (swap.protocolVersion === 2) await approveVault(env, user, spec.sell);
    else
      await approveThroughPermit2(
        user,
        env.devnet.v3.addresses.permit2,
        tokenBySymbol(env.devnet, spec.sell).address,
        call.to,
      );
  }
  const done = await executeOrder(env, user, spec, { to: call.to, data: call.callData, value: call.value.toString() });
  const [wantPaid, wantReceived] =
    spec.kind === 'sell'
      ? [parseUnits(spec.amount, decimalsOf(spec.sell)), onChain]
      : [onChain, parseUnits(spec.amount, decimalsOf(spec.buy))];
  return {
    name,
    exact: done.paid === wantPaid && done.received === wantReceived,
    detail: `paid ${done.paid} (want ${wantPaid}), received ${done.received} (want ${wantReceived}); ${where}`,
    ...shape,
  };
}

beforeAll(async () => {
  env = await startE2eEnvironment({ rpc: true, follow: true, v3: true });
  rpcUrl = env.chain.rpcUrl!;
  registerDevnetWithBalancerSdk(env.devnet, rpcUrl);
  user = trader(env, 3);
  third = trader(env, 4);
  await v3PoolsFollowed(env);
  await caughtUp(env);
}, 120_000);

afterAll(async () => {
  const exact = outcomes.filter((o) => o.exact).length;
  const lines = [
    `e2e Balancer SDK (seed ${SEED}, ${env?.description}): ${exact}/${outcomes.length} SDK flows exact to the wei in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    ...outcomes.map((o) => `  ${o.exact ? 'exact' : 'INEXACT'} ${o.name}: ${o.detail}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await env?.close();
});

test(`${ORDER_COUNT} random SDK swaps: swap.query equals the service's answer at its block, and buildCall at slippage 0 pays it`, async () => {
  const mine: Outcome[] = [];
  for (let n = 0; n < ORDER_COUNT; n++) {
    if (n % 3 === 1) await reached(env, (await thirdPartyV3Trade(env, third, random)).block);
    const [sell, buy, version, size] = PAIRS[n % PAIRS.length]!;
    const kind = random() < 0.5 ? ('sell' as const) : ('buy' as const);
    const spec: OrderSpec = { sell, buy, kind, amount: drawAmount(kind === 'sell' ? sell : buy, size) };
    const outcome = await sdkOrder(spec, version);
    await reached(env, await env.chain.provider.getBlockNumber());
    mine.push(outcome);
    outcomes.push({ ...outcome, name: `#${n + 1} ${outcome.name}` });
  }
  expect(mine.filter((o) => !o.exact).map((o) => `${o.name}: ${o.detail}`)).toEqual([]);
  // What the draw covered: both Vaults, batch routes and a split over V3 paths, a buffer.
  expect(new Set(mine.map((o) => o.protocolVersion))).toEqual(new Set([2, 3]));
  expect(mine.some((o) => o.batch)).toBe(true);
  expect(mine.some((o) => o.protocolVersion === 3 && (o.paths ?? 0) > 1)).toBe(true);
  expect(mine.some((o) => o.buffer)).toBe(true);
}, 150_000);

/**
 * A devnet pool's state as the SDK reads it from the service (`poolGetPool`), with balances; its
 * tokens must be the pool's on the chain, in the Vault's order, and its balances and total shares
 * the chain's at the head (nothing is mined while it is asked).
 */
async function servedPoolState(name: string): Promise<PoolState> {
  const v2 = env.devnet.pools.find((p) => p.name === name);
  const pool = v2 ?? env.devnet.v3.pools.find((p) => p.name === name)!;
  const api = new BalancerApi(`${env.apiUrl}/graphql`, SDK_DEVNET_CHAIN);
  const id = v2 ? v2.id : pool.address;
  const state = await api.pools.fetchPoolState(id);
  const withBalances = await api.pools.fetchPoolStateWithBalances(id);
  expect([state.protocolVersion, state.address.toLowerCase()]).toEqual([v2 ? 2 : 3, pool.address]);
  expect(state.tokens.map((t) => t.address.toLowerCase())).toEqual(pool.tokens);
  const balances = v2
    ? (await poolTokens(env, v2.id)).balances
    : (
        (await new Contract(env.devnet.v3.addresses.vault, V3_POOL_TOKEN_INFO, env.chain.provider).getFunction(
          'getPoolTokenInfo',
        )(pool.address)) as [unknown, unknown, bigint[]]
      )[2];
  expect(withBalances.tokens.map((t) => parseUnits(t.balance, t.decimals))).toEqual([...balances]);
  const totalSupply = (await new Contract(
    pool.address,
    ['function totalSupply() view returns (uint256)'],
    env.chain.provider,
  ).getFunction('totalSupply')()) as bigint;
  expect(parseUnits(withBalances.totalShares, 18)).toBe(totalSupply);
  return state;
}

/** What a transaction moved of each token for `account` (positive: received), gas aside. */
async function moved(tokens: readonly string[], send: () => Promise<unknown>): Promise<bigint[]> {
  const before = await Promise.all(tokens.map((t) => tokenBalance(env, t, user.address)));
  await send();
  const after = await Promise.all(tokens.map((t) => tokenBalance(env, t, user.address)));
  return after.map((a, i) => a - before[i]!);
}

async function sendCall(call: { to: string; callData: string; value: bigint }): Promise<void> {
  const receipt = await (await user.sendTransaction({ to: call.to, data: call.callData, value: call.value })).wait();
  expect(receipt?.status).toBe(1);
}

test.each(['WETH-USDC 50/50', 'V3 WETH-USDC 50/50'])(
  '%s: the SDK adds liquidity unbalanced, then removes half of it proportionally, each paying its query to the wei',
  async (name) => {
    await reached(env, await env.chain.provider.getBlockNumber());
    const state = await servedPoolState(name);
    const v3 = state.protocolVersion === 3;
    const sender = user.address as `0x${string}`;
    const slippage = Slippage.fromPercentage('0');
    const amountsIn = state.tokens.map((t) => ({
      address: t.address,
      decimals: t.decimals,
      rawAmount: parseUnits(
        drawAmount(t.address === tokenBySymbol(env.devnet, 'WETH').address ? 'WETH' : 'USDC'),
        t.decimals,
      ),
    }));
    const add = new AddLiquidity();
    const added = await add.query(
      { chainId: DEVNET_CHAIN_ID, rpcUrl, kind: AddLiquidityKind.Unbalanced, amountsIn },
      state,
    );
    const addCall = v3
      ? add.buildCall({ ...added, slippage, userData: '0x' })
      : add.buildCall({ ...added, slippage, sender, recipient: sender });
    for (const t of state.tokens)
      if (v3) await approveThroughPermit2(user, env.devnet.v3.addresses.permit2, t.address, addCall.to);
      else
        await (
          await new Contract(t.address, ERC20, user).getFunction('approve')(env.devnet.addresses.vault, MaxUint256)
        ).wait();
    const tokens = [state.address, ...state.tokens.map((t) => t.address)];
    const addMoved = await moved(tokens, () => sendCall(addCall));
    const bptOut = added.bptOut.amount;
    expect(bptOut).toBeGreaterThan(0n);
    expect(addCall.minBptOut.amount).toBe(bptOut);
    expect(addMoved).toEqual([bptOut, ...amountsIn.map((a) => -a.rawAmount)]);

    const remove = new RemoveLiquidity();
    const bptIn = { address: state.address, decimals: 18, rawAmount: bptOut / 2n };
    const removed = await remove.query(
      { chainId: DEVNET_CHAIN_ID, rpcUrl, kind: RemoveLiquidityKind.Proportional, bptIn },
      state,
    );
    const removeCall = v3
      ? remove.buildCall({ ...removed, slippage, userData: '0x' })
      : remove.buildCall({ ...removed, slippage, sender, recipient: sender });
    // A V3 router burns the BPT on the user's behalf: the pool token's own allowance, no Permit2.
    if (v3)
      await (await new Contract(state.address, ERC20, user).getFunction('approve')(removeCall.to, MaxUint256)).wait();
    const removeMoved = await moved(tokens, () => sendCall(removeCall));
    const amountsOut = removed.amountsOut.map((a) => a.amount);
    expect(amountsOut.every((a) => a > 0n)).toBe(true);
    expect(removeCall.minAmountsOut.map((a) => a.amount)).toEqual(amountsOut);
    expect(removeMoved).toEqual([-bptIn.rawAmount, ...amountsOut]);
    outcomes.push({
      name: `${name}: add and remove`,
      exact: true,
      detail: `BPT ${bptOut} for ${amountsIn.map((a) => a.rawAmount).join(' + ')}; ${bptIn.rawAmount} BPT for ${amountsOut.join(' + ')}`,
    });
  },
  60_000,
);
