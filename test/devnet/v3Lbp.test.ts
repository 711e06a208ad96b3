import { Contract, isError, parseUnits, ZeroAddress, type Signer } from 'ethers';
import { applyChainState } from '../../src/domain/chainState';
import { stateAt } from '../../src/domain/chainTime';
import { normalizePool } from '../../src/domain/normalizePool';
import type { StoredPool } from '../../src/domain/pool';
import { v3PoolOf } from '../../src/domain/poolTypes/v3PoolOf';
import { vaultSwap } from '../../src/domain/protocols/v3/vault/swap';
import { devAccount, traderAccounts } from '../../src/devnet/accounts';
import { deployDevnet } from '../../src/devnet/deploy';
import { tokenBySymbol, type Devnet, type DevnetV3Pool } from '../../src/devnet/devnet';
import { startInProcessChain, type LocalChain } from '../../src/devnet/localChain';
import { v3Abi } from '../../src/devnet/v3/artifacts';
import { compileBalancerV3, type V3Contracts } from '../../src/devnet/v3/compile';
import { approveThroughPermit2 } from '../../src/devnet/v3/permit2';
import { V3_LBPS } from '../../src/devnet/v3/universe';
import { readPoolStates, V3_VAULT_READS, type ChainTransport } from '../../src/sources/chainState/chainStateReader';
import type { RpcOutcome } from '../../src/sources/rpc/jsonRpc';

/**
 * The devnet's V3 token sales against the service's LBP types: the pool read through the head
 * follower's chain reads at a block and priced at a timestamp gives exactly what the Router's query
 * answers at that block and what a real swap in a block at that timestamp pays, while the weighted
 * sale's weights move from block to block.
 */
let chain: LocalChain;
let devnet: Devnet;
let contracts: V3Contracts;
let trader: Signer;

beforeAll(async () => {
  contracts = await compileBalancerV3();
  chain = startInProcessChain();
  devnet = await deployDevnet(devAccount(0, chain.provider), {
    traders: traderAccounts(chain.provider),
    v3: { contracts },
  });
  trader = traderAccounts(chain.provider)[0]!;
}, 900_000);

afterAll(async () => {
  await chain?.close();
});

const transport: ChainTransport = (calls) =>
  Promise.all(
    calls.map(async (c): Promise<RpcOutcome> => {
      try {
        return { ok: true, result: await chain.provider.send(c.method, [...c.params]) };
      } catch (e) {
        if (isError(e, 'CALL_EXCEPTION')) return { ok: false, error: 'execution reverted', code: 3 };
        return { ok: false, error: String((e as Error).message) };
      }
    }),
  );

const sale = (kind: DevnetV3Pool['kind']) => devnet.v3.pools.find((p) => p.kind === kind)!;

/** The sale as a bare catalogue entry (type and tokens): everything else comes from the chain. */
function catalogued(p: DevnetV3Pool): StoredPool {
  const tokens = p.tokens.map((address, index) => {
    const t = [...devnet.tokens, ...devnet.v3.tokens].find((x) => x.address === address)!;
    return { address, index, symbol: t.symbol, decimals: t.decimals, balance: '0', paysYieldFees: false };
  });
  const normalized = normalizePool({
    protocolVersion: 3,
    address: p.address,
    poolType: p.kind === 'lbp' ? 'LBP' : 'FixedLBP',
    poolTypeVersion: 1,
    swapFee: '0',
    totalShares: '0',
    tokens,
  });
  if (!normalized.ok) throw new Error(normalized.error);
  return normalized.pool as StoredPool;
}

/** The sale as the head follower stores it at block `n` (the catalogue entry with the chain's reads). */
async function read(p: DevnetV3Pool, n: number, timestamp: number): Promise<StoredPool> {
  const pool = catalogued(p);
  const s = (await readPoolStates(transport, devnet.v3.addresses.vault, [pool], n, undefined, V3_VAULT_READS)).get(
    pool.id,
  )!;
  return applyChainState(pool, stateAt(s, timestamp));
}

/** The sale as the head follower serves it at block `n`, priced for a block at `timestamp`. */
async function served(p: DevnetV3Pool, n: number, timestamp: number) {
  return v3PoolOf(await read(p, n, timestamp), BigInt(timestamp))!;
}

async function mineAt(timestamp: number): Promise<number> {
  await chain.provider.send('evm_setNextBlockTimestamp', [timestamp]);
  await chain.provider.send('evm_mine', []);
  return (await chain.provider.getBlockNumber()) as number;
}

async function routerQuery(p: DevnetV3Pool, tokenIn: string, tokenOut: string, amount: bigint, block: number) {
  const router = new Contract(devnet.v3.addresses.router, v3Abi(contracts, 'Router'), chain.provider);
  return (await router
    .getFunction('querySwapSingleTokenExactIn')
    .staticCall(p.address, tokenIn, tokenOut, amount, ZeroAddress, '0x', {
      from: ZeroAddress,
      blockTag: block,
    })) as bigint;
}

