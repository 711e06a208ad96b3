import { Contract, parseUnits } from 'ethers';
import type { ComposableStableSpec } from '../../src/domain/poolTypes/composableStable/composableStableParams';
import { modelOfType } from '../helpers/typeModel';
import { balancerAbi } from '../../src/devnet/artifacts';
import { tokenBySymbol } from '../../src/devnet/devnet';
import { OnchainPoolReader, type OnchainPool } from '../../src/devnet/indexer/onchainPools';
import { toSubgraphPool } from '../../src/devnet/indexer/subgraphPools';
import { unitsToDecimal } from '../../src/domain/decimal';
import { normalizePool } from '../../src/domain/normalizePool';
import type { SwapKind } from '../../src/domain/swap/poolModel';
import {
  type ComposableStableModel,
  type ComposableStableState,
} from '../../src/domain/poolTypes/composableStable/composableStableModel';
import { toRoutingPool, type RoutingPool } from '../../src/routing/v2/routingPools';
import {
  createPool,
  deployContract,
  fund,
  querySwap,
  setProtocolFees,
  startChainPools,
  swap,
  taskArtifact,
  type ChainPools,
} from '../helpers/devnetPools';
import { initStable } from '../helpers/stableDevnet';

/**
 * ComposableStable BPT swaps with non-zero protocol fees, on a chain of the test's own (the default
 * devnet keeps zero protocol fees): the protocol swap fee is set to 50 % on the ProtocolFeesCollector
 * and the yield fee to 30 % on the ProtocolFeePercentagesProvider (the pools read both through it
 * into their fee caches), and v1, v2 and v3 pools are created with two tokens priced by settable
 * rate providers, one of them exempt from the yield fee. Token swaps accrue swap fees, then the
 * rates rise (yield). The pools are read the way the service reads them (the devnet indexer's
 * on-chain reader -> subgraph shape -> normalizePool -> routing pool -> engine spec), and the
 * model's BPT-in and BPT-out quotes must equal Vault.queryBatchSwap and BalancerQueries.querySwap
 * to the wei, while the same model without the fee basis (or without the yield fee) must not.
 * A real BPT swap then mints the fees: the state `apply` threads on must match the chain's after it.
 */

const POOL = [
  'function getLastJoinExitData() view returns (uint256, uint256)',
  'function getProtocolFeePercentageCache(uint256) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
];
const SWAP_FEE = parseUnits('0.5', 18);
const YIELD_FEE = parseUnits('0.3', 18);

let env: ChainPools;
const tokens: Record<string, { address: string; decimals: number }> = {};
const made: { version: number; id: string; address: string; factory: string }[] = [];

/** The version string Balancer's factories give their pools (the indexer reads the number from it). */
const versionJson = (name: string, version: number) =>
  JSON.stringify({ name, version, deployment: `20221122-composable-stable-pool-v${version}` });

/** A rate provider whose getRate() answers storage slot 0, which any 36-byte call sets. */
async function deploySettableRateProvider(rate: bigint): Promise<string> {
  // CALLDATASIZE 36 EQ ? (SSTORE(0, CALLDATALOAD(4)); STOP) : RETURN(SLOAD(0)).
  const runtime = '3660241460125760005460005260206000f35b60043560005500';
  const size = (runtime.length / 2).toString(16).padStart(2, '0');
  const c = await deployContract(
    env.deployer,
    { abi: [], bytecode: `0x60${size}600c60003960${size}6000f3${runtime}` },
    [],
  );
  const address = (await c.getAddress()).toLowerCase();
  await setRate(address, rate);
  return address;
}

async function setRate(provider: string, rate: bigint): Promise<void> {
  await (
    await env.deployer.sendTransaction({ to: provider, data: `0x00000000${rate.toString(16).padStart(64, '0')}` })
  ).wait();
}

/** The pools as the service stores and routes them, read from the chain by the devnet indexer. */
async function readSpecs(): Promise<Map<string, ComposableStableSpec>> {
  const out = new Map<string, ComposableStableSpec>();
  for (const factory of new Set(made.map((m) => m.factory))) {
    const reader = new OnchainPoolReader(env.chain.provider, {
      ...env.devnet.addresses,
      composableStablePoolFactory: factory,
    });
    for (const p of await reader.readAll()) {
      if (!made.some((m) => m.id === p.id)) continue;
      const normalized = normalizePool(toSubgraphPool(p, new Map()));
      if (!normalized.ok) throw new Error(normalized.error);
      out.set(p.id, (JSON.parse(JSON.stringify(toRoutingPool(normalized.pool))) as RoutingPool).spec);
    }
  }
  return out;
}

