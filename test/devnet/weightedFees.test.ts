import { Contract, parseUnits } from 'ethers';
import type { WeightedSpec } from '../../src/domain/poolTypes/weighted/weightedParams';
import { modelOfType } from '../helpers/typeModel';
import { balancerAbi } from '../../src/devnet/artifacts';
import { tokenBySymbol } from '../../src/devnet/devnet';
import { OnchainPoolReader } from '../../src/devnet/indexer/onchainPools';
import { toSubgraphPool } from '../../src/devnet/indexer/subgraphPools';
import { unitsToDecimal } from '../../src/domain/decimal';
import { normalizePool } from '../../src/domain/normalizePool';
import { type WeightedJoinExitModel, type WeightedState } from '../../src/domain/poolTypes/weighted/weightedModel';
import { toRoutingPool, type RoutingPool } from '../../src/routing/v2/routingPools';
import {
  createPool,
  deployContract,
  exit,
  fund,
  initJoin,
  join,
  queryExit,
  queryJoin,
  setProtocolFees,
  startChainPools,
  swap,
  taskArtifact,
  type ChainPools,
} from '../helpers/devnetPools';

/**
 * Weighted single-token joins and exits with a non-zero protocol swap fee, on a chain of the test's
 * own (the default devnet keeps zero protocol fees): the protocol swap fee is set to 50 % on the
 * ProtocolFeesCollector and the yield fee to 50 % on the ProtocolFeePercentagesProvider before the
 * pools are created (they cache both), then weighted v2 (the devnet's factory) and v3 pools are
 * created and token swaps grow their invariants. The pools are read the way the service reads them
 * (the devnet indexer's on-chain reader -> subgraph shape -> normalizePool -> routing pool -> engine
 * spec); the model's BPT out and token out must equal BalancerQueries.queryJoin/queryExit to the
 * wei, and the same model without the fee basis must not. A real join and exit then mint the fees:
 * the state applyJoin/applyExit thread must match the chain's supply and basis after them.
 */

const POOL = [
  'function getLastPostJoinExitInvariant() view returns (uint256)',
  'function getLastInvariant() view returns (uint256)',
  'function totalSupply() view returns (uint256)',
];
const HALF = parseUnits('0.5', 18);
const ZERO = '0x0000000000000000000000000000000000000000';

interface Token {
  readonly address: string;
  readonly decimals: number;
}

let env: ChainPools;
const tokens: Record<string, Token> = {};
const made: { version: number; id: string; address: string; factory: string }[] = [];

async function readSpec(m: (typeof made)[number]): Promise<WeightedSpec> {
  const reader = new OnchainPoolReader(env.chain.provider, { ...env.devnet.addresses, weightedPoolFactory: m.factory });
  const p = (await reader.readAll()).find((x) => x.id === m.id);
  if (!p) throw new Error(`pool ${m.id} not read`);
  const normalized = normalizePool(toSubgraphPool(p, new Map()));
  if (!normalized.ok) throw new Error(normalized.error);
  return (JSON.parse(JSON.stringify(toRoutingPool(normalized.pool))) as RoutingPool).spec;
}

const model = (spec: WeightedSpec) => modelOfType(spec, { timestamp: 0 }) as WeightedJoinExitModel;
const withoutFeeBasis = (spec: WeightedSpec): WeightedSpec => ({
  ...spec,
  lastPostJoinExitInvariant: null,
  protocolSwapFeeCache: null,
  lastInvariant: null,
  vaultProtocolSwapFee: null,
});

async function onchainBasis(address: string): Promise<{ supply: bigint; invariant: bigint }> {
  const pool = new Contract(address, POOL, env.chain.provider);
  return {
    supply: (await pool.getFunction('totalSupply')()) as bigint,
    invariant: (await pool.getFunction('getLastPostJoinExitInvariant')()) as bigint,
  };
}

