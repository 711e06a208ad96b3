import { parseUnits } from 'ethers';
import { modelOfType } from '../../../helpers/typeModel';
import { tokenBySymbol } from '../../../../src/devnet/devnet';
import { type SwapKind } from '../../../../src/domain/swap/poolModel';
import {
  type ComposableStableModel,
  type ComposableStableState,
} from '../../../../src/domain/poolTypes/composableStable/composableStableModel';
import {
  createPool,
  deployContract,
  fund,
  poolTokens,
  querySwap,
  startChainPools,
  swap,
  taskArtifact,
  type Answer,
  ours,
  type ChainPools,
} from '../../../helpers/devnetPools';
import { deployConstantRateProvider, initStable, readStableSpec } from '../../../helpers/stableDevnet';

/**
 * Pools holding their own BPT against the deployed contracts on a local chain, to the wei: the
 * devnet's ComposableStable v3 pool, ComposableStable v1, v2 and v3 pools with a rate provider on
 * a 6-decimal token, and a 2021 StablePhantom pool with rates. Token -> token, token -> BPT (join)
 * and BPT -> token (exit), both kinds, amounts over nine orders of magnitude up to where the pool
 * reverts, compared with BalancerQueries.querySwap (the Vault's own query path). Then real swaps
 * move the pools and the model, threading its state through `apply`, still agrees. The devnet's
 * protocol fee percentages are zero and these specs carry no fee basis, so the model assumes no
 * fee BPT due, which is right here; test/devnet/composableStableFees.test.ts covers non-zero fees.
 */

interface TestPool {
  readonly name: string;
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly version: number;
  readonly rates: Record<string, bigint>;
}

let env: ChainPools;
const pools: TestPool[] = [];

function mismatch(label: string, model: Answer, chain: Answer): string[] {
  if (typeof chain === 'bigint' ? model === chain : model === 'revert') return [];
  return [`${label}: model ${String(model)}, chain ${String(chain)}`];
}

async function modelOf(pool: TestPool): Promise<ComposableStableModel> {
  const spec = await readStableSpec(env, pool, pool.poolType, pool.version, pool.rates);
  return modelOfType(spec, { timestamp: 0 }) as ComposableStableModel;
}

const scaled = (raw: bigint, fraction: number) => (raw * BigInt(Math.round(fraction * 1e9))) / 1_000_000_000n;
/** Fractions of what the swap draws on: from a billionth to past what the pool holds. */
const FRACTIONS = [1e-9, 1e-6, 1e-3, 0.05, 0.4, 0.9, 3];

/** Every ordered pair, both kinds, at every fraction: the model against querySwap. */
async function compareAll(
  pool: TestPool,
  model: ComposableStableModel,
  state: ComposableStableState,
  fractions = FRACTIONS,
): Promise<{ problems: string[]; compared: number; reverts: number }> {
  const problems: string[] = [];
  let compared = 0;
  let reverts = 0;
  const n = model.tokens.length;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
        const given = kind === 'givenIn' ? i : j;
        const base = given === model.bptIndex ? model.virtualSupply(state) : state.balances[given]!;
        for (const f of fractions) {
          const amount = scaled(base, f) || 1n;
          const chain = await querySwap(env, pool.id, kind, model.tokens[i]!, model.tokens[j]!, amount);
          problems.push(
            ...mismatch(
              `${pool.name} ${i}->${j} ${kind} x${f}`,
              ours(() => model.swap(state, kind, i, j, amount)),
              chain,
            ),
          );
          compared++;
          if (typeof chain === 'string') reverts++;
        }
      }
    }
  }
  return { problems, compared, reverts };
}