async function readOnchain(poolId: string, factory: string): Promise<OnchainPool> {
  const reader = new OnchainPoolReader(env.chain.provider, {
    ...env.devnet.addresses,
    composableStablePoolFactory: factory,
  });
  const p = (await reader.readAll()).find((x) => x.id === poolId);
  if (!p) throw new Error(`pool ${poolId} not read`);
  return p;
}

const model = (spec: ComposableStableSpec) => modelOfType(spec, { timestamp: 0 }) as ComposableStableModel;
const withoutFeeBasis = (spec: ComposableStableSpec): ComposableStableSpec => ({
  ...spec,
  lastJoinExitAmp: null,
  lastPostJoinExitInvariant: null,
  protocolSwapFeeCache: null,
  protocolYieldFeeCache: null,
});
const withoutYieldFee = (spec: ComposableStableSpec): ComposableStableSpec => ({ ...spec, protocolYieldFeeCache: '0' });

/** Vault.queryBatchSwap for one swap: the amount out (given in) or in (given out). */
async function queryBatchSwap(
  poolId: string,
  kind: SwapKind,
  tokenIn: string,
  tokenOut: string,
  amount: bigint,
): Promise<bigint> {
  const funds = { sender: env.owner, fromInternalBalance: false, recipient: env.owner, toInternalBalance: false };
  const steps = [{ poolId, assetInIndex: 0, assetOutIndex: 1, amount, userData: '0x' }];
  const deltas = (await env.vault
    .getFunction('queryBatchSwap')
    .staticCall(kind === 'givenIn' ? 0 : 1, steps, [tokenIn, tokenOut], funds)) as bigint[];
  return kind === 'givenIn' ? -deltas[1]! : deltas[0]!;
}

beforeAll(async () => {
  env = await startChainPools();
  const { devnet } = env;
  for (const s of ['DAI', 'USDC', 'USDT']) {
    const t = tokenBySymbol(devnet, s);
    tokens[s] = { address: t.address, decimals: t.decimals };
    await fund(env, t.address, parseUnits('1000000000', t.decimals));
  }

  await setProtocolFees(env, { swap: SWAP_FEE, yield: YIELD_FEE });

  // USDC's rate is charged the yield fee, USDT's is exempt; DAI has no provider.
  const usdcRate = await deploySettableRateProvider(10n ** 18n);
  const usdtRate = await deploySettableRateProvider(10n ** 18n);
  const sorted = [tokens.DAI!, tokens.USDC!, tokens.USDT!].sort((a, b) => (a.address < b.address ? -1 : 1));
  const addrs = sorted.map((t) => t.address);
  const rateProviders = sorted.map((t) =>
    t === tokens.USDC ? usdcRate : t === tokens.USDT ? usdtRate : '0x0000000000000000000000000000000000000000',
  );
  const exempt = sorted.map((t) => t === tokens.USDT);
  const seed = (t: string) =>
    parseUnits(
      t === tokens.DAI!.address ? '400000' : t === tokens.USDC!.address ? '300000' : '350000',
      t === tokens.DAI!.address ? 18 : 6,
    );
  const pfp = devnet.addresses.protocolFeePercentagesProvider;
  const factories: [number, Contract][] = [
    [
      1,
      await deployContract(
        env.deployer,
        taskArtifact('deprecated/20220906-composable-stable-pool/artifact/ComposableStablePoolFactory.json'),
        [devnet.addresses.vault, pfp],
      ),
    ],
    [
      2,
      await deployContract(
        env.deployer,
        taskArtifact('deprecated/20221122-composable-stable-pool-v2/artifact/ComposableStablePoolFactory.json'),
        [
          devnet.addresses.vault,
          pfp,
          versionJson('ComposableStablePoolFactory', 2),
          versionJson('ComposableStablePool', 2),
        ],
      ),
    ],
    // The devnet's own factory (v3), so the indexer reads these pools as it reads the devnet's.
    [
      3,
      new Contract(
        devnet.addresses.composableStablePoolFactory,
        balancerAbi('ComposableStablePoolFactory'),
        env.deployer,
      ),
    ],
  ];
  for (const [version, factory] of factories) {
    const created = await createPool(factory, [
      `CSP v${version} with fees`,
      'CSPF',
      addrs,
      150n,
      rateProviders,
      addrs.map(() => 0n),
      exempt,
      parseUnits('0.001', 18),
      env.owner,
    ]);
    await initStable(env, created, seed);
    made.push({ version, ...created, factory: (await factory.getAddress()).toLowerCase() });
  }

  // Swap fees accrue on token swaps (no join or exit: the fee basis stays the INIT's) ...
  const { DAI, USDC, USDT } = tokens as Record<string, { address: string; decimals: number }>;
  for (const m of made) {
    await swap(env, m.id, 'givenIn', DAI!.address, USDC!.address, parseUnits('150000', 18));
    await swap(env, m.id, 'givenIn', USDC!.address, USDT!.address, parseUnits('120000', 6));
    await swap(env, m.id, 'givenIn', USDT!.address, DAI!.address, parseUnits('160000', 6));
  }
  // ... then the rates rise: yield, which a token swap moves into each pool's rate cache.
  await setRate(usdcRate, 1_020_000_000_000_000_000n);
  await setRate(usdtRate, 1_030_000_000_000_000_000n);
  for (const m of made) await swap(env, m.id, 'givenIn', DAI!.address, USDC!.address, parseUnits('10', 18));
}, 240_000);