const ERC20 = ['function balanceOf(address) view returns (uint256)'];
const balanceOf = async (token: string, holder: string) =>
  (await new Contract(token, ERC20, chain.provider).getFunction('balanceOf')(holder)) as bigint;

/** A swap mined in a block at `timestamp`: what the trader received. */
async function swapAt(p: DevnetV3Pool, tokenIn: string, tokenOut: string, amount: bigint, timestamp: number) {
  const router = new Contract(devnet.v3.addresses.router, v3Abi(contracts, 'Router'), trader);
  const me = await trader.getAddress();
  await approveThroughPermit2(trader, devnet.v3.addresses.permit2, tokenIn, devnet.v3.addresses.router);
  const before = await balanceOf(tokenOut, me);
  await chain.provider.send('evm_setNextBlockTimestamp', [timestamp]);
  await (
    await router.getFunction('swapSingleTokenExactIn')(p.address, tokenIn, tokenOut, amount, 0n, 2n ** 63n, false, '0x')
  ).wait();
  return (await balanceOf(tokenOut, me)) - before;
}

test('the devnet runs both sales of the V3 universe, open now', async () => {
  expect(devnet.v3.pools.filter((p) => p.kind === 'lbp' || p.kind === 'fixedPriceLbp').map((p) => p.name)).toEqual(
    V3_LBPS.map((s) => s.name),
  );
  const head = (await chain.provider.getBlock('latest'))!;
  for (const p of [sale('lbp'), sale('fixedPriceLbp')]) {
    // The window is the pool's own, read at the head (the catalogue entry above has none).
    const start = Number((await read(p, head.number, head.timestamp)).v3!.typeParams!.startTime);
    expect([p.name, head.timestamp >= start]).toEqual([p.name, true]);
  }
});

test('the LBP quote at a block equals the Router query and the real swap, and its weights move between blocks', async () => {
  const p = sale('lbp');
  const usdc = tokenBySymbol(devnet, 'USDC').address;
  const link = tokenBySymbol(devnet, 'LINK').address;
  const amount = parseUnits('2500', 6);
  const buy = { kind: 'exactIn', tokenIn: usdc, tokenOut: link, amountGivenRaw: amount } as const;

  const t0 = (await chain.provider.getBlock('latest'))!.timestamp + 3_600;
  const n0 = await mineAt(t0);
  const ours0 = vaultSwap(await served(p, n0, t0), buy).amountCalculatedRaw;
  expect(ours0).toBe(await routerQuery(p, usdc, link, amount, n0));

  // A day later the project token's weight is lower: the same USDC buys more LINK.
  const t1 = t0 + 86_400;
  const ours1 = vaultSwap(await served(p, n0, t1), buy).amountCalculatedRaw;
  expect(ours1).toBeGreaterThan(ours0);
  expect(await swapAt(p, usdc, link, amount, t1)).toBe(ours1);
});

test('the LBP sells back at the quote too (its sale is not buy-only)', async () => {
  const p = sale('lbp');
  const usdc = tokenBySymbol(devnet, 'USDC').address;
  const link = tokenBySymbol(devnet, 'LINK').address;
  const amount = parseUnits('40', 18);
  const t = (await chain.provider.getBlock('latest'))!.timestamp + 600;
  const n = await mineAt(t);
  const sell = { kind: 'exactIn', tokenIn: link, tokenOut: usdc, amountGivenRaw: amount } as const;
  const ours = vaultSwap(await served(p, n, t + 12), sell).amountCalculatedRaw;
  expect(await swapAt(p, link, usdc, amount, t + 12)).toBe(ours);
});

test('the fixed-price sale pays its rate, as the Router query and the real swap', async () => {
  const p = sale('fixedPriceLbp');
  const dai = tokenBySymbol(devnet, 'DAI').address;
  const bal = tokenBySymbol(devnet, 'BAL').address;
  const amount = parseUnits('900', 18);
  const t = (await chain.provider.getBlock('latest'))!.timestamp + 60;
  const n = await mineAt(t);
  const buy = { kind: 'exactIn', tokenIn: dai, tokenOut: bal, amountGivenRaw: amount } as const;
  const ours = vaultSwap(await served(p, n, t), buy).amountCalculatedRaw;
  // 900 DAI less the 1 % fee, at 4.5 DAI per BAL.
  expect(ours).toBe(parseUnits('198', 18));
  expect(await routerQuery(p, dai, bal, amount, n)).toBe(ours);
  expect(await swapAt(p, dai, bal, amount, t + 5)).toBe(ours);
});