beforeAll(async () => {
  env = await startChainPools();
  const { devnet } = env;
  for (const s of ['DAI', 'USDC', 'WBTC', 'BAL']) {
    const t = tokenBySymbol(devnet, s);
    tokens[s] = { address: t.address, decimals: t.decimals };
    await fund(env, t.address, parseUnits('1000000000', t.decimals));
  }

  await setProtocolFees(env, { swap: HALF, yield: HALF });

  const [DAI, USDC, WBTC] = ['DAI', 'USDC', 'WBTC'].map((s) => tokens[s]!) as [Token, Token, Token];
  const entries = [
    { t: DAI, weight: '0.5', seed: '500000' },
    { t: USDC, weight: '0.3', seed: '300000' },
    { t: WBTC, weight: '0.2', seed: '5' },
  ].sort((a, b) => (a.t.address < b.t.address ? -1 : 1));
  const addrs = entries.map((e) => e.t.address);
  const factories: [number, Contract][] = [
    [2, new Contract(devnet.addresses.weightedPoolFactory, balancerAbi('WeightedPoolFactory'), env.deployer)],
    [
      3,
      await deployContract(env.deployer, taskArtifact('20230206-weighted-pool-v3/artifact/WeightedPoolFactory.json'), [
        devnet.addresses.vault,
        devnet.addresses.protocolFeePercentagesProvider,
        'v3',
        'v3',
      ]),
    ],
  ];
  for (const [version, factory] of factories) {
    const created = await createPool(factory, [
      `Weighted v${version} with fees`,
      'WF',
      addrs,
      entries.map((e) => parseUnits(e.weight, 18)),
      addrs.map(() => ZERO),
      parseUnits('0.003', 18),
      env.owner,
    ]);
    await initJoin(
      env,
      created.id,
      entries.map((e) => parseUnits(e.seed, e.t.decimals)),
    );
    made.push({ version, ...created, factory: (await factory.getAddress()).toLowerCase() });
  }
  // Swap fees grow the invariant (no join or exit: the fee basis stays the INIT's).
  for (const m of made) {
    await swap(env, m.id, 'givenIn', DAI.address, USDC.address, parseUnits('60000', 18));
    await swap(env, m.id, 'givenIn', USDC.address, WBTC.address, parseUnits('50000', 6));
    await swap(env, m.id, 'givenIn', WBTC.address, DAI.address, parseUnits('1', 8));
  }
}, 240_000);

afterAll(async () => {
  await env?.close();
});

/** The joins and exits compared, one per token each. */
function cases(m: WeightedJoinExitModel): { label: string; i: number; join: bigint; exit: bigint }[] {
  const at = (s: string) => m.tokens.indexOf(tokens[s]!.address);
  return [
    { label: 'DAI', i: at('DAI'), join: parseUnits('25000', 18), exit: parseUnits('1000', 18) },
    { label: 'USDC', i: at('USDC'), join: parseUnits('1000', 6), exit: parseUnits('20000', 18) },
    { label: 'WBTC', i: at('WBTC'), join: parseUnits('0.3', 8), exit: parseUnits('3000', 18) },
  ];
}

