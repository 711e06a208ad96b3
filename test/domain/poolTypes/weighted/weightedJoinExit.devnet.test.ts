import { Contract, parseUnits } from 'ethers';
import { modelOfType } from '../../../helpers/typeModel';
import { tokenBySymbol } from '../../../../src/devnet/devnet';
import { DEV_TOKENS } from '../../../../src/devnet/universe';
import { decimalToUnits, unitsToDecimal } from '../../../../src/domain/decimal';
import {
  canJoinExit,
  Revert,
  type PoolModel,
  type PoolSpec,
  type SwapKind,
} from '../../../../src/domain/swap/poolModel';
import {
  type WeightedJoinExitModel,
  type WeightedState,
} from '../../../../src/domain/poolTypes/weighted/weightedModel';
import {
  createPool,
  deployContract,
  exit,
  fund,
  fundWeth,
  initJoin,
  join,
  poolTokens,
  queryExit,
  queryJoin,
  querySwap,
  readWeightedSpec,
  startChainPools,
  swap,
  taskArtifact,
  type Answer,
  ours,
  type ChainPools,
} from '../../../helpers/devnetPools';

/**
 * Weighted-family pool models against the deployed contracts on a local chain, to the wei:
 * single-token joins (EXACT_TOKENS_IN_FOR_BPT_OUT) and exits (EXACT_BPT_IN_FOR_ONE_TOKEN_OUT) of
 * weighted pools v1 (2021), v2 (2022) and v3 (2023), swaps, joins and exits of the 2021 Investment
 * pool, swaps and exits of both 2021 LBP factories, all against BalancerQueries (the Vault's own
 * query path), reverts included. The devnet's protocol fee percentage is zero, which is what the
 * models assume (no due protocol fees).
 */
const E18 = 10n ** 18n;

interface TestPool {
  readonly name: string;
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly version: number;
}

let env: ChainPools;
const pools: TestPool[] = [];
let investmentWithFee: TestPool;

async function modelOf(pool: TestPool): Promise<{ spec: PoolSpec; model: WeightedJoinExitModel; tokens: string[] }> {
  const spec = await readWeightedSpec(env, pool, pool.poolType, pool.version);
  const model = modelOfType(spec, { timestamp: 0 }) as WeightedJoinExitModel;
  return { spec, model, tokens: spec.tokens.map((t) => t.address) };
}

/** Mismatches between the model and the chain: equal amounts, or both reverting. */
function mismatch(label: string, model: Answer, chain: Answer): string[] {
  if (typeof chain === 'bigint' ? model === chain : model === 'revert') return [];
  return [`${label}: model ${String(model)}, chain ${String(chain)}`];
}

const scaled = (raw: bigint, fraction: number) => (raw * BigInt(Math.round(fraction * 1e9))) / 1_000_000_000n;

