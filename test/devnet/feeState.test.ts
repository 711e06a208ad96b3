import { Contract, parseUnits } from 'ethers';
import { modelOfType } from '../helpers/typeModel';
import { balancerAbi } from '../../src/devnet/artifacts';
import { tokenBySymbol } from '../../src/devnet/devnet';
import type { Address } from '../../src/domain/address';
import { applyChainState, type PoolChainState } from '../../src/domain/chainState';
import { stateAt } from '../../src/domain/chainTime';
import { ownStateOf } from '../../src/domain/poolTypes/chainReads';
import { STABLE_PHANTOM_CHAIN } from '../../src/domain/poolTypes/composableStable/composableStableReads';
import { decimalToUnits, unitsToDecimal } from '../../src/domain/decimal';
import type { StoredPool } from '../../src/domain/pool';
import { specFromStoredPool } from '../../src/domain/poolTypes/poolSpec';
import { type PoolModel, type PoolState, type SwapKind } from '../../src/domain/swap/poolModel';
import type { ComposableStableSpec } from '../../src/domain/poolTypes/composableStable/composableStableParams';
import type { StableSpec } from '../../src/domain/poolTypes/stable/stableParams';
import type { WeightedSpec } from '../../src/domain/poolTypes/weighted/weightedParams';
import {
  type ComposableStableModel,
  type ComposableStableState,
} from '../../src/domain/poolTypes/composableStable/composableStableModel';
import { type StableModel, type StableState } from '../../src/domain/poolTypes/stable/stableModel';
import { type WeightedJoinExitModel, type WeightedState } from '../../src/domain/poolTypes/weighted/weightedModel';
import { readHead } from '../../src/sources/chainState/headReads';
import { readPoolStates } from '../../src/sources/chainState/chainStateReader';
import type { JsonRpcOptions } from '../../src/sources/rpc/jsonRpc';
import { nodeRpc } from '../helpers/nodeRpc';
import { storedPool } from '../helpers/poolFixtures';
import {
  createPool,
  deployContract,
  exit as exitPool,
  fund,
  initJoin,
  join,
  poolTokens,
  queryExit,
  queryJoin,
  querySwap,
  setProtocolFees,
  startChainPools,
  swap,
  taskArtifact,
  type Answer,
  ours,
  type ChainPools,
} from '../helpers/devnetPools';
import { initStable, linkedArtifact } from '../helpers/stableDevnet';

/** The specs these tests read: the fee fields of the weighted, composable and legacy stable types. */
type FeeSpec = WeightedSpec & ComposableStableSpec & StableSpec;

/**
 * The protocol fee and rate state of weighted v2 pools with rate providers, the 2021 StablePhantom
 * and the 2021 MetaStable pool, on a chain of the test's own with 50 % protocol swap and yield
 * fees (set before the pools are created: they cache them) and rate providers whose rate the test
 * moves. Each pool is read the way the head follower reads it (the chain-state reader over JSON-RPC
 * at the head, `stateAt` the quote's time, `applyChainState`, the engine spec), and the model's
 * answers must equal BalancerQueries' to the wei where the state read makes the difference:
 * - weighted: a join or exit after the providers' rate product passed its all-time high mints the
 *   yield fee first; the high the pool stores after a join is the product the reader computed.
 * - StablePhantom: BPT swaps are priced on a virtual supply that counts the protocol fee BPT owed;
 *   each swap adds to it exactly what `apply` adds; an expired rate cache is refreshed only after
 *   the swap priced with it.
 * - MetaStable: a swap after its price rate cache expired uses the provider's rate.
 * - Stable v2 and MetaStable: a join or exit first pays the protocol's share of the swap fees
 *   since the last one out of the balances (from `getLastInvariant()` and the Vault's percentage;
 *   the 2021-06 Stable v1 has no such getter, so its basis is not read).
 */
const E18 = 10n ** 18n;
const HALF = E18 / 2n;
const ZERO = '0x0000000000000000000000000000000000000000';