afterAll(async () => {
  await env?.close();
});

/** The BPT swaps compared: BPT out for a token (join) and BPT in for a token (exit), both kinds. */
function bptSwaps(m: ComposableStableModel): { label: string; kind: SwapKind; i: number; j: number; amount: bigint }[] {
  const at = (a: string) => m.tokens.indexOf(a);
  const bpt = m.bptIndex;
  const [dai, usdc, usdt] = [tokens.DAI!, tokens.USDC!, tokens.USDT!].map((t) => at(t.address)) as [
    number,
    number,
    number,
  ];
  return [
    { label: 'BPT out for 1000 USDC', kind: 'givenIn', i: usdc, j: bpt, amount: parseUnits('1000', 6) },
    { label: 'BPT out for 25000 DAI', kind: 'givenIn', i: dai, j: bpt, amount: parseUnits('25000', 18) },
    { label: 'USDT in for 700 BPT out', kind: 'givenOut', i: usdt, j: bpt, amount: parseUnits('700', 18) },
    { label: 'USDC out for 1000 BPT in', kind: 'givenIn', i: bpt, j: usdc, amount: parseUnits('1000', 18) },
    { label: 'BPT in for 3000 DAI out', kind: 'givenOut', i: bpt, j: dai, amount: parseUnits('3000', 18) },
    { label: 'BPT in for 50 USDT out', kind: 'givenOut', i: bpt, j: usdt, amount: parseUnits('50', 6) },
  ];
}