beforeAll(async () => {
  env = await startChainPools();
  const { devnet } = env;
  for (const name of ['WETH-USDC 50/50', 'WETH-USDC 80/20', 'WBTC-DAI 50/50', 'BAL-DAI 60/40 (v1)']) {
    const p = devnet.pools.find((x) => x.name === name)!;
    pools.push({ name, id: p.id, address: p.address, poolType: 'Weighted', version: name.includes('(v1)') ? 1 : 2 });
  }
  const usdc = tokenBySymbol(devnet, 'USDC');
  const wbtc = tokenBySymbol(devnet, 'WBTC');
  const dai = tokenBySymbol(devnet, 'DAI');
  const link = tokenBySymbol(devnet, 'LINK');
  // The dev tokens mint; WETH wraps and the vault shares (wUSDC) are deposited, so they are left out.
  for (const d of DEV_TOKENS)
    await fund(env, tokenBySymbol(devnet, d.symbol).address, parseUnits('100000000', d.decimals));
  await fundWeth(env, parseUnits('1000', 18));
  // Sorted by address, as the Vault requires; amounts in that order.
  const sorted = (entries: [{ address: string; decimals: number }, string, string][]) =>
    entries.sort((a, b) => (a[0].address < b[0].address ? -1 : 1));
  const three = sorted([
    [usdc, '0.25', '250000'],
    [wbtc, '0.25', '4'],
    [dai, '0.5', '500000'],
  ]);
  const two = sorted([
    [link, '0.9', '900000'],
    [dai, '0.1', '100000'],
  ]);
  const args = (entries: typeof three) => ({
    tokens: entries.map((e) => e[0].address),
    weights: entries.map((e) => parseUnits(e[1], 18)),
    amounts: entries.map((e) => parseUnits(e[2], e[0].decimals)),
  });

  const v3 = await deployContract(
    env.deployer,
    taskArtifact('20230206-weighted-pool-v3/artifact/WeightedPoolFactory.json'),
    [devnet.addresses.vault, devnet.addresses.protocolFeePercentagesProvider, 'v3', 'v3'],
  );
  const a3 = args(three);
  const w3 = await createPool(v3, [
    'USDC-WBTC-DAI',
    'W3',
    a3.tokens,
    a3.weights,
    a3.tokens.map(() => '0x0000000000000000000000000000000000000000'),
    parseUnits('0.003', 18),
    env.owner,
  ]);
  await initJoin(env, w3.id, a3.amounts);
  pools.push({ name: 'USDC-WBTC-DAI 25/25/50 (v3)', ...w3, poolType: 'Weighted', version: 3 });

  const investmentFactory = await deployContract(
    env.deployer,
    taskArtifact('deprecated/20210907-investment-pool/artifact/InvestmentPoolFactory.json'),
    [devnet.addresses.vault],
  );
  const inv = await createPool(investmentFactory, [
    'Investment',
    'INV',
    a3.tokens,
    a3.weights,
    parseUnits('0.01', 18),
    env.owner,
    true,
    0n,
  ]);
  await initJoin(env, inv.id, a3.amounts);
  pools.push({ name: 'Investment 25/25/50', ...inv, poolType: 'Investment', version: 1 });
  const invFee = await createPool(investmentFactory, [
    'Investment fee',
    'INVF',
    a3.tokens,
    a3.weights,
    parseUnits('0.01', 18),
    env.owner,
    true,
    parseUnits('0.5', 18),
  ]);
  await initJoin(env, invFee.id, a3.amounts);
  investmentWithFee = { name: 'Investment with a management fee', ...invFee, poolType: 'Investment', version: 1 };

  const a2 = args(two);
  for (const [name, path] of [
    ['LBP 90/10', 'deprecated/20210721-liquidity-bootstrapping-pool/artifact/LiquidityBootstrappingPoolFactory.json'],
    [
      'no-protocol-fee LBP 90/10',
      '20211202-no-protocol-fee-lbp/artifact/NoProtocolFeeLiquidityBootstrappingPoolFactory.json',
    ],
  ] as const) {
    const factory = await deployContract(env.deployer, taskArtifact(path), [devnet.addresses.vault]);
    const lbp = await createPool(factory, [
      name,
      'LBP',
      a2.tokens,
      a2.weights,
      parseUnits('0.02', 18),
      env.owner,
      true,
    ]);
    await initJoin(env, lbp.id, a2.amounts);
    pools.push({ name, ...lbp, poolType: 'LiquidityBootstrapping', version: 1 });
  }
}, 120_000);

afterAll(async () => {
  await env?.close();
});

const joinable = () => pools.filter((p) => p.poolType !== 'LiquidityBootstrapping');