let env: ChainPools;
let rpc: JsonRpcOptions;
interface Token {
  readonly address: string;
  readonly decimals: number;
}
const tok: Record<string, Token> = {};

/**
 * A rate provider whose rate the test sets: `getRate()` (4 bytes of calldata) answers storage slot
 * 0; any 36-byte call stores its argument there. Runtime: CALLDATASIZE 36 EQ ?set; SLOAD(0) RETURN;
 * set: SSTORE(0, CALLDATALOAD(4)).
 */
async function settableRateProvider(rate: bigint): Promise<string> {
  const runtime = '3660241460125760005460005260206000f35b60043560005500';
  const c = await deployContract(env.deployer, { abi: [], bytecode: `0x601a600c600039601a6000f3${runtime}` }, []);
  const address = (await c.getAddress()).toLowerCase();
  await setRate(address, rate);
  return address;
}

async function setRate(provider: string, rate: bigint): Promise<void> {
  const data = `0x00000000${rate.toString(16).padStart(64, '0')}`;
  await (await env.deployer.sendTransaction({ to: provider, data })).wait();
}

async function advance(seconds: number): Promise<void> {
  await env.chain.provider.send('evm_increaseTime', [seconds]);
  await env.chain.provider.send('evm_mine', []);
}

/** The pool as the catalogue lists it: tokens and type only, every chain value left to the reader. */
async function catalogued(
  p: { id: string; address: string },
  poolType: string,
  version: number,
  weights?: Record<string, string>,
): Promise<StoredPool> {
  const { tokens } = await poolTokens(env, p.id);
  const decimalsOf = (a: string) => Object.values(tok).find((t) => t.address === a)?.decimals ?? 18;
  return storedPool({
    id: p.id,
    address: p.address as Address,
    poolType,
    poolTypeVersion: version,
    amp: poolType === 'Weighted' ? null : '1',
    totalShares: '1',
    tokens: tokens.map((a) => ({
      address: a as Address,
      symbol: null,
      name: null,
      decimals: decimalsOf(a),
      balance: '0',
      weight: weights?.[a] ?? null,
      priceRate: '1',
    })),
  });
}

/** What the head follower serves for `pool` at the head (at `at`, default the head's timestamp). */
async function readAtHead(
  pool: StoredPool,
  at?: (head: number) => number,
): Promise<{ s: PoolChainState; spec: FeeSpec }> {
  const { head } = await readHead(rpc);
  const s = (await readPoolStates(rpc, env.devnet.addresses.vault, [pool], head.number)).get(pool.id)!;
  const applied = applyChainState(pool, stateAt(s, at ? at(head.timestamp) : head.timestamp));
  return { s, spec: JSON.parse(JSON.stringify(specFromStoredPool(applied))) as FeeSpec };
}

beforeAll(async () => {
  env = await startChainPools({ serve: true });
  rpc = nodeRpc(env.chain.rpcUrl!);
  for (const s of ['DAI', 'USDC', 'USDT', 'WBTC']) {
    const t = tokenBySymbol(env.devnet, s);
    tok[s] = { address: t.address, decimals: t.decimals };
    await fund(env, t.address, parseUnits('1000000000', t.decimals));
  }
  await setProtocolFees(env, { swap: HALF, yield: HALF });
}, 240_000);

afterAll(async () => {
  await env?.close();
});

