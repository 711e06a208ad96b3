import { Contract, MaxUint256, parseUnits, type InterfaceAbi } from 'ethers';
import { tokenBySymbol } from '../../../../src/devnet/devnet';
import { type SwapKind } from '../../../../src/domain/swap/poolModel';
import { createLinearModel, type LinearModel } from '../../../../src/domain/poolTypes/linear/linearModel';
import { linearTestArtifact } from './contracts/linearTestTokens';
import {
  createPool,
  deployContract,
  fund,
  poolTokens,
  querySwap,
  readLinearSpec,
  startChainPools,
  swap,
  taskArtifact,
  ours,
  type ChainPools,
} from '../../../helpers/devnetPools';

/**
 * The linear pool model against two deployed generations on a local chain, to the wei, for every
 * pair among main, wrapped and BPT, both kinds, inside the targets, below the lower target and
 * above the upper one, and through a sequence of executed swaps:
 * - ERC4626Linear v3 (task 20230206-erc4626-linear-pool-v3): BPT at index 0, targets in whole
 *   units, rate from an ERC-4626 vault (OpenZeppelin's) that has earned yield; main USDC (6 decimals).
 * - AaveLinear v1 (task 20211208-aave-linear-pool, the mainnet snapshot's generation): tokens
 *   sorted with the BPT among them, 96-bit targets, virtual supply as 2^112 - 1 minus the BPT
 *   balance, rate from a lending pool's normalized income; main DAI (18 decimals).
 */
interface TestPool {
  readonly name: string;
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly version: number;
}

let env: ChainPools;
const pools: TestPool[] = [];

const asAbi = (a: { abi: readonly unknown[]; bytecode: string }) => ({
  abi: a.abi as InterfaceAbi,
  bytecode: a.bytecode,
});

async function modelOf(pool: TestPool): Promise<{ model: LinearModel; tokens: string[] }> {
  const spec = await readLinearSpec(env, pool, pool.poolType, pool.version);
  return { model: createLinearModel(spec, { timestamp: 0 }) as LinearModel, tokens: spec.tokens.map((t) => t.address) };
}

const scaled = (raw: bigint, fraction: number) => (raw * BigInt(Math.round(fraction * 1e9))) / 1_000_000_000n;

/** Every pair and kind at amounts from a millionth of the balance to past the largest accepted one. */
async function mismatches(pool: TestPool, label: string): Promise<{ problems: string[]; compared: number }> {
  const { model, tokens } = await modelOf(pool);
  const state = model.initialState();
  const supply = state.totalSupply - state.balances[model.bptIndex]!;
  const problems: string[] = [];
  let compared = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      if (i === j) continue;
      for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
        const given = kind === 'givenIn' ? i : j;
        const reference = given === model.bptIndex ? supply : state.balances[given]!;
        const max = model.maxAmount(state, kind, i, j);
        const amounts = [
          scaled(reference, 1e-6),
          scaled(reference, 0.01),
          scaled(reference, 0.3),
          scaled(reference, 0.9),
          max,
        ];
        // Past the limit, where the pool balance binds: both must revert.
        if (max < 2n ** 100n) amounts.push(max + max / 100n + 1n);
        for (const amount of amounts) {
          if (amount === 0n) continue;
          const model_ = ours(() => model.swap(state, kind, i, j, amount));
          const chain = await querySwap(env, pool.id, kind, tokens[i]!, tokens[j]!, amount);
          compared++;
          if (typeof chain === 'bigint' ? model_ !== chain : model_ !== 'revert')
            problems.push(
              `${pool.name} ${label} ${kind} ${i}->${j} ${amount}: model ${String(model_)}, chain ${String(chain)}`,
            );
        }
        // The largest amount the model offers is one the pool accepts.
        if (max > 0n && typeof (await querySwap(env, pool.id, kind, tokens[i]!, tokens[j]!, max)) !== 'bigint')
          problems.push(`${pool.name} ${label} ${kind} ${i}->${j}: max ${max} reverts`);
      }
    }
  }
  return { problems, compared };
}

