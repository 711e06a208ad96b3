import { Contract, HDNodeWallet, parseEther, parseUnits, Wallet } from 'ethers';
import { tokenBySymbol, type DevnetPool } from '../../src/devnet/devnet';
import { SwapEngine } from '../../src/domain/swap/engine';
import { buildModels } from '../../src/domain/swap/models';
import type { PoolSpec } from '../../src/domain/swap/poolModel';
import { toBatchSwap } from '../../src/domain/swap/route';
import { encodeRelayerOrder } from '../../src/routing/v2/relayer/encodeRelayerOrder';
import { relayerRouteFromSwapInfo } from '../../src/routing/v2/relayer/relayerRoute';
import type { SerializedSwapInfo, SorOrderResponse } from '../../src/routing/types';
import {
  createPool,
  deployContract,
  fund,
  readWeightedSpec,
  startChainPools,
  taskArtifact,
  type ChainPools,
} from '../helpers/devnetPools';
import { deployConstantRateProvider, initStable, linkedArtifact, readStableSpec } from '../helpers/stableDevnet';

/**
 * Stable-family joins and exits through the devnet's BatchRelayer: legacy Stable (2021 v1, 2022
 * v2) and MetaStable pools (their BPT is not one of their tokens) are deployed beside the devnet,
 * the service's engine routes sells into and out of their BPT over them and the devnet's weighted
 * pools, and the order the relayer encoder builds from that route is sent from a fresh wallet that
 * did only the listed approvals. What arrives must be the engine's quote to the wei. (The library
 * is told PoolKind WEIGHTED for these pools too: for the two join/exit kinds used, its userData
 * rewrite is the same bytes, and V4 knows no other kind.)
 */

const ERC20 = [
  'function balanceOf(address) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
];

let env: ChainPools;
const specs: PoolSpec[] = [];
const stable: Record<string, { id: string; address: string }> = {};

beforeAll(async () => {
  env = await startChainPools();
  const { devnet } = env;
  const [dai, usdc, usdt, bal] = ['DAI', 'USDC', 'USDT', 'BAL'].map((s) => tokenBySymbol(devnet, s));
  for (const t of [dai!, usdc!, usdt!, bal!]) await fund(env, t.address, parseUnits('1000000000', t.decimals));
  const seed: Record<string, bigint> = {
    [dai!.address]: parseUnits('400000', 18),
    [usdc!.address]: parseUnits('250000', 6),
    [usdt!.address]: parseUnits('350000', 6),
    [bal!.address]: parseUnits('300000', 18),
  };
  const three = [dai!, usdc!, usdt!].map((t) => t.address).sort();
  const fee = parseUnits('0.0004', 18);

  const v1 = await deployContract(
    env.deployer,
    taskArtifact('deprecated/20210624-stable-pool/artifact/StablePoolFactory.json'),
    [devnet.addresses.vault],
  );
  stable.v1 = await createPool(v1, ['Stable v1 DAI-USDC-USDT', 'S1', three, 300n, fee, env.owner]);
  await initStable(env, stable.v1, (t) => seed[t]!);
  specs.push(await readStableSpec(env, stable.v1, 'Stable', 1));

  const v2 = await deployContract(
    env.deployer,
    taskArtifact('deprecated/20220609-stable-pool-v2/artifact/StablePoolFactory.json'),
    [devnet.addresses.vault],
  );
  stable.v2 = await createPool(v2, ['Stable v2 DAI-USDC-USDT', 'S2', three, 200n, fee, env.owner]);
  await initStable(env, stable.v2, (t) => seed[t]!);
  specs.push(await readStableSpec(env, stable.v2, 'Stable', 2));

  const rate = 1_250_000_000_000_000_000n;
  const provider = await deployConstantRateProvider(env, rate);
  const meta = await deployContract(
    env.deployer,
    await linkedArtifact(env, 'deprecated/20210727-meta-stable-pool/artifact/MetaStablePoolFactory.json', {
      QueryProcessor: 'deprecated/20210727-meta-stable-pool/artifact/QueryProcessor.json',
    }),
    [devnet.addresses.vault],
  );
  const pair = [dai!.address, bal!.address].sort();
  stable.meta = await createPool(meta, [
    'MetaStable BAL-DAI',
    'MS',
    pair,
    50n,
    pair.map((t) => (t === bal!.address ? provider : '0x0000000000000000000000000000000000000000')),
    pair.map(() => 0n),
    fee,
    false,
    env.owner,
  ]);
  await initStable(env, stable.meta, (t) => seed[t]!);
  specs.push(await readStableSpec(env, stable.meta, 'MetaStable', 1, { [bal!.address]: rate }));

  // The devnet's weighted pools, so routes can swap before a join or after an exit.
  for (const p of devnet.pools.filter((x: DevnetPool) => x.kind === 'weighted' && x.name !== 'BAL-DAI 60/40 (v1)'))
    specs.push(await readWeightedSpec(env, p, 'Weighted', 2));
}, 180_000);

afterAll(async () => {
  await env?.close();
});

function engine(): SwapEngine {
  const built = buildModels(specs, { timestamp: Math.floor(Date.now() / 1000) });
  return new SwapEngine(built.models, undefined, { joinExit: true });
}