describe('weighted v2 with rate providers: the yield fee on joins and exits', () => {
  const WEIGHTED = [
    'function getATHRateProduct() view returns (uint256)',
    'function totalSupply() view returns (uint256)',
  ];
  let pool: StoredPool;
  let daiProvider: string;
  let onchain: Contract;

  beforeAll(async () => {
    const { DAI, USDC, WBTC } = tok as Record<string, Token>;
    daiProvider = await settableRateProvider(1_030_000_000_000_000_000n);
    const wbtcProvider = await settableRateProvider(1_070_000_000_000_000_000n);
    const entries = [
      { t: DAI!, weight: '0.5', seed: '500000', provider: daiProvider },
      { t: USDC!, weight: '0.3', seed: '300000', provider: ZERO },
      { t: WBTC!, weight: '0.2', seed: '5', provider: wbtcProvider },
    ].sort((a, b) => (a.t.address < b.t.address ? -1 : 1));
    const factory = new Contract(
      env.devnet.addresses.weightedPoolFactory,
      balancerAbi('WeightedPoolFactory'),
      env.deployer,
    );
    const created = await createPool(factory, [
      'Weighted v2 with rate providers',
      'WR',
      entries.map((e) => e.t.address),
      entries.map((e) => parseUnits(e.weight, 18)),
      entries.map((e) => e.provider),
      parseUnits('0.003', 18),
      env.owner,
    ]);
    await initJoin(
      env,
      created.id,
      entries.map((e) => parseUnits(e.seed, e.t.decimals)),
    );
    pool = await catalogued(created, 'Weighted', 2, Object.fromEntries(entries.map((e) => [e.t.address, e.weight])));
    onchain = new Contract(created.address, WEIGHTED, env.chain.provider);
    // Swap fees grow the invariant too: the swap part of the fee is due as well.
    await swap(env, created.id, 'givenIn', DAI!.address, USDC!.address, parseUnits('40000', 18));
  }, 120_000);

  test("the rate product the reader computes is the pool's own: equal to the high it stored at its INIT", async () => {
    const { spec } = await readAtHead(pool);
    const ath = (await onchain.getFunction('getATHRateProduct')()) as bigint;
    expect(spec.athRateProduct).toBe(spec.rateProduct);
    expect(spec.rateProduct).toBe(unitsToDecimal(ath, 18));
    expect(spec.protocolYieldFeeCache).toBe('0.5');
  });

  test('after the rate product passed its high, joins and exits equal BalancerQueries to the wei; without the yield basis they do not', async () => {
    await setRate(daiProvider, 1_080_000_000_000_000_000n);
    const { spec } = await readAtHead(pool);
    expect(decimalToUnits(spec.rateProduct!, 18)).toBeGreaterThan(decimalToUnits(spec.athRateProduct!, 18));
    const model = modelOfType(spec, { timestamp: 0 }) as WeightedJoinExitModel;
    const withoutYield: FeeSpec = { ...spec, athRateProduct: null, rateProduct: null };
    const noYield = modelOfType(withoutYield, { timestamp: 0 }) as WeightedJoinExitModel;
    const tokens = [...model.tokens];
    const figures: string[] = [];
    for (const [i, t] of tokens.entries()) {
      const d = Object.values(tok).find((x) => x.address === t)!.decimals;
      const amountIn = parseUnits('1000', d) / (d === 8 ? 10_000n : 1n);
      const bptIn = parseUnits('500', 18);
      const ourJoin = model.joinGivenIn(model.initialState(), i, amountIn);
      const ourExit = model.exitGivenIn(model.initialState(), i, bptIn);
      expect({ i, join: ourJoin, exit: ourExit }).toEqual({
        i,
        join: await queryJoin(env, pool.id, tokens, i, amountIn),
        exit: await queryExit(env, pool.id, tokens, i, bptIn),
      });
      const without = noYield.joinGivenIn(noYield.initialState(), i, amountIn);
      expect(without).not.toBe(ourJoin);
      figures.push(`token ${i}: join ${ourJoin} (without the yield fee ${without}), exit ${ourExit}`);
    }
    console.log(figures.join('\n'));
  });

  test('a real join raises the high to the rate product, as the state applyJoin threads says', async () => {
    const { spec } = await readAtHead(pool);
    const model = modelOfType(spec, { timestamp: 0 }) as WeightedJoinExitModel;
    const state: WeightedState = model.initialState();
    const i = model.tokens.indexOf(tok.DAI!.address);
    const amountIn = parseUnits('2000', 18);
    const bptOut = model.joinGivenIn(state, i, amountIn);
    model.applyJoin(state, i, amountIn, bptOut);
    await join(env, pool.id, [...model.tokens], i, amountIn);
    expect(unitsToDecimal((await onchain.getFunction('getATHRateProduct')()) as bigint, 18)).toBe(spec.rateProduct);
    expect(state.athRateProduct).toBe((await onchain.getFunction('getATHRateProduct')()) as bigint);
    expect(state.totalSupply).toBe((await onchain.getFunction('totalSupply')()) as bigint);
    // At the high now: the next join owes no yield fee, and the model agrees with the chain again.
    const next = model.joinGivenIn(state, i, amountIn);
    expect(next).toBe(await queryJoin(env, pool.id, [...model.tokens], i, amountIn));
  });
});