beforeAll(async () => {
  env = await startChainPools();
  const { devnet } = env;
  const usdc = tokenBySymbol(devnet, 'USDC');
  const dai = tokenBySymbol(devnet, 'DAI');
  await fund(env, usdc.address, parseUnits('100000000', 6));
  await fund(env, dai.address, parseUnits('100000000', 18));
  const approve = async (token: string, spender: string) => {
    await (
      await new Contract(token, ['function approve(address,uint256) returns (bool)'], env.deployer).getFunction(
        'approve',
      )(spender, MaxUint256)
    ).wait();
  };

  // ERC4626Linear v3 over an ERC-4626 vault of USDC that has earned ~7.3% (assets sent without shares).
  const wrapped = await deployContract(env.deployer, asAbi(linearTestArtifact('TestERC4626')), [usdc.address]);
  const wrappedAddress = (await wrapped.getAddress()).toLowerCase();
  await approve(usdc.address, wrappedAddress);
  await (await wrapped.getFunction('deposit')(parseUnits('1500000', 6), env.owner)).wait();
  await (
    await new Contract(usdc.address, ['function transfer(address,uint256) returns (bool)'], env.deployer).getFunction(
      'transfer',
    )(wrappedAddress, parseUnits('110000', 6))
  ).wait();
  await approve(wrappedAddress, devnet.addresses.vault);
  const erc4626Factory = await deployContract(
    env.deployer,
    taskArtifact('20230206-erc4626-linear-pool-v3/artifact/ERC4626LinearPoolFactory.json'),
    [
      devnet.addresses.vault,
      devnet.addresses.protocolFeePercentagesProvider,
      devnet.addresses.balancerQueries,
      'factory',
      'pool',
      90 * 86400,
      30 * 86400,
    ],
  );
  const v3 = await createPool(erc4626Factory, [
    'Linear USDC',
    'bb-USDC',
    usdc.address,
    wrappedAddress,
    parseUnits('2000000', 18),
    parseUnits('0.002', 18),
    env.owner,
    0n,
  ]);
  pools.push({ name: 'ERC4626Linear v3', ...v3, poolType: 'ERC4626Linear', version: 3 });
  await swap(env, v3.id, 'givenIn', usdc.address, v3.address, parseUnits('1000000', 6));
  await swap(env, v3.id, 'givenIn', wrappedAddress, v3.address, parseUnits('500000', 6));

  // AaveLinear v1 over a static aToken of DAI whose lending pool reports 8.27% income.
  const lendingPool = await deployContract(env.deployer, asAbi(linearTestArtifact('TestLendingPool')), []);
  await (await lendingPool.getFunction('setIncome')(1_082_700_000_123_456_789_012_345_678n)).wait();
  const aToken = await deployContract(env.deployer, asAbi(linearTestArtifact('TestStaticAToken')), [
    await lendingPool.getAddress(),
    dai.address,
    18,
  ]);
  const aTokenAddress = (await aToken.getAddress()).toLowerCase();
  await (await aToken.getFunction('mint')(env.owner, parseUnits('10000000', 18))).wait();
  await approve(aTokenAddress, devnet.addresses.vault);
  const aaveFactory = await deployContract(
    env.deployer,
    taskArtifact('deprecated/20211208-aave-linear-pool/artifact/AaveLinearPoolFactory.json'),
    [devnet.addresses.vault],
  );
  const v1 = await createPool(aaveFactory, [
    'Linear DAI',
    'bb-DAI',
    dai.address,
    aTokenAddress,
    parseUnits('1500000', 18),
    parseUnits('0.0005', 18),
    env.owner,
  ]);
  pools.push({ name: 'AaveLinear v1', ...v1, poolType: 'AaveLinear', version: 1 });
  await swap(env, v1.id, 'givenIn', dai.address, v1.address, parseUnits('800000', 18));
  await swap(env, v1.id, 'givenIn', aTokenAddress, v1.address, parseUnits('300000', 18));

  // Fees apply outside [lower, upper]; both pools start between them.
  for (const [pool, lower, upper] of [
    [v3, '500000', '2000000'],
    [v1, '300000.5', '1500000'],
  ] as const) {
    await (
      await new Contract(pool.address, ['function setTargets(uint256,uint256)'], env.deployer).getFunction(
        'setTargets',
      )(parseUnits(lower, 18), parseUnits(upper, 18))
    ).wait();
  }
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe('linear pools against the contracts', () => {
  test('inside the targets every pair and kind matches querySwap, reverts included', async () => {
    for (const pool of pools) {
      const { problems, compared } = await mismatches(pool, 'inside');
      expect(problems).toEqual([]);
      expect(compared).toBeGreaterThan(50);
    }
  });

  test('below the lower target and above the upper one (fees charged and paid back) they still match', async () => {
    for (const pool of pools) {
      const { model, tokens } = await modelOf(pool);
      const state = model.initialState();
      const main = tokens[model.mainIndex]!;
      const wrapped = tokens[model.wrappedIndex]!;
      const lower = (await readLinearSpec(env, pool, pool.poolType, pool.version)).lowerTarget!;
      // Take main out for wrapped until the main balance sits at 40% of the lower target.
      const target = (parseUnits(lower, model.decimals[model.mainIndex]!) * 4n) / 10n;
      await swap(env, pool.id, 'givenOut', wrapped, main, state.balances[model.mainIndex]! - target);
      expect((await mismatches(pool, 'below')).problems).toEqual([]);
      // Then push main above the upper target with a large deposit for BPT.
      await swap(env, pool.id, 'givenIn', main, pool.address, parseUnits('3000000', model.decimals[model.mainIndex]!));
      expect((await mismatches(pool, 'above')).problems).toEqual([]);
    }
  });

  test('swaps executed in sequence leave the state the model records', async () => {
    for (const pool of pools) {
      const { model, tokens } = await modelOf(pool);
      const state = model.initialState();
      const [b, m, w] = [model.bptIndex, model.mainIndex, model.wrappedIndex];
      const steps: [SwapKind, number, number][] = [
        ['givenIn', m, w],
        ['givenOut', b, m],
        ['givenIn', w, b],
        ['givenOut', m, w],
        ['givenIn', b, w],
      ];
      for (const [kind, i, j] of steps) {
        // A third of what the pool accepts at that point, or a quarter of the given token's balance
        // (of the circulating supply for BPT) where the pool would take far more.
        const given = kind === 'givenIn' ? i : j;
        const reference = given === b ? state.totalSupply - state.balances[b]! : state.balances[given]!;
        const max = model.maxAmount(state, kind, i, j) / 3n;
        const amount = max < reference / 4n ? max : reference / 4n;
        const result = model.swap(state, kind, i, j, amount);
        await swap(env, pool.id, kind, tokens[i]!, tokens[j]!, amount);
        if (kind === 'givenIn') model.apply(state, i, j, amount, result);
        else model.apply(state, i, j, result, amount);
      }
      const { balances } = await poolTokens(env, pool.id);
      expect(state.balances).toEqual(balances);
      expect(state).toEqual((await modelOf(pool)).model.initialState());
    }
  });
});
