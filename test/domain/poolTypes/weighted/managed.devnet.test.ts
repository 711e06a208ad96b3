import { AbiCoder, type Contract, MaxUint256, parseUnits, ZeroAddress } from 'ethers';
import { modelOfType } from '../../../helpers/typeModel';
import { tokenBySymbol } from '../../../../src/devnet/devnet';
import { type SwapKind } from '../../../../src/domain/swap/poolModel';
import { type WeightedModel } from '../../../../src/domain/poolTypes/weighted/weightedModel';
import {
  createPool,
  deployContract,
  fund,
  poolTokens,
  querySwap,
  readWeightedSpec,
  startChainPools,
  swap,
  taskArtifact,
  ours,
  type ChainPools,
} from '../../../helpers/devnetPools';

/**
 * The Managed pool model against a deployed ManagedPool (task 20221021-managed-pool, v1) on a local
 * chain, to the wei: token swaps take the fee off the upscaled amount (unlike every other weighted
 * pool), which shows with 6- and 8-decimal tokens. Swaps through the pool's own BPT are joins and
 * exits priced on a supply that includes accrued management fees; the model does not offer them.
 */
const LIBS = 'deprecated/20221021-managed-pool/artifact/';

let env: ChainPools;
let pool: { id: string; address: string };

/** Deploys the factory's libraries and writes their addresses into its bytecode. */
async function managedPoolFactory(): Promise<Contract> {
  const artifact = taskArtifact(`${LIBS}ManagedPoolFactory.json`) as {
    abi: never;
    bytecode: string;
    linkReferences?: Record<string, Record<string, { start: number; length: number }[]>>;
  };
  const full = require(`@balancer-labs/v2-deployments/dist/tasks/${LIBS}ManagedPoolFactory.json`) as {
    linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
  };
  let code = artifact.bytecode;
  for (const file of Object.values(full.linkReferences)) {
    for (const [name, refs] of Object.entries(file)) {
      const lib = await deployContract(env.deployer, taskArtifact(`${LIBS}${name}.json`), []);
      const address = (await lib.getAddress()).slice(2).toLowerCase();
      for (const { start, length } of refs)
        code = code.slice(0, 2 + start * 2) + address + code.slice(2 + (start + length) * 2);
    }
  }
  return deployContract(env.deployer, { abi: artifact.abi, bytecode: code }, [
    env.devnet.addresses.vault,
    env.devnet.addresses.protocolFeePercentagesProvider,
  ]);
}

beforeAll(async () => {
  env = await startChainPools();
  const usdc = tokenBySymbol(env.devnet, 'USDC');
  const wbtc = tokenBySymbol(env.devnet, 'WBTC');
  const dai = tokenBySymbol(env.devnet, 'DAI');
  for (const t of [usdc, wbtc, dai]) await fund(env, t.address, parseUnits('100000000', t.decimals));
  const entries = [
    [usdc, '0.3', '300000'],
    [wbtc, '0.3', '5'],
    [dai, '0.4', '400000'],
  ] as const;
  const sorted = [...entries].sort((a, b) => (a[0].address < b[0].address ? -1 : 1));
  const factory = await managedPoolFactory();
  pool = await createPool(factory, [
    {
      name: 'Managed',
      symbol: 'MNG',
      tokens: sorted.map((e) => e[0].address),
      normalizedWeights: sorted.map((e) => parseUnits(e[1], 18)),
      assetManagers: sorted.map(() => ZeroAddress),
      swapFeePercentage: parseUnits('0.0123', 18),
      swapEnabledOnStart: true,
      mustAllowlistLPs: false,
      managementAumFeePercentage: 0n,
      aumFeeId: 0n,
    },
    env.owner,
  ]);
  // INIT: amounts for the tokens only; the pool also mints its pre-minted BPT into the Vault.
  const { tokens } = await poolTokens(env, pool.id);
  const amounts = sorted.map((e) => parseUnits(e[2], e[0].decimals));
  const userData = AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256[]'], [0, amounts]);
  await (
    await env.vault.getFunction('joinPool')(pool.id, env.owner, env.owner, {
      assets: tokens,
      maxAmountsIn: tokens.map(() => MaxUint256),
      userData,
      fromInternalBalance: false,
    })
  ).wait();
}, 120_000);

afterAll(async () => {
  await env?.close();
});

test('token swaps of a Managed pool match querySwap to the wei, both kinds, reverts included; BPT swaps are not offered', async () => {
  const spec = await readWeightedSpec(env, pool, 'Managed', 1);
  const model = modelOfType(spec, { timestamp: 0 }) as WeightedModel;
  expect(model.bptIndex).toBe(0);
  const state = model.initialState();
  const problems: string[] = [];
  let compared = 0;
  for (let i = 1; i < spec.tokens.length; i++) {
    for (let j = 1; j < spec.tokens.length; j++) {
      if (i === j) continue;
      for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
        const given = kind === 'givenIn' ? i : j;
        const max = model.maxAmount(state, kind, i, j);
        for (const amount of [
          state.balances[given]! / 1_000_000n + 7n,
          state.balances[given]! / 10n + 3n,
          max,
          max + max / 1000n + 1n,
        ]) {
          const mine = ours(() => model.swap(state, kind, i, j, amount));
          const chain = await querySwap(env, pool.id, kind, spec.tokens[i]!.address, spec.tokens[j]!.address, amount);
          compared++;
          if (typeof chain === 'bigint' ? mine !== chain : mine !== 'revert')
            problems.push(`${kind} ${i}->${j} ${amount}: model ${String(mine)}, chain ${String(chain)}`);
        }
      }
    }
  }
  expect(problems).toEqual([]);
  expect(compared).toBe(48);
  for (let k = 1; k < spec.tokens.length; k++)
    expect([model.canSwap(0, k), model.canSwap(k, 0)]).toEqual([false, false]);
});

test('the fee comes off the upscaled amount: priced as a plain weighted pool, some swaps would be off by a unit', async () => {
  const spec = await readWeightedSpec(env, pool, 'Managed', 1);
  const model = modelOfType(spec, { timestamp: 0 });
  const plain = modelOfType(
    { ...spec, poolType: 'Weighted', poolTypeVersion: 2, tokens: spec.tokens.slice(1) },
    { timestamp: 0 },
  );
  const i = spec.tokens.findIndex((t) => t.decimals === 8);
  const j = spec.tokens.findIndex((t) => t.decimals === 6);
  let differ = 0;
  for (let n = 1n; n <= 40n; n++) {
    const amount = n * 1_234_567n + 89n;
    const chain = await querySwap(env, pool.id, 'givenOut', spec.tokens[i]!.address, spec.tokens[j]!.address, amount);
    expect(model.swap(model.initialState(), 'givenOut', i, j, amount)).toBe(chain);
    if (plain.swap(plain.initialState(), 'givenOut', i - 1, j - 1, amount) !== chain) differ++;
  }
  expect(differ).toBeGreaterThan(0);
});

test('a swap executed on chain leaves the balances the model records', async () => {
  const spec = await readWeightedSpec(env, pool, 'Managed', 1);
  const model = modelOfType(spec, { timestamp: 0 }) as WeightedModel;
  const state = model.initialState();
  const amount = state.balances[1]! / 5n;
  const out = model.swap(state, 'givenIn', 1, 2, amount);
  await swap(env, pool.id, 'givenIn', spec.tokens[1]!.address, spec.tokens[2]!.address, amount);
  model.apply(state, 1, 2, amount, out);
  expect(state.balances).toEqual((await poolTokens(env, pool.id)).balances);
});