/** The engine's route in the /sor wire shape, as EngineRouter marks relayer routes. */
function quote(e: SwapEngine, tokenIn: string, tokenOut: string, amount: bigint): SerializedSwapInfo {
  const route = e.route({ tokenIn, tokenOut, kind: 'sell', amount, gasPerSwap: () => 0n });
  if (!route) throw new Error(`no route ${tokenIn} -> ${tokenOut}`);
  const batch = toBatchSwap(route);
  const r = route.returnAmount.toString();
  return {
    tokenAddresses: [...batch.assets],
    swaps: batch.steps.map((s, k) => ({
      poolId: s.poolId,
      assetInIndex: s.assetInIndex,
      assetOutIndex: s.assetOutIndex,
      amount: s.amount.toString(),
      userData: '0x',
      ...(s.action ? { action: s.action } : {}),
      returnAmount: String(route.stepAmounts![k]),
    })),
    swapAmount: amount.toString(),
    swapAmountForSwaps: amount.toString(),
    returnAmount: r,
    returnAmountFromSwaps: r,
    returnAmountConsideringFees: r,
    tokenIn,
    tokenInForSwaps: tokenIn,
    tokenOut,
    tokenOutFromSwaps: tokenOut,
    marketSp: '1',
    relayerRequired: true,
  };
}

function poolOf(poolId: string) {
  const s = specs.find((x) => x.id.toLowerCase() === poolId);
  return (
    s && {
      poolType: s.poolType,
      address: s.address.toLowerCase(),
      tokens: s.tokens.map((t) => t.address.toLowerCase()),
    }
  );
}

async function freshWallet(token: string, amount: bigint): Promise<HDNodeWallet> {
  const wallet = Wallet.createRandom().connect(env.chain.provider);
  await (await env.deployer.sendTransaction({ to: wallet.address, value: parseEther('10') })).wait();
  await (await new Contract(token, ERC20, env.deployer).getFunction('transfer')(wallet.address, amount)).wait();
  return wallet;
}

const balance = async (token: string, who: string) =>
  (await new Contract(token, ERC20, env.chain.provider).getFunction('balanceOf')(who)) as bigint;

async function sendAsListed(wallet: HDNodeWallet, order: SorOrderResponse, tokenIn: string, tokenOut: string) {
  for (const a of order.approvals) await (await wallet.sendTransaction({ to: a.to, data: a.data })).wait();
  const [inBefore, outBefore] = [await balance(tokenIn, wallet.address), await balance(tokenOut, wallet.address)];
  const receipt = await (
    await wallet.sendTransaction({ to: order.to, data: order.data, value: BigInt(order.value) })
  ).wait();
  expect(receipt?.status).toBe(1);
  return {
    paid: inBefore - (await balance(tokenIn, wallet.address)),
    got: (await balance(tokenOut, wallet.address)) - outBefore,
  };
}

function order(info: SerializedSwapInfo, wallet: HDNodeWallet, amount: bigint): SorOrderResponse {
  return encodeRelayerOrder({
    route: relayerRouteFromSwapInfo(info, env.devnet.addresses.weth),
    pool: poolOf,
    amount,
    sender: wallet.address,
    receiver: wallet.address,
    slippage: '0',
    deadline: 4_000_000_000,
    vault: env.devnet.addresses.vault,
    relayer: env.devnet.addresses.batchRelayer,
    marketSp: '1',
  });
}

const CASES: readonly (readonly [string, string, 'in' | 'out', string, string])[] = [
  // [name, pool, BPT side, other token, human amount]
  ['WETH -> join Stable v1 (via a swap)', 'v1', 'out', 'WETH', '2'],
  ['USDT -> join Stable v2', 'v2', 'out', 'USDT', '15000'],
  ['BAL -> join MetaStable (rate 1.25)', 'meta', 'out', 'BAL', '700'],
  ['Stable v1 BPT -> exit to USDC', 'v1', 'in', 'USDC', '3000'],
  ['Stable v2 BPT -> exit -> WETH', 'v2', 'in', 'WETH', '9000'],
  ['MetaStable BPT -> exit to BAL', 'meta', 'in', 'BAL', '500'],
];

describe("legacy stable-family joins and exits through the relayer pay the engine's quote to the wei", () => {
  test.each(CASES)('%s', async (_name, key, side, symbol, human) => {
    const snap = await env.chain.snapshot();
    try {
      const pool = stable[key]!;
      const token = symbol === 'WETH' ? env.devnet.addresses.weth : tokenBySymbol(env.devnet, symbol).address;
      const decimals = symbol === 'WETH' ? 18 : tokenBySymbol(env.devnet, symbol).decimals;
      const [tokenIn, tokenOut] = side === 'out' ? [token, pool.address] : [pool.address, token];
      const amount = parseUnits(human, side === 'out' ? decimals : 18);
      if (symbol === 'WETH' && side === 'out') {
        const weth = new Contract(env.devnet.addresses.weth, ['function deposit() payable'], env.deployer);
        await (await weth.getFunction('deposit')({ value: amount })).wait();
      }
      const info = quote(engine(), tokenIn, tokenOut, amount);
      const actions = info.swaps.map((s) => s.action ?? 'swap');
      expect(actions).toContain(side === 'out' ? 'join' : 'exit');
      // WETH is in no stable pool: those routes must swap before the join or after the exit.
      if (symbol === 'WETH') expect(actions).toContain('swap');
      const wallet = await freshWallet(tokenIn, amount);
      const o = order(info, wallet, amount);
      expect(await sendAsListed(wallet, o, tokenIn, tokenOut)).toEqual({
        paid: amount,
        got: BigInt(info.returnAmount),
      });
    } finally {
      await env.chain.revert(snap);
    }
  });
});