describe('StablePhantom: the protocol fee BPT it owes, and rates refreshed after pricing', () => {
  const PHANTOM = ['function getDueProtocolFeeBptAmount() view returns (uint256)'];
  let pool: StoredPool;
  let provider: string;
  let onchain: Contract;
  let bpt: string;

  const due = async () => (await onchain.getFunction('getDueProtocolFeeBptAmount')()) as bigint;

  beforeAll(async () => {
    const { DAI, USDC, USDT } = tok as Record<string, Token>;
    provider = await settableRateProvider(1_020_000_000_000_000_000n);
    const sorted = [DAI!, USDC!, USDT!].sort((a, b) => (a.address < b.address ? -1 : 1));
    const factory = await deployContract(
      env.deployer,
      taskArtifact('deprecated/20211208-stable-phantom-pool/artifact/StablePhantomPoolFactory.json'),
      [env.devnet.addresses.vault],
    );
    const created = await createPool(factory, [
      'StablePhantom with fees',
      'SPF',
      sorted.map((t) => t.address),
      200n,
      sorted.map((t) => (t === USDC ? provider : ZERO)),
      sorted.map((t) => (t === USDC ? 60n : 0n)),
      parseUnits('0.0004', 18),
      env.owner,
    ]);
    const seed: Record<string, bigint> = {
      [DAI!.address]: parseUnits('400000', 18),
      [USDC!.address]: parseUnits('300000', 6),
      [USDT!.address]: parseUnits('350000', 6),
    };
    await initStable(env, created, (t) => seed[t]!);
    pool = await catalogued(created, 'StablePhantom', 1);
    bpt = created.address;
    onchain = new Contract(created.address, PHANTOM, env.chain.provider);
  }, 120_000);

  /** Six swaps, each kind through the BPT and between tokens. */
  const swaps = (): [SwapKind, string, string, bigint][] => {
    const { DAI, USDC, USDT } = tok as Record<string, Token>;
    return [
      ['givenIn', DAI!.address, USDC!.address, parseUnits('20000', 18)],
      ['givenOut', USDT!.address, DAI!.address, parseUnits('15000', 18)],
      ['givenIn', USDC!.address, bpt, parseUnits('30000', 6)],
      ['givenOut', USDT!.address, bpt, parseUnits('25000', 18)],
      ['givenIn', bpt, DAI!.address, parseUnits('10000', 18)],
      ['givenOut', bpt, USDT!.address, parseUnits('8000', 6)],
    ];
  };

  test('every swap adds to the owed BPT exactly what apply adds', async () => {
    const { spec } = await readAtHead(pool);
    const model = modelOfType(spec, { timestamp: 0 }) as ComposableStableModel;
    const state: ComposableStableState = model.initialState();
    expect(state.phantomDue).toBe(await due());
    for (const [kind, tIn, tOut, amount] of swaps()) {
      const i = model.tokens.indexOf(tIn);
      const j = model.tokens.indexOf(tOut);
      const result = model.swap(state, kind, i, j, amount);
      expect(result).toBe(await querySwap(env, pool.id, kind, tIn, tOut, amount));
      model.apply(state, i, j, kind === 'givenIn' ? amount : result, kind === 'givenIn' ? result : amount);
      await swap(env, pool.id, kind, tIn, tOut, amount);
      expect({ kind, tIn, tOut, due: state.phantomDue }).toEqual({ kind, tIn, tOut, due: await due() });
    }
    expect(await due()).toBeGreaterThan(0n);
  });

  test('BPT swaps are priced on the supply with the owed BPT; without it they are not', async () => {
    const { s, spec } = await readAtHead(pool);
    expect(ownStateOf(STABLE_PHANTOM_CHAIN, s.own)?.dueProtocolFeeBpt).toBe(await due());
    const model = modelOfType(spec, { timestamp: 0 });
    const withoutDue: FeeSpec = { ...spec, dueProtocolFeeBpt: null };
    const noDue = modelOfType(withoutDue, { timestamp: 0 });
    let differs = 0;
    for (const [kind, tIn, tOut, amount] of swaps()) {
      const [ourAnswer, chain] = [
        quote(model, kind, tIn, tOut, amount),
        await querySwap(env, pool.id, kind, tIn, tOut, amount),
      ];
      expect({ kind, tIn, tOut, ours: ourAnswer }).toEqual({ kind, tIn, tOut, ours: chain });
      if (tIn === bpt || tOut === bpt) if (quote(noDue, kind, tIn, tOut, amount) !== chain) differs++;
    }
    expect(differs).toBe(4);
  });

  test('after its rate cache expired, a swap still prices with the cached rate (it refreshes after)', async () => {
    await setRate(provider, 1_100_000_000_000_000_000n);
    await advance(120);
    const { spec } = await readAtHead(pool, (head) => head + 1);
    const usdc = spec.tokens.find((t) => t.address === tok.USDC!.address)!;
    expect(usdc.priceRate).toBe('1.02');
    const model = modelOfType(spec, { timestamp: 0 });
    const fresh = modelOfType(
      { ...spec, tokens: spec.tokens.map((t) => (t === usdc ? { ...t, priceRate: '1.1' } : t)) },
      { timestamp: 0 },
    );
    const { USDC, DAI } = tok as Record<string, Token>;
    const cases: [SwapKind, string, string, bigint][] = [
      ['givenIn', USDC!.address, DAI!.address, parseUnits('10000', 6)],
      ['givenIn', USDC!.address, bpt, parseUnits('10000', 6)],
    ];
    for (const [kind, tIn, tOut, amount] of cases) {
      const chain = await querySwap(env, pool.id, kind, tIn, tOut, amount);
      expect(quote(model, kind, tIn, tOut, amount)).toBe(chain);
      expect(quote(fresh, kind, tIn, tOut, amount)).not.toBe(chain);
    }
  });
});