describe('ComposableStable BPT swaps with protocol swap and yield fees due', () => {
  test("the indexer serves the pools' fee basis read from the chain", async () => {
    const specs = await readSpecs();
    for (const m of made) {
      const spec = specs.get(m.id)!;
      const pool = new Contract(m.address, POOL, env.chain.provider);
      const [amp, invariant] = (await pool.getFunction('getLastJoinExitData')()) as [bigint, bigint];
      expect(spec.poolTypeVersion).toBe(m.version);
      expect(spec.lastJoinExitAmp).toBe(String(amp / 1000n));
      expect(spec.lastPostJoinExitInvariant).toBe(unitsToDecimal(invariant, 18));
      expect([spec.protocolSwapFeeCache, spec.protocolYieldFeeCache]).toEqual(['0.5', '0.3']);
      const byToken = new Map(spec.tokens.map((t) => [t.address, t]));
      expect(byToken.get(tokens.USDC!.address)).toMatchObject({
        priceRate: '1.02',
        oldPriceRate: '1',
        isExemptFromYieldProtocolFee: false,
      });
      expect(byToken.get(tokens.USDT!.address)).toMatchObject({
        priceRate: '1.03',
        oldPriceRate: '1',
        isExemptFromYieldProtocolFee: true,
      });
      expect(byToken.get(tokens.DAI!.address)).toMatchObject({
        priceRate: '1',
        oldPriceRate: null,
        isExemptFromYieldProtocolFee: false,
      });
    }
  });

  test.each([1, 2, 3])(
    'v%i: model BPT-in and BPT-out quotes = Vault.queryBatchSwap = BalancerQueries.querySwap to the wei; without the due fees they differ',
    async (version) => {
      const m = made.find((x) => x.version === version)!;
      const spec = (await readSpecs()).get(m.id)!;
      const withFees = model(spec);
      const state = withFees.initialState();
      const noBasis = model(withoutFeeBasis(spec));
      const noYield = model(withoutYieldFee(spec));
      const due = withFees.dueProtocolFees(state);
      expect(due).toBeGreaterThan(0n);
      expect(noYield.dueProtocolFees(noYield.initialState())).toBeGreaterThan(0n);
      expect(noYield.dueProtocolFees(noYield.initialState())).toBeLessThan(due);
      const figures: string[] = [`v${version}: fee BPT due ${due}`];
      for (const s of bptSwaps(withFees)) {
        const tokenIn = withFees.tokens[s.i]!;
        const tokenOut = withFees.tokens[s.j]!;
        const ours = withFees.swap(state, s.kind, s.i, s.j, s.amount);
        const batch = await queryBatchSwap(m.id, s.kind, tokenIn, tokenOut, s.amount);
        const single = await querySwap(env, m.id, s.kind, tokenIn, tokenOut, s.amount);
        const without = noBasis.swap(noBasis.initialState(), s.kind, s.i, s.j, s.amount);
        const noYieldQuote = noYield.swap(noYield.initialState(), s.kind, s.i, s.j, s.amount);
        figures.push(
          `${s.label}: model ${ours}, queryBatchSwap ${batch}, querySwap ${String(single)}; without due fees ${without}; without the yield fee ${noYieldQuote}`,
        );
        expect({ label: s.label, ours, batch, single }).toEqual({ label: s.label, ours: batch, batch, single: batch });
        expect(without).not.toBe(batch);
        expect(noYieldQuote).not.toBe(batch);
      }
      console.log(figures.join('\n'));
    },
  );

  test.each([1, 2, 3])(
    'v%i: after a real BPT swap (fees minted, basis reset) the state threaded through apply matches the chain',
    async (version) => {
      const m = made.find((x) => x.version === version)!;
      const withFees = model((await readSpecs()).get(m.id)!);
      const state: ComposableStableState = withFees.initialState();
      const [first, , , exitSwap] = bptSwaps(withFees);
      const erc20 = (a: string) =>
        new Contract(a, ['function balanceOf(address) view returns (uint256)'], env.chain.provider);
      // A join (token in, BPT out) executed on the chain: what arrives is the model's quote.
      const bptToken = erc20(m.address);
      const before = (await bptToken.getFunction('balanceOf')(env.owner)) as bigint;
      const out = withFees.swap(state, first!.kind, first!.i, first!.j, first!.amount);
      await swap(env, m.id, 'givenIn', withFees.tokens[first!.i]!, m.address, first!.amount);
      expect(((await bptToken.getFunction('balanceOf')(env.owner)) as bigint) - before).toBe(out);
      withFees.apply(state, first!.i, first!.j, first!.amount, out);
      // The pool minted the due fees and this swap's protocol fee: the supplies agree to the wei.
      const supply = (await new Contract(m.address, POOL, env.chain.provider).getFunction('totalSupply')()) as bigint;
      expect(state.totalSupply).toBe(supply);
      const [, invariant] = (await new Contract(m.address, POOL, env.chain.provider).getFunction(
        'getLastJoinExitData',
      )()) as [bigint, bigint];
      expect(state.fees?.basis.lastInvariant).toBe(invariant);
      const onchain = await readOnchain(m.id, m.factory);
      expect(onchain.tokens.map((t) => t.balance)).toEqual(state.balances);
      // Right after a join nothing is due; a token swap then grows the invariant again.
      expect(withFees.dueProtocolFees(state)).toBe(0n);
      const [dai, usdt] = [tokens.DAI!.address, tokens.USDT!.address].map((a) => withFees.tokens.indexOf(a)) as [
        number,
        number,
      ];
      const amount = parseUnits('90000', 18);
      const got = withFees.swap(state, 'givenIn', dai, usdt, amount);
      await swap(env, m.id, 'givenIn', tokens.DAI!.address, tokens.USDT!.address, amount);
      withFees.apply(state, dai, usdt, amount, got);
      expect(withFees.dueProtocolFees(state)).toBeGreaterThan(0n);
      const ours = withFees.swap(state, exitSwap!.kind, exitSwap!.i, exitSwap!.j, exitSwap!.amount);
      expect(ours).toBe(
        await querySwap(env, m.id, exitSwap!.kind, m.address, withFees.tokens[exitSwap!.j]!, exitSwap!.amount),
      );
    },
  );
});