describe('Weighted single-token joins and exits with a protocol swap fee due', () => {
  test("the indexer serves the pools' fee basis read from the chain", async () => {
    for (const m of made) {
      const spec = await readSpec(m);
      const { invariant } = await onchainBasis(m.address);
      expect(spec.lastPostJoinExitInvariant).toBe(unitsToDecimal(invariant, 18));
      expect(spec.protocolSwapFeeCache).toBe('0.5');
    }
  });

  test.each([2, 3])(
    'v%i: model join BPT out and exit token out = BalancerQueries to the wei; without the fee basis they differ',
    async (version) => {
      const m = made.find((x) => x.version === version)!;
      const spec = await readSpec(m);
      const withFees = model(spec);
      const noBasis = model(withoutFeeBasis(spec));
      const state = withFees.initialState();
      const figures: string[] = [];
      for (const c of cases(withFees)) {
        const ourJoin = withFees.joinGivenIn(state, c.i, c.join);
        const chainJoin = await queryJoin(env, m.id, [...withFees.tokens], c.i, c.join);
        const noJoin = noBasis.joinGivenIn(noBasis.initialState(), c.i, c.join);
        const ourExit = withFees.exitGivenIn(state, c.i, c.exit);
        const chainExit = await queryExit(env, m.id, [...withFees.tokens], c.i, c.exit);
        const noExit = noBasis.exitGivenIn(noBasis.initialState(), c.i, c.exit);
        figures.push(
          `v${version} ${c.label}: join model ${ourJoin} chain ${String(chainJoin)} no-basis ${noJoin}; exit model ${ourExit} chain ${String(chainExit)} no-basis ${noExit}`,
        );
        expect({ label: c.label, ourJoin, ourExit }).toEqual({
          label: c.label,
          ourJoin: chainJoin,
          ourExit: chainExit,
        });
        expect(noJoin).not.toBe(chainJoin);
        expect(noExit).not.toBe(chainExit);
      }
      console.log(figures.join('\n'));
    },
  );

  test.each([2, 3])(
    'v%i: a real join and exit mint the fees; the state applyJoin/applyExit thread matches the chain',
    async (version) => {
      const m = made.find((x) => x.version === version)!;
      const withFees = model(await readSpec(m));
      const state: WeightedState = withFees.initialState();
      const [dai, usdc, wbtc] = cases(withFees);
      const bptOut = withFees.joinGivenIn(state, usdc!.i, usdc!.join);
      await join(env, m.id, [...withFees.tokens], usdc!.i, usdc!.join);
      withFees.applyJoin(state, usdc!.i, usdc!.join, bptOut);
      let chain = await onchainBasis(m.address);
      expect({ supply: state.totalSupply, invariant: state.lastInvariant }).toEqual(chain);
      // Right after the join the basis is fresh: a second join quotes as the chain does.
      expect(withFees.joinGivenIn(state, dai!.i, dai!.join)).toBe(
        await queryJoin(env, m.id, [...withFees.tokens], dai!.i, dai!.join),
      );
      // A swap grows the invariant again; the exit pays the fee due first.
      await swap(env, m.id, 'givenIn', tokens.DAI!.address, tokens.WBTC!.address, parseUnits('40000', 18));
      const fresh = model(await readSpec(m));
      const s2 = fresh.initialState();
      const out = fresh.exitGivenIn(s2, wbtc!.i, wbtc!.exit);
      expect(out).toBe(await queryExit(env, m.id, [...fresh.tokens], wbtc!.i, wbtc!.exit));
      await exit(env, m.id, [...fresh.tokens], wbtc!.i, wbtc!.exit);
      fresh.applyExit(s2, wbtc!.i, wbtc!.exit, out);
      chain = await onchainBasis(m.address);
      expect({ supply: s2.totalSupply, invariant: s2.lastInvariant }).toEqual(chain);
    },
  );
});

/**
 * Weighted v1 (the devnet's 2021 BAL-DAI 60/40 pool) has no fee cache and mints no fee BPT: at a
 * join or exit the Vault hands it the collector's protocol swap fee percentage and the pool pays
 * the protocol's share of the invariant growth since its last join or exit (`getLastInvariant()`)
 * out of its largest-weight token (BAL). The follower reads both into the fee basis fields
 * (sources/chainState/chainStateReader.ts); with them the model must answer as the chain.
 */
