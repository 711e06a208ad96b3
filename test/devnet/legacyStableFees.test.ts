import { modelOfType } from '../helpers/typeModel';
import { Contract, parseUnits } from 'ethers';
import type { StableSpec } from '../../src/domain/poolTypes/stable/stableParams';
import { tokenBySymbol } from '../../src/devnet/devnet';
import { OnchainPoolReader } from '../../src/devnet/indexer/onchainPools';
import { toSubgraphPool } from '../../src/devnet/indexer/subgraphPools';
import { unitsToDecimal } from '../../src/domain/decimal';
import { normalizePool } from '../../src/domain/normalizePool';
import { type StableModel, type StableState } from '../../src/domain/poolTypes/stable/stableModel';
import { toRoutingPool, type RoutingPool } from '../../src/routing/v2/routingPools';
import {
  exit,
  fund,
  join,
  queryExit,
  queryJoin,
  setProtocolFees,
  startChainPools,
  swap,
  type ChainPools,
} from '../helpers/devnetPools';

/**
 * A legacy StablePool (the devnet's 2022 'USDC-USDT stable (v2)') with the protocol swap fee on:
 * it has no fee cache and mints no fee BPT; at a join or exit the Vault hands it the fees
 * collector's percentage and the pool pays the protocol's share of the swap fees since its last
 * join or exit (`getLastInvariant()`: invariant and amp) out of its largest balance, then prices
 * on the reduced balances. With the basis the head follower reads (chainStateReader.ts) the model
 * must answer as BalancerQueries, and a real join and exit must leave the balances, supply and
 * basis the model threads.
 */

const POOL = [
  'function getLastInvariant() view returns (uint256 lastInvariant, uint256 lastInvariantAmp)',
  'function totalSupply() view returns (uint256)',
];
const HALF = parseUnits('0.5', 18);

let env: ChainPools;

beforeAll(async () => {
  env = await startChainPools();
  for (const s of ['USDC', 'USDT']) {
    const t = tokenBySymbol(env.devnet, s);
    await fund(env, t.address, parseUnits('100000000', t.decimals));
  }
  await setProtocolFees(env, { swap: HALF, yield: HALF });
}, 240_000);

afterAll(async () => {
  await env?.close();
});

const model = (spec: StableSpec) => modelOfType(spec, { timestamp: 0 }) as StableModel;

/** The pool as the indexer stores it, with the fee basis laid over as the follower reads it. */
async function specWithBasis(id: string, address: string): Promise<StableSpec> {
  const read = (await new OnchainPoolReader(env.chain.provider, env.devnet.addresses).readAll()).find(
    (x) => x.id === id,
  )!;
  const normalized = normalizePool(toSubgraphPool(read, new Map()));
  if (!normalized.ok) throw new Error(normalized.error);
  const spec = (JSON.parse(JSON.stringify(toRoutingPool(normalized.pool))) as RoutingPool).spec;
  const [invariant, amp] = (await new Contract(address, POOL, env.chain.provider).getFunction(
    'getLastInvariant',
  )()) as [bigint, bigint];
  const collector = new Contract(
    String(await env.vault.getFunction('getProtocolFeesCollector')()),
    ['function getSwapFeePercentage() view returns (uint256)'],
    env.chain.provider,
  );
  return {
    ...spec,
    lastInvariant: unitsToDecimal(invariant, 18),
    lastInvariantAmp: unitsToDecimal(amp, 3),
    vaultProtocolSwapFee: unitsToDecimal((await collector.getFunction('getSwapFeePercentage')()) as bigint, 18),
  };
}

test('join and exit per token = BalancerQueries; a real join and exit leave the balances, supply and basis the model threads', async () => {
  const p = env.devnet.pools.find((x) => x.name === 'USDC-USDT stable (v2)')!;
  const [USDC, USDT] = [tokenBySymbol(env.devnet, 'USDC').address, tokenBySymbol(env.devnet, 'USDT').address];
  await swap(env, p.id, 'givenIn', USDC, USDT, parseUnits('150000', 6));
  await swap(env, p.id, 'givenIn', USDT, USDC, parseUnits('90000', 6));
  const spec = await specWithBasis(p.id, p.address);
  expect(spec.vaultProtocolSwapFee).toBe('0.5');
  const withFees = model(spec);
  const noBasis = model({
    ...spec,
    lastInvariant: null,
    lastInvariantAmp: null,
    vaultProtocolSwapFee: null,
  });
  const at = (t: string) => withFees.tokens.indexOf(t);
  const figures: string[] = [];
  for (const [label, i] of [
    ['USDC', at(USDC)],
    ['USDT', at(USDT)],
  ] as const) {
    const amountIn = parseUnits('20000', 6);
    const bptIn = parseUnits('15000', 18);
    const ourJoin = withFees.joinGivenIn(withFees.initialState(), i, amountIn);
    const ourExit = withFees.exitGivenIn(withFees.initialState(), i, bptIn);
    const chainJoin = await queryJoin(env, p.id, [...withFees.tokens], i, amountIn);
    const chainExit = await queryExit(env, p.id, [...withFees.tokens], i, bptIn);
    const noJoin = noBasis.joinGivenIn(noBasis.initialState(), i, amountIn);
    const noExit = noBasis.exitGivenIn(noBasis.initialState(), i, bptIn);
    figures.push(
      `${label}: join model ${ourJoin} chain ${String(chainJoin)} no-basis ${noJoin}; exit model ${ourExit} chain ${String(chainExit)} no-basis ${noExit}`,
    );
    expect({ label, ourJoin, ourExit }).toEqual({ label, ourJoin: chainJoin, ourExit: chainExit });
    expect([noJoin, noExit]).not.toEqual([chainJoin, chainExit]);
  }
  console.log(figures.join('\n'));

  const onchain = async () => {
    const pool = new Contract(p.address, POOL, env.chain.provider);
    const [invariant, amp] = (await pool.getFunction('getLastInvariant')()) as [bigint, bigint];
    return {
      balances: ((await env.vault.getFunction('getPoolTokens')(p.id)) as [string[], bigint[]])[1].map((b) => b),
      supply: (await pool.getFunction('totalSupply')()) as bigint,
      invariant,
      amp,
    };
  };
  const threaded = (s: StableState) => ({
    balances: s.balances,
    supply: s.totalSupply,
    invariant: s.lastInvariant,
    amp: s.lastAmp,
  });
  const state = withFees.initialState();
  const amountIn = parseUnits('20000', 6);
  const bptOut = withFees.joinGivenIn(state, at(USDC), amountIn);
  await join(env, p.id, [...withFees.tokens], at(USDC), amountIn);
  withFees.applyJoin(state, at(USDC), amountIn, bptOut);
  expect(threaded(state)).toEqual(await onchain());

  await swap(env, p.id, 'givenIn', USDC, USDT, parseUnits('120000', 6));
  const fresh = model(await specWithBasis(p.id, p.address));
  const s2 = fresh.initialState();
  const bptIn = parseUnits('15000', 18);
  const out = fresh.exitGivenIn(s2, at(USDT), bptIn);
  expect(out).toBe(await queryExit(env, p.id, [...fresh.tokens], at(USDT), bptIn));
  await exit(env, p.id, [...fresh.tokens], at(USDT), bptIn);
  fresh.applyExit(s2, at(USDT), bptIn, out);
  expect(threaded(s2)).toEqual(await onchain());
});