function quote(model: PoolModel, kind: SwapKind, tIn: string, tOut: string, amount: bigint): Answer {
  const state: PoolState = model.initialState();
  return ours(() => model.swap(state, kind, model.tokens.indexOf(tIn), model.tokens.indexOf(tOut), amount));
}

describe('MetaStable: a swap after the price rate cache expired uses the provider rate', () => {
  let pool: StoredPool;
  let provider: string;

  beforeAll(async () => {
    const { DAI, USDC } = tok as Record<string, Token>;
    provider = await settableRateProvider(1_020_000_000_000_000_000n);
    const pair = [DAI!, USDC!].sort((a, b) => (a.address < b.address ? -1 : 1));
    const factory = await deployContract(
      env.deployer,
      await linkedArtifact(env, 'deprecated/20210727-meta-stable-pool/artifact/MetaStablePoolFactory.json', {
        QueryProcessor: 'deprecated/20210727-meta-stable-pool/artifact/QueryProcessor.json',
      }),
      [env.devnet.addresses.vault],
    );
    const created = await createPool(factory, [
      'MetaStable with a moving rate',
      'MSR',
      pair.map((t) => t.address),
      50n,
      pair.map((t) => (t === DAI ? provider : ZERO)),
      pair.map((t) => (t === DAI ? 60n : 0n)),
      parseUnits('0.0004', 18),
      false,
      env.owner,
    ]);
    const seed: Record<string, bigint> = {
      [DAI!.address]: parseUnits('400000', 18),
      [USDC!.address]: parseUnits('400000', 6),
    };
    await initStable(env, created, (t) => seed[t]!);
    pool = await catalogued(created, 'MetaStable', 1);
  }, 120_000);

  test('before expiry the cached rate; after it the provider rate, to the wei, and the cached one no longer', async () => {
    const { DAI, USDC } = tok as Record<string, Token>;
    const cases: [SwapKind, string, string, bigint][] = [
      ['givenIn', DAI!.address, USDC!.address, parseUnits('25000', 18)],
      ['givenOut', DAI!.address, USDC!.address, parseUnits('25000', 6)],
      ['givenIn', USDC!.address, DAI!.address, parseUnits('25000', 6)],
    ];
    const fresh = await readAtHead(pool);
    expect(fresh.spec.tokens.find((t) => t.address === DAI!.address)!.priceRate).toBe('1.02');
    for (const [kind, tIn, tOut, amount] of cases)
      expect(quote(modelOfType(fresh.spec, { timestamp: 0 }), kind, tIn, tOut, amount)).toBe(
        await querySwap(env, pool.id, kind, tIn, tOut, amount),
      );

    await setRate(provider, 1_050_000_000_000_000_000n);
    await advance(120);
    const { s, spec } = await readAtHead(pool);
    expect(spec.tokens.find((t) => t.address === DAI!.address)!.priceRate).toBe('1.05');
    const stale = specFromStoredPool(applyChainState(pool, s));
    for (const [kind, tIn, tOut, amount] of cases) {
      const chain = await querySwap(env, pool.id, kind, tIn, tOut, amount);
      expect(quote(modelOfType(spec, { timestamp: 0 }), kind, tIn, tOut, amount)).toBe(chain);
      expect(quote(modelOfType(stale, { timestamp: 0 }), kind, tIn, tOut, amount)).not.toBe(chain);
    }
  });
});