describe('weighted-family joins and exits against the contracts', () => {
  test('single-token joins mint what queryJoin answers, to the wei (weighted v1, v2, v3, Investment)', async () => {
    const problems: string[] = [];
    for (const pool of joinable()) {
      const { model, tokens } = await modelOf(pool);
      const state = model.initialState();
      for (let i = 0; i < tokens.length; i++) {
        for (const f of [1e-9, 1e-5, 0.01, 0.3, 1, 5]) {
          const amount = scaled(state.balances[i]!, f) || 1n;
          problems.push(
            ...mismatch(
              `${pool.name} join ${i} x${f}`,
              ours(() => model.joinGivenIn(state, i, amount)),
              await queryJoin(env, pool.id, tokens, i, amount),
            ),
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('single-token exits pay what queryExit answers, to the wei; past the 70% invariant bound both revert', async () => {
    const problems: string[] = [];
    for (const pool of pools) {
      const { model, tokens } = await modelOf(pool);
      const state = model.initialState();
      for (let i = 0; i < tokens.length; i++) {
        const max = model.maxExit(state, i);
        for (const bptIn of [
          1n,
          scaled(state.totalSupply, 1e-6),
          scaled(state.totalSupply, 0.01),
          scaled(state.totalSupply, 0.2),
          max,
          max + state.totalSupply / 1000n,
        ]) {
          problems.push(
            ...mismatch(
              `${pool.name} exit ${i} ${bptIn}`,
              ours(() => model.exitGivenIn(state, i, bptIn)),
              await queryExit(env, pool.id, tokens, i, bptIn),
            ),
          );
        }
        // The largest exit the model offers is one the pool accepts.
        expect(typeof (await queryExit(env, pool.id, tokens, i, max))).toBe('bigint');
      }
    }
    expect(problems).toEqual([]);
  });

  test('swaps of every generation match querySwap, both kinds', async () => {
    const problems: string[] = [];
    for (const pool of pools) {
      const { model, tokens } = await modelOf(pool);
      const state = model.initialState();
      for (let i = 0; i < tokens.length; i++) {
        for (let j = 0; j < tokens.length; j++) {
          if (i === j) continue;
          for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
            const given = kind === 'givenIn' ? i : j;
            const max = model.maxAmount(state, kind, i, j);
            for (const amount of [
              scaled(state.balances[given]!, 1e-6),
              scaled(state.balances[given]!, 0.1),
              max,
              max + max / 1000n + 1n,
            ]) {
              problems.push(
                ...mismatch(
                  `${pool.name} ${kind} ${i}->${j} ${amount}`,
                  ours(() => model.swap(state, kind, i, j, amount)),
                  await querySwap(env, pool.id, kind, tokens[i]!, tokens[j]!, amount),
                ),
              );
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('joins, exits and swaps executed on chain leave the state the model records', async () => {
    for (const pool of joinable()) {
      const { model, tokens } = await modelOf(pool);
      const state: WeightedState = model.initialState();
      const amountIn = state.balances[0]! / 7n;
      const bptOut = model.joinGivenIn(state, 0, amountIn);
      await join(env, pool.id, tokens, 0, amountIn);
      model.applyJoin(state, 0, amountIn, bptOut);
      const last = tokens.length - 1;
      const bptIn = bptOut / 2n;
      const amountOut = model.exitGivenIn(state, last, bptIn);
      await exit(env, pool.id, tokens, last, bptIn);
      model.applyExit(state, last, bptIn, amountOut);
      const swapIn = state.balances[1]! / 20n;
      const swapOut = model.swap(state, 'givenIn', 1, 0, swapIn);
      await swap(env, pool.id, 'givenIn', tokens[1]!, tokens[0]!, swapIn);
      model.apply(state, 1, 0, swapIn, swapOut);
      const after = await readWeightedSpec(env, pool, pool.poolType, pool.version);
      const fresh = modelOfType(after, { timestamp: 0 }) as WeightedJoinExitModel;
      expect({ pool: pool.name, state }).toEqual({ pool: pool.name, state: fresh.initialState() });
    }
  });

  test('an LBP takes joins from its owner only: the model offers none, and the pool refuses anyone else', async () => {
    const trader = (await env.chain.provider.listAccounts())[1]!.address;
    for (const pool of pools.filter((p) => p.poolType === 'LiquidityBootstrapping')) {
      const { model, tokens } = await modelOf(pool);
      const state = model.initialState();
      expect(canJoinExit(model as PoolModel)).toBe(true);
      expect(model.maxJoin(state, 0)).toBe(0n);
      expect(() => model.joinGivenIn(state, 0, E18)).toThrow(Revert);
      expect(await queryJoin(env, pool.id, tokens, 0, E18, trader)).toBe('BAL#328');
    }
  });

  test('with swaps disabled an LBP or Investment pool refuses swaps, and so does the model', async () => {
    for (const pool of pools.filter((p) => p.poolType !== 'Weighted')) {
      const c = new Contract(pool.address, ['function setSwapEnabled(bool)'], env.deployer);
      await (await c.getFunction('setSwapEnabled')(false)).wait();
      const { model, tokens } = await modelOf(pool);
      const state = model.initialState();
      expect(model.canSwap(0, 1)).toBe(false);
      expect(model.maxAmount(state, 'givenIn', 0, 1)).toBe(0n);
      expect(ours(() => model.swap(state, 'givenIn', 0, 1, E18))).toBe('revert');
      expect(await querySwap(env, pool.id, 'givenIn', tokens[0]!, tokens[1]!, 10n ** 6n)).toBe('BAL#327');
      await (await c.getFunction('setSwapEnabled')(true)).wait();
    }
  });

  test('an Investment pool prices against its balances net of uncollected management fees', async () => {
    // The stored balances are the Vault's; after fee-paying swaps the pool holds part of them for
    // its manager and prices on the rest. The model is exact on those net balances (which the
    // store does not carry: it documents the assumption that none are outstanding).
    const pool = investmentWithFee;
    const { tokens } = await modelOf(pool);
    await swap(env, pool.id, 'givenIn', tokens[0]!, tokens[2]!, (await poolTokens(env, pool.id)).balances[0]! / 10n);
    const [, collected] = (await new Contract(
      pool.address,
      ['function getCollectedManagementFees() view returns (address[], uint256[])'],
      env.chain.provider,
    ).getFunction('getCollectedManagementFees')()) as [string[], bigint[]];
    expect(collected[0]! > 0n).toBe(true);
    const { model, spec } = await modelOf(pool);
    const amount = model.initialState().balances[0]! / 1000n;
    const chain = await querySwap(env, pool.id, 'givenIn', tokens[0]!, tokens[2]!, amount);
    expect(model.swap(model.initialState(), 'givenIn', 0, 2, amount)).not.toBe(chain);
    const net = modelOfType(
      {
        ...spec,
        tokens: spec.tokens.map((t, k) => ({
          ...t,
          balance: unitsToDecimal(decimalToUnits(t.balance, t.decimals) - collected[k]!, t.decimals),
        })),
      },
      { timestamp: 0 },
    );
    expect(net.swap(net.initialState(), 'givenIn', 0, 2, amount)).toBe(chain);
  });
});
