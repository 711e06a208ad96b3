import { modelOfType } from '../../../helpers/typeModel';
import { parseUnits } from 'ethers';
import { tokenBySymbol } from '../../../../src/devnet/devnet';
import { type SwapKind } from '../../../../src/domain/swap/poolModel';
import { type StableModel, type StableState } from '../../../../src/domain/poolTypes/stable/stableModel';
import {
  createPool,
  deployContract,
  exit,
  fund,
  join,
  poolTokens,
  queryExit,
  queryJoin,
  querySwap,
  startChainPools,
  swap,
  taskArtifact,
  type Answer,
  ours,
  type ChainPools,
} from '../../../helpers/devnetPools';
import { deployConstantRateProvider, initStable, linkedArtifact, readStableSpec } from '../../../helpers/stableDevnet';

/**
 * Stable pools whose BPT is not a token against the deployed contracts on a local chain, to the
 * wei: the 2021 StablePool (three tokens, general specialization; two tokens, the two-token
 * specialization), the 2022 StablePool v2 and the 2021 MetaStablePool with a rate provider. Swaps
 * of every pair and kind, single-token joins (EXACT_TOKENS_IN_FOR_BPT_OUT) and exits
 * (EXACT_BPT_IN_FOR_ONE_TOKEN_OUT), over nine orders of magnitude up to where the pool reverts,
 * against BalancerQueries; then real joins, exits and swaps thread the model's state. The devnet's
 * protocol swap fee percentage is zero, so no protocol fees are due, which is what the model assumes.
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

async function modelOf(pool: TestPool): Promise<StableModel> {
  return modelOfType(await readStableSpec(env, pool, pool.poolType, pool.version, pool.rates), {
    timestamp: 0,
  }) as StableModel;
}

const scaled = (raw: bigint, fraction: number) => (raw * BigInt(Math.round(fraction * 1e9))) / 1_000_000_000n;
const FRACTIONS = [1e-9, 1e-6, 1e-3, 0.05, 0.4, 0.9, 3];

async function compareSwaps(
  pool: TestPool,
  model: StableModel,
  state: StableState,
  fractions = FRACTIONS,
): Promise<{ problems: string[]; reverts: number }> {
  const problems: string[] = [];
  let reverts = 0;
  for (let i = 0; i < model.tokens.length; i++) {
    for (let j = 0; j < model.tokens.length; j++) {
      if (i === j) continue;
      for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
        for (const f of fractions) {
          const amount = scaled(state.balances[kind === 'givenIn' ? i : j]!, f) || 1n;
          const chain = await querySwap(env, pool.id, kind, model.tokens[i]!, model.tokens[j]!, amount);
          if (typeof chain === 'string') reverts++;
          problems.push(
            ...mismatch(
              `${pool.name} swap ${i}->${j} ${kind} x${f}`,
              ours(() => model.swap(state, kind, i, j, amount)),
              chain,
            ),
          );
        }
      }
    }
  }
  return { problems, reverts };
}

async function compareJoinsExits(
  pool: TestPool,
  model: StableModel,
  state: StableState,
  fractions = [1e-9, 1e-3, 0.3, 1, 5],
): Promise<string[]> {
  const problems: string[] = [];
  const tokens = [...model.tokens];
  for (let i = 0; i < tokens.length; i++) {
    for (const f of fractions) {
      const amount = scaled(state.balances[i]!, f) || 1n;
      problems.push(
        ...mismatch(
          `${pool.name} join ${i} x${f}`,
          ours(() => model.joinGivenIn(state, i, amount)),
          await queryJoin(env, pool.id, tokens, i, amount),
        ),
      );
      // Exits up to most of the supply (a large exit drains the token; past the supply it reverts).
      const bpt = scaled(state.totalSupply, Math.min(f, 0.9)) || 1n;
      problems.push(
        ...mismatch(
          `${pool.name} exit ${i} x${f}`,
          ours(() => model.exitGivenIn(state, i, bpt)),
          await queryExit(env, pool.id, tokens, i, bpt),
        ),
      );
    }
  }
  return problems;
}

beforeAll(async () => {
  env = await startChainPools();
  const { devnet } = env;
  const dai = tokenBySymbol(devnet, 'DAI');
  const usdc = tokenBySymbol(devnet, 'USDC');
  const usdt = tokenBySymbol(devnet, 'USDT');
  const bal = tokenBySymbol(devnet, 'BAL');
  for (const t of [dai, usdc, usdt, bal]) await fund(env, t.address, parseUnits('1000000000', t.decimals));
  const seed: Record<string, bigint> = {
    [dai.address]: parseUnits('400000', 18),
    [usdc.address]: parseUnits('250000', 6),
    [usdt.address]: parseUnits('350000', 6),
    [bal.address]: parseUnits('300000', 18),
  };
  const sorted = (list: { address: string }[]) => list.map((t) => t.address).sort();
  const three = sorted([dai, usdc, usdt]);
  const fee = parseUnits('0.0004', 18);

  const v1 = await deployContract(
    env.deployer,
    taskArtifact('deprecated/20210624-stable-pool/artifact/StablePoolFactory.json'),
    [devnet.addresses.vault],
  );
  const s1 = await createPool(v1, ['Stable v1 DAI-USDC-USDT', 'S1', three, 300n, fee, env.owner]);
  await initStable(env, s1, (t) => seed[t]!);
  pools.push({ name: 'Stable v1 (three tokens)', ...s1, poolType: 'Stable', version: 1, rates: {} });
  const s1two = await createPool(v1, [
    'Stable v1 DAI-USDC',
    'S1T',
    sorted([dai, usdc]),
    60n,
    parseUnits('0.001', 18),
    env.owner,
  ]);
  await initStable(env, s1two, (t) => seed[t]!);
  pools.push({ name: 'Stable v1 (two tokens)', ...s1two, poolType: 'Stable', version: 1, rates: {} });

  const v2 = await deployContract(
    env.deployer,
    taskArtifact('deprecated/20220609-stable-pool-v2/artifact/StablePoolFactory.json'),
    [devnet.addresses.vault],
  );
  const s2 = await createPool(v2, ['Stable v2 DAI-USDC-USDT', 'S2', three, 300n, fee, env.owner]);
  await initStable(env, s2, (t) => seed[t]!);
  pools.push({ name: 'Stable v2 (three tokens)', ...s2, poolType: 'Stable', version: 2, rates: {} });

  // BAL at a rate of 1.25 against DAI: its scaling factor is 1.25.
  const rate = 1_250_000_000_000_000_000n;
  const provider = await deployConstantRateProvider(env, rate);
  const meta = await deployContract(
    env.deployer,
    await linkedArtifact(env, 'deprecated/20210727-meta-stable-pool/artifact/MetaStablePoolFactory.json', {
      QueryProcessor: 'deprecated/20210727-meta-stable-pool/artifact/QueryProcessor.json',
    }),
    [devnet.addresses.vault],
  );
  const pair = sorted([dai, bal]);
  const m = await createPool(meta, [
    'MetaStable BAL-DAI',
    'MS',
    pair,
    50n,
    pair.map((t) => (t === bal.address ? provider : '0x0000000000000000000000000000000000000000')),
    pair.map(() => 0n),
    fee,
    false,
    env.owner,
  ]);
  await initStable(env, m, (t) => seed[t]!);
  pools.push({
    name: 'MetaStable with a rate',
    ...m,
    poolType: 'MetaStable',
    version: 1,
    rates: { [bal.address]: rate },
  });
}, 120_000);

afterAll(async () => {
  await env?.close();
});

describe('stable pools against the contracts', () => {
  test.each([0, 1, 2, 3])(
    'pool %#: swaps of every pair and kind, every amount: equal to the wei or reverting alike',
    async (index) => {
      const pool = pools[index]!;
      const model = await modelOf(pool);
      const { problems, reverts } = await compareSwaps(pool, model, model.initialState());
      expect(problems).toEqual([]);
      // Asking for more than the pool holds reverts on both sides.
      expect(reverts).toBeGreaterThan(0);
    },
  );

  test.each([0, 1, 2, 3])(
    'pool %#: single-token joins and exits equal queryJoin / queryExit to the wei',
    async (index) => {
      const pool = pools[index]!;
      const model = await modelOf(pool);
      expect(await compareJoinsExits(pool, model, model.initialState())).toEqual([]);
    },
  );

  test('joins, exits and swaps executed on chain: the state threaded through the model matches the Vault and still quotes alike', async () => {
    for (const pool of [pools[0]!, pools[3]!]) {
      const model = await modelOf(pool);
      const state = model.initialState();
      const tokens = [...model.tokens];
      const n = tokens.length;
      const joinAmount = state.balances[1]! / 3n + 7n;
      const bptOut = model.joinGivenIn(state, 1, joinAmount);
      await join(env, pool.id, tokens, 1, joinAmount);
      model.applyJoin(state, 1, joinAmount, bptOut);
      const bptIn = state.totalSupply / 6n;
      const out = model.exitGivenIn(state, 0, bptIn);
      await exit(env, pool.id, tokens, 0, bptIn);
      model.applyExit(state, 0, bptIn, out);
      for (const [kind, i, j, amount] of [
        ['givenIn', 0, n - 1, state.balances[0]! / 4n],
        ['givenOut', n - 1, 0, state.balances[0]! / 5n],
      ] as [SwapKind, number, number, bigint][]) {
        const quoted = model.swap(state, kind, i, j, amount);
        await swap(env, pool.id, kind, tokens[i]!, tokens[j]!, amount);
        if (kind === 'givenIn') model.apply(state, i, j, amount, quoted);
        else model.apply(state, i, j, quoted, amount);
      }
      expect(state.balances).toEqual((await poolTokens(env, pool.id)).balances);
      const fresh = await modelOf(pool);
      expect(state.totalSupply).toBe(fresh.initialState().totalSupply);
      expect((await compareSwaps(pool, model, state, [1e-6, 0.4])).problems).toEqual([]);
      expect(await compareJoinsExits(pool, model, state, [1e-5, 0.3])).toEqual([]);
    }
  });

  test('maxAmount, maxJoin and maxExit are accepted by the contract', async () => {
    const problems: string[] = [];
    for (const pool of [pools[1]!, pools[2]!]) {
      const model = await modelOf(pool);
      const state = model.initialState();
      const tokens = [...model.tokens];
      for (let i = 0; i < tokens.length; i++) {
        for (let j = 0; j < tokens.length; j++) {
          if (i === j) continue;
          for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
            const max = model.maxAmount(state, kind, i, j);
            problems.push(
              ...mismatch(
                `${pool.name} max ${i}->${j} ${kind} ${max}`,
                model.swap(state, kind, i, j, max),
                await querySwap(env, pool.id, kind, tokens[i]!, tokens[j]!, max),
              ),
            );
          }
        }
        const maxJoin = model.maxJoin(state, i);
        problems.push(
          ...mismatch(
            `${pool.name} maxJoin ${i} ${maxJoin}`,
            model.joinGivenIn(state, i, maxJoin),
            await queryJoin(env, pool.id, tokens, i, maxJoin),
          ),
        );
        const maxExit = model.maxExit(state, i);
        problems.push(
          ...mismatch(
            `${pool.name} maxExit ${i} ${maxExit}`,
            model.exitGivenIn(state, i, maxExit),
            await queryExit(env, pool.id, tokens, i, maxExit),
          ),
        );
      }
    }
    expect(problems).toEqual([]);
  });
});