describe('Weighted v1 joins and exits with a protocol swap fee due (paid in the largest-weight token)', () => {
  const v1Spec = async (id: string): Promise<WeightedSpec> => {
    const p = env.devnet.pools.find((x) => x.id === id)!;
    const reader = new OnchainPoolReader(env.chain.provider, env.devnet.addresses);
    const read = (await reader.readAll()).find((x) => x.id === id)!;
    const normalized = normalizePool(toSubgraphPool(read, new Map()));
    if (!normalized.ok) throw new Error(normalized.error);
    const spec = (JSON.parse(JSON.stringify(toRoutingPool(normalized.pool))) as RoutingPool).spec;
    const pool = new Contract(p.address, POOL, env.chain.provider);
    const collector = new Contract(
      String(await env.vault.getFunction('getProtocolFeesCollector')()),
      ['function getSwapFeePercentage() view returns (uint256)'],
      env.chain.provider,
    );
    return {
      ...spec,
      lastInvariant: unitsToDecimal((await pool.getFunction('getLastInvariant')()) as bigint, 18),
      vaultProtocolSwapFee: unitsToDecimal((await collector.getFunction('getSwapFeePercentage')()) as bigint, 18),
    } as WeightedSpec;
  };

  test('join and exit per token = BalancerQueries; a real join and exit leave the balances and basis the model threads', async () => {
    const p = env.devnet.pools.find((x) => x.name === 'BAL-DAI 60/40 (v1)')!;
    const [BAL, DAI] = [tokenBySymbol(env.devnet, 'BAL').address, tokenBySymbol(env.devnet, 'DAI').address];
    await swap(env, p.id, 'givenIn', DAI, BAL, parseUnits('40000', 18));
    await swap(env, p.id, 'givenIn', BAL, DAI, parseUnits('9000', 18));
    const spec = await v1Spec(p.id);
    expect(spec.vaultProtocolSwapFee).toBe('0.5');
    const withFees = model(spec);
    const noBasis = model(withoutFeeBasis(spec));
    const at = (t: string) => withFees.tokens.indexOf(t);
    const figures: string[] = [];
    for (const [label, i, amountIn, bptIn] of [
      ['BAL', at(BAL), parseUnits('3000', 18), parseUnits('2000', 18)],
      ['DAI', at(DAI), parseUnits('25000', 18), parseUnits('5000', 18)],
    ] as const) {
      const ourJoin = withFees.joinGivenIn(withFees.initialState(), i, amountIn);
      const ourExit = withFees.exitGivenIn(withFees.initialState(), i, bptIn);
      const chainJoin = await queryJoin(env, p.id, [...withFees.tokens], i, amountIn);
      const chainExit = await queryExit(env, p.id, [...withFees.tokens], i, bptIn);
      figures.push(
        `v1 ${label}: join model ${ourJoin} chain ${String(chainJoin)} no-basis ${noBasis.joinGivenIn(noBasis.initialState(), i, amountIn)}; exit model ${ourExit} chain ${String(chainExit)} no-basis ${noBasis.exitGivenIn(noBasis.initialState(), i, bptIn)}`,
      );
      expect({ label, ourJoin, ourExit }).toEqual({ label, ourJoin: chainJoin, ourExit: chainExit });
    }
    // The fee comes out of BAL: a BAL join or exit prices on the reduced balance, a DAI one does not.
    expect(noBasis.joinGivenIn(noBasis.initialState(), at(BAL), parseUnits('3000', 18))).not.toBe(
      withFees.joinGivenIn(withFees.initialState(), at(BAL), parseUnits('3000', 18)),
    );
    console.log(figures.join('\n'));

    // A real join then exit: the balances, supply and basis the model threads are the chain's.
    const vaultBalances = async () =>
      ((await env.vault.getFunction('getPoolTokens')(p.id)) as [string[], bigint[]])[1].map((b) => b);
    const onchain = async () => {
      const pool = new Contract(p.address, POOL, env.chain.provider);
      return {
        balances: await vaultBalances(),
        supply: (await pool.getFunction('totalSupply')()) as bigint,
        invariant: (await pool.getFunction('getLastInvariant')()) as bigint,
      };
    };
    const state: WeightedState = withFees.initialState();
    const bptOut = withFees.joinGivenIn(state, at(BAL), parseUnits('3000', 18));
    await join(env, p.id, [...withFees.tokens], at(BAL), parseUnits('3000', 18));
    withFees.applyJoin(state, at(BAL), parseUnits('3000', 18), bptOut);
    expect({ balances: state.balances, supply: state.totalSupply, invariant: state.lastInvariant }).toEqual(
      await onchain(),
    );
    await swap(env, p.id, 'givenIn', DAI, BAL, parseUnits('30000', 18));
    const fresh = model(await v1Spec(p.id));
    const s2 = fresh.initialState();
    const out = fresh.exitGivenIn(s2, at(BAL), parseUnits('1500', 18));
    expect(out).toBe(await queryExit(env, p.id, [...fresh.tokens], at(BAL), parseUnits('1500', 18)));
    await exit(env, p.id, [...fresh.tokens], at(BAL), parseUnits('1500', 18));
    fresh.applyExit(s2, at(BAL), parseUnits('1500', 18), out);
    expect({ balances: s2.balances, supply: s2.totalSupply, invariant: s2.lastInvariant }).toEqual(await onchain());
  });
});