beforeAll(async () => {
  env = await startChainPools();
  const { devnet } = env;
  const dai = tokenBySymbol(devnet, 'DAI');
  const usdc = tokenBySymbol(devnet, 'USDC');
  const usdt = tokenBySymbol(devnet, 'USDT');
  for (const t of [dai, usdc, usdt]) await fund(env, t.address, parseUnits('1000000000', t.decimals));
  const csp = devnet.pools.find((p) => p.kind === 'composableStable')!;
  pools.push({
    name: 'devnet ComposableStable v3',
    id: csp.id,
    address: csp.address,
    poolType: 'ComposableStable',
    version: 3,
    rates: {},
  });

  // USDC priced at a rate of 1.25 through a provider, so its scaling factor is 1e12 * 1.25.
  const usdcRate = 1_250_000_000_000_000_000n;
  const provider = await deployConstantRateProvider(env, usdcRate);
  const sorted = [dai, usdc, usdt].sort((a, b) => (a.address < b.address ? -1 : 1));
  const tokens = sorted.map((t) => t.address);
  const providers = sorted.map((t) => (t === usdc ? provider : '0x0000000000000000000000000000000000000000'));
  const seed: Record<string, bigint> = {
    [dai.address]: parseUnits('400000', 18),
    [usdc.address]: parseUnits('250000', 6),
    [usdt.address]: parseUnits('350000', 6),
  };
  const rates = { [usdc.address]: usdcRate };
  const fee = parseUnits('0.0004', 18);
  const pfp = devnet.addresses.protocolFeePercentagesProvider;
  const factories: [string, number, string, unknown[]][] = [
    [
      'ComposableStable v1 with a USDC rate',
      1,
      'deprecated/20220906-composable-stable-pool/artifact/ComposableStablePoolFactory.json',
      [devnet.addresses.vault, pfp],
    ],
    [
      'ComposableStable v2 with a USDC rate',
      2,
      'deprecated/20221122-composable-stable-pool-v2/artifact/ComposableStablePoolFactory.json',
      [devnet.addresses.vault, pfp, 'v2', 'v2'],
    ],
    [
      'ComposableStable v3 with a USDC rate',
      3,
      '20230206-composable-stable-pool-v3/artifact/ComposableStablePoolFactory.json',
      [devnet.addresses.vault, pfp, 'v3', 'v3'],
    ],
  ];
  for (const [name, version, path, args] of factories) {
    const factory = await deployContract(env.deployer, taskArtifact(path), args);
    const created = await createPool(factory, [
      name,
      'CSP',
      tokens,
      150n,
      providers,
      tokens.map(() => 0n),
      tokens.map(() => false),
      fee,
      env.owner,
    ]);
    await initStable(env, created, (t) => seed[t]!);
    pools.push({ name, ...created, poolType: 'ComposableStable', version, rates });
  }
  const phantomFactory = await deployContract(
    env.deployer,
    taskArtifact('deprecated/20211208-stable-phantom-pool/artifact/StablePhantomPoolFactory.json'),
    [devnet.addresses.vault],
  );
  const phantom = await createPool(phantomFactory, [
    'StablePhantom with a USDC rate',
    'SP',
    tokens,
    150n,
    providers,
    tokens.map(() => 0n),
    parseUnits('0.0001', 18),
    env.owner,
  ]);
  await initStable(env, phantom, (t) => seed[t]!);
  pools.push({ name: 'StablePhantom with a USDC rate', ...phantom, poolType: 'StablePhantom', version: 1, rates });
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe('composable stable and phantom pools against the contracts', () => {
  test.each([0, 1, 2, 3, 4])(
    'pool %#: token and BPT swaps, both kinds, every amount: equal to the wei or reverting alike',
    async (index) => {
      const pool = pools[index]!;
      const model = await modelOf(pool);
      expect(model.bptIndex).toBeGreaterThanOrEqual(0);
      const { problems, compared, reverts } = await compareAll(pool, model, model.initialState());
      expect(problems).toEqual([]);
      expect(compared).toBe(12 * 2 * FRACTIONS.length);
      // Past the balance given out, and far past it given in for BPT, the pools revert: both sides agree.
      expect(reverts).toBeGreaterThan(0);
      expect(reverts).toBeLessThan(compared / 2);
    },
  );

  test('after real swaps of every kind, the state threaded through apply still quotes what the chain does', async () => {
    for (const pool of [pools[1]!, pools[4]!]) {
      const model = await modelOf(pool);
      const state = model.initialState();
      const bpt = model.bptIndex;
      const others = [0, 1, 2, 3].filter((k) => k !== bpt);
      const moves: [SwapKind, number, number, bigint][] = [
        ['givenIn', others[0]!, others[1]!, state.balances[others[0]!]! / 7n],
        ['givenIn', others[2]!, bpt, state.balances[others[2]!]! / 5n],
        ['givenOut', bpt, others[1]!, state.balances[others[1]!]! / 9n],
        ['givenOut', others[1]!, bpt, model.virtualSupply(state) / 11n],
        ['givenIn', bpt, others[0]!, model.virtualSupply(state) / 13n],
      ];
      for (const [kind, i, j, amount] of moves) {
        const quoted = model.swap(state, kind, i, j, amount);
        await swap(env, pool.id, kind, model.tokens[i]!, model.tokens[j]!, amount);
        if (kind === 'givenIn') model.apply(state, i, j, amount, quoted);
        else model.apply(state, i, j, quoted, amount);
      }
      expect(state.balances).toEqual((await poolTokens(env, pool.id)).balances);
      const { problems } = await compareAll(pool, model, state, [1e-6, 0.05, 0.9]);
      expect(problems).toEqual([]);
    }
  });

  test.each([2, 4])('pool %i: maxAmount of every pair and kind is a swap the contract accepts', async (index) => {
    const pool = pools[index]!;
    const model = await modelOf(pool);
    const state = model.initialState();
    const problems: string[] = [];
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 4; j++) {
        if (i === j) continue;
        for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
          const max = model.maxAmount(state, kind, i, j);
          expect(max).toBeGreaterThan(0n);
          const chain = await querySwap(env, pool.id, kind, model.tokens[i]!, model.tokens[j]!, max);
          problems.push(...mismatch(`max ${i}->${j} ${kind} ${max}`, model.swap(state, kind, i, j, max), chain));
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