describe('Stable v2 and MetaStable: due protocol fees paid out of the balances at joins and exits', () => {
  const LEGACY = [
    'function getLastInvariant() view returns (uint256 lastInvariant, uint256 lastInvariantAmp)',
    'function totalSupply() view returns (uint256)',
  ];
  const made: { name: string; pool: StoredPool }[] = [];

  beforeAll(async () => {
    const { DAI, USDC, USDT } = tok as Record<string, Token>;
    const three = [DAI!, USDC!, USDT!].map((t) => t.address).sort();
    const pair = [DAI!, USDC!].map((t) => t.address).sort();
    const seed: Record<string, bigint> = {
      [DAI!.address]: parseUnits('400000', 18),
      [USDC!.address]: parseUnits('250000', 6),
      [USDT!.address]: parseUnits('350000', 6),
    };
    const fee = parseUnits('0.0004', 18);
    const v2 = await deployContract(
      env.deployer,
      taskArtifact('deprecated/20220609-stable-pool-v2/artifact/StablePoolFactory.json'),
      [env.devnet.addresses.vault],
    );
    const meta = await deployContract(
      env.deployer,
      await linkedArtifact(env, 'deprecated/20210727-meta-stable-pool/artifact/MetaStablePoolFactory.json', {
        QueryProcessor: 'deprecated/20210727-meta-stable-pool/artifact/QueryProcessor.json',
      }),
      [env.devnet.addresses.vault],
    );
    const provider = await settableRateProvider(1_030_000_000_000_000_000n);
    const s2 = await createPool(v2, ['Stable v2 fees', 'S2F', three, 300n, fee, env.owner]);
    await initStable(env, s2, (t) => seed[t]!);
    made.push({ name: 'Stable v2', pool: await catalogued(s2, 'Stable', 2) });
    const m = await createPool(meta, [
      'MetaStable fees',
      'MSF',
      pair,
      80n,
      pair.map((t) => (t === DAI!.address ? provider : ZERO)),
      pair.map(() => 3600n),
      fee,
      false,
      env.owner,
    ]);
    await initStable(env, m, (t) => seed[t]!);
    made.push({ name: 'MetaStable', pool: await catalogued(m, 'MetaStable', 1) });
    // Swap fees grow the invariants (swaps pay no protocol fee: the next join or exit does).
    for (const { pool } of made) {
      await swap(env, pool.id, 'givenIn', DAI!.address, USDC!.address, parseUnits('90000', 18));
      await swap(env, pool.id, 'givenIn', USDC!.address, DAI!.address, parseUnits('120000', 6));
    }
  }, 120_000);

  test.each(['Stable v2', 'MetaStable'])(
    '%s: joins and exits equal BalancerQueries to the wei; without the basis they do not',
    async (name) => {
      const { pool } = made.find((m) => m.name === name)!;
      const { spec } = await readAtHead(pool);
      expect(spec.vaultProtocolSwapFee).toBe('0.5');
      const model = modelOfType(spec, { timestamp: 0 }) as StableModel;
      const withoutBasis: FeeSpec = { ...spec, lastInvariant: null };
      const noBasis = modelOfType(withoutBasis, { timestamp: 0 }) as StableModel;
      const tokens = [...model.tokens];
      for (const [i, t] of tokens.entries()) {
        const d = Object.values(tok).find((x) => x.address === t)!.decimals;
        const amountIn = parseUnits('5000', d);
        const bptIn = parseUnits('3000', 18);
        const ourJoin = ours(() => model.joinGivenIn(model.initialState(), i, amountIn));
        const ourExit = ours(() => model.exitGivenIn(model.initialState(), i, bptIn));
        expect({ i, join: ourJoin, exit: ourExit }).toEqual({
          i,
          join: await queryJoin(env, pool.id, tokens, i, amountIn),
          exit: await queryExit(env, pool.id, tokens, i, bptIn),
        });
        expect(noBasis.joinGivenIn(noBasis.initialState(), i, amountIn)).not.toBe(ourJoin);
      }
    },
  );

  test.each(['Stable v2', 'MetaStable'])(
    '%s: a real join then exit pay the fee; balances, supply and basis threaded by the model match the chain',
    async (name) => {
      const { pool } = made.find((m) => m.name === name)!;
      const { spec } = await readAtHead(pool);
      const model = modelOfType(spec, { timestamp: 0 }) as StableModel;
      const state: StableState = model.initialState();
      const tokens = [...model.tokens];
      const i = tokens.indexOf(tok.USDC!.address);
      const amountIn = parseUnits('20000', 6);
      const bptOut = model.joinGivenIn(state, i, amountIn);
      model.applyJoin(state, i, amountIn, bptOut);
      await join(env, pool.id, tokens, i, amountIn);
      const onchain = new Contract(pool.address, LEGACY, env.chain.provider);
      const basis = async () => {
        const [invariant, amp] = (await onchain.getFunction('getLastInvariant')()) as [bigint, bigint];
        const supply = (await onchain.getFunction('totalSupply')()) as bigint;
        return { balances: (await poolTokens(env, pool.id)).balances, supply, invariant, amp };
      };
      const ours = () => ({
        balances: state.balances,
        supply: state.totalSupply,
        invariant: state.lastInvariant,
        amp: state.lastAmp,
      });
      expect(ours()).toEqual(await basis());
      // The exit right after owes nothing more (no swap between): its answer needs the new basis.
      const bptIn = parseUnits('10000', 18);
      const out = model.exitGivenIn(state, i, bptIn);
      expect(out).toBe(await queryExit(env, pool.id, tokens, i, bptIn));
      model.applyExit(state, i, bptIn, out);
      await exitPool(env, pool.id, tokens, i, bptIn);
      expect(ours()).toEqual(await basis());
    },
  );
});
