import { id as eventTopic, Interface } from 'ethers';
import type { Address } from '../../../src/domain/address';
import { applyChainState, type PoolChainState } from '../../../src/domain/chainState';
import { needsReread, stateAt } from '../../../src/domain/chainTime';
import { unitsToDecimal } from '../../../src/domain/decimal';
import { ownStateOf } from '../../../src/domain/poolTypes/chainReads';
import { STABLE_PHANTOM_CHAIN } from '../../../src/domain/poolTypes/composableStable/composableStableReads';
import { META_STABLE_CHAIN } from '../../../src/domain/poolTypes/stable/stableReads';
import { WEIGHTED_CHAIN } from '../../../src/domain/poolTypes/weighted/weightedReads';
import type { StoredPool } from '../../../src/domain/pool';
import { weightedRateProduct } from '../../../src/domain/poolTypes/weighted/weightedFees';
import { readMovedPools } from '../../../src/sources/chainState/logReads';
import { readPoolStates } from '../../../src/sources/chainState/chainStateReader';
import type { JsonRpcOptions } from '../../../src/sources/rpc/jsonRpc';
import { nodeRpc } from '../../helpers/nodeRpc';
import { UpstreamError } from '../../../src/sources/upstream';
import { FakeChainRpc, type FakeChainPool } from '../../fakes/chainRpcServer';
import { storedPool } from '../../helpers/poolFixtures';

/**
 * What the chain-state reader asks a node about the protocol fee and rate state of weighted v2+,
 * StablePhantom and MetaStable pools, and what it makes of the answers: the node is a local fake
 * whose getters answer as the test sets them (and revert otherwise, as a pool without the getter).
 */
const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8';
const E18 = 10n ** 18n;
const T1 = '0x' + '11'.repeat(20);
const T2 = '0x' + '22'.repeat(20);
const P1 = '0x' + 'a1'.repeat(20);
const P2 = '0x' + 'a2'.repeat(20);
const ZERO = '0x' + '00'.repeat(20);

const GETTERS = new Interface([
  'function getATHRateProduct() view returns (uint256)',
  'function getRateProviders() view returns (address[])',
  'function getProtocolFeePercentageCache(uint256 feeType) view returns (uint256)',
  'function getTokenRate(address token) view returns (uint256)',
  'function getDueProtocolFeeBptAmount() view returns (uint256)',
  'function getCachedProtocolSwapFeePercentage() view returns (uint256)',
  'function getPriceRateCache(address token) view returns (uint256 rate, uint256 duration, uint256 expires)',
  'function getRate() view returns (uint256)',
  'function getNormalizedWeights() view returns (uint256[])',
  'function getLastInvariant() view returns (uint256 lastInvariant, uint256 lastInvariantAmp)',
  'function getProtocolFeesCollector() view returns (address)',
  'function getSwapFeePercentage() view returns (uint256)',
]);

function poolAt(n: number): { id: string; address: string } {
  const address = '0x' + n.toString(16).padStart(2, '0').repeat(20);
  return { id: `${address}0001000000000000000000${n.toString(16).padStart(2, '0')}`, address };
}

const W = poolAt(0x31); // weighted v2, a provider on T1
const EXEMPT = poolAt(0x32); // weighted v2, no provider
const BROKEN = poolAt(0x33); // weighted v2, its provider reverts
const W1 = poolAt(0x34); // weighted v1
const SP = poolAt(0x35); // StablePhantom, its BPT between T1 and T2
const MS = poolAt(0x36); // MetaStable, a provider on T1

const ATH = 1_020_000_000_000_000_000n;
const P1_RATE = 1_050_000_000_000_000_000n;
const WEIGHTS = [800_000_000_000_000_000n, 200_000_000_000_000_000n];
const CACHE_EXPIRES = 1_700_002_000n;

/** `to` + calldata -> ABI-encoded answer. */
const answers = new Map<string, string>();
function answer(to: string, fn: string, args: unknown[], result: unknown[]): void {
  answers.set(`${to}:${GETTERS.encodeFunctionData(fn, args)}`, GETTERS.encodeFunctionResult(fn, result));
}

answer(W.address, 'getNormalizedWeights', [], [WEIGHTS]);
answer(W.address, 'getATHRateProduct', [], [ATH]);
answer(W.address, 'getRateProviders', [], [[P1, ZERO]]);
answer(W.address, 'getProtocolFeePercentageCache', [2], [E18 / 2n]);
answer(P1, 'getRate', [], [P1_RATE]);
answer(EXEMPT.address, 'getATHRateProduct', [], [0n]);
answer(EXEMPT.address, 'getRateProviders', [], [[ZERO, ZERO]]);
answer(BROKEN.address, 'getATHRateProduct', [], [ATH]);
answer(BROKEN.address, 'getRateProviders', [], [[ZERO, P2]]);
answer(SP.address, 'getTokenRate', [T1], [1_010_000_000_000_000_000n]);
answer(SP.address, 'getTokenRate', [T2], [E18]);
answer(SP.address, 'getDueProtocolFeeBptAmount', [], [123_456n]);
answer(SP.address, 'getCachedProtocolSwapFeePercentage', [], [E18 / 2n]);
answer(MS.address, 'getPriceRateCache', [T1], [1_020_000_000_000_000_000n, 600n, CACHE_EXPIRES]);
// A MetaStable token without a provider: its cache was never written.
answer(MS.address, 'getPriceRateCache', [T2], [0n, 0n, 0n]);
answer(MS.address, 'getRateProviders', [], [[P1, ZERO]]);
const COLLECTOR = '0x' + 'c0'.repeat(20);
answer(MS.address, 'getLastInvariant', [], [2_000_000n * E18 + 7n, 50_000n]);
answer(VAULT, 'getProtocolFeesCollector', [], [COLLECTOR]);
answer(COLLECTOR, 'getSwapFeePercentage', [], [E18 / 2n]);

const token = (address: string, decimals: number, weight: string | null) => ({
  address: address as Address,
  symbol: null,
  name: null,
  decimals,
  balance: '1',
  weight,
  priceRate: '1',
});

function weighted(p: { id: string; address: string }, version: number): StoredPool {
  return storedPool({
    id: p.id,
    address: p.address as Address,
    poolTypeVersion: version,
    tokens: [token(T1, 18, '0.8'), token(T2, 6, '0.2')],
  });
}

const stored: StoredPool[] = [
  weighted(W, 2),
  weighted(EXEMPT, 2),
  weighted(BROKEN, 3),
  weighted(W1, 1),
  storedPool({
    id: SP.id,
    address: SP.address as Address,
    poolType: 'StablePhantom',
    amp: '100',
    tokens: [token(T1, 18, null), token(SP.address, 18, null), token(T2, 6, null)],
  }),
  storedPool({
    id: MS.id,
    address: MS.address as Address,
    poolType: 'MetaStable',
    amp: '50',
    tokens: [token(T1, 18, null), token(T2, 6, null)],
  }),
];

const chainPool = (p: StoredPool): FakeChainPool => ({
  id: p.id,
  address: p.address,
  tokens: p.tokens.map((t) => t.address),
  balances: p.tokens.map((_, k) => BigInt(k + 1) * E18),
  swapFee: 3_000_000_000_000_000n,
});

let node: FakeChainRpc;
let rpc: JsonRpcOptions;
let states: Map<string, PoolChainState>;

beforeAll(async () => {
  node = await FakeChainRpc.start(VAULT, stored.map(chainPool));
  node.contractCall = (c) => answers.get(`${c.to}:${c.data}`);
  rpc = nodeRpc(node.url, 5_000);
  states = await readPoolStates(rpc, VAULT, stored, node.head.number);
});

afterAll(async () => {
  await node.close();
});

const stateOf = (p: { id: string }) => states.get(p.id)!;
const storedOf = (p: { id: string }) => stored.find((s) => s.id === p.id)!;
const weightedOf = (p: { id: string }) => ownStateOf(WEIGHTED_CHAIN, stateOf(p).own)!;
const phantomOf = (p: { id: string }) => ownStateOf(STABLE_PHANTOM_CHAIN, stateOf(p).own)!;
const metaStableOf = (p: { id: string }) => ownStateOf(META_STABLE_CHAIN, stateOf(p).own)!;
const selector = (fn: string) => GETTERS.getFunction(fn)!.selector;

describe('weighted v2+: the yield fee basis', () => {
  test('a pool with a provider: its all-time high, the provider rate and the yield fee percentage', () => {
    const s = stateOf(W);
    expect(weightedOf(W).weightedYield).toEqual({ athRateProduct: ATH, providerRates: new Map([[T1, P1_RATE]]) });
    expect(weightedOf(W).protocolYieldFeeCache).toBe(E18 / 2n);
    // Providers are asked at every join or exit: the pool is read at every head.
    expect(needsReread(s, 0)).toBe(true);
  });

  test('stored: the all-time high and the rate product of the weights read, tokens without a provider counting 1', () => {
    const applied = applyChainState(storedOf(W), stateOf(W));
    const product = weightedRateProduct(WEIGHTS, [P1_RATE, null]);
    // 1.05^0.8 = 1.03981...: above the high, below the provider's rate.
    expect(product).toBeGreaterThan(1_039_000_000_000_000_000n);
    expect(product).toBeLessThan(1_040_000_000_000_000_000n);
    expect(applied).toMatchObject({
      athRateProduct: '1.02',
      rateProduct: unitsToDecimal(product, 18),
      protocolYieldFeeCache: '0.5',
    });
  });

  test('a pool without any provider is exempt: no yield basis, no reread; one whose provider reverts has none either', () => {
    expect(weightedOf(EXEMPT).weightedYield).toBeUndefined();
    // Nor does it get a yield fee percentage: it pays none.
    expect(weightedOf(EXEMPT).protocolYieldFeeCache).toBeUndefined();
    expect(needsReread(stateOf(EXEMPT), 0)).toBe(false);
    expect(applyChainState(storedOf(EXEMPT), stateOf(EXEMPT))).not.toHaveProperty('rateProduct');
    expect(weightedOf(BROKEN).weightedYield).toBeUndefined();
    expect(node.ethCalls.some((c) => c.to === P2 && c.selector === selector('getRate'))).toBe(true);
  });

  test('a v1 pool is not asked (it has none of these getters)', () => {
    const asked = node.ethCalls.filter((c) => c.to === W1.address).map((c) => c.selector);
    expect(asked).not.toContain(selector('getATHRateProduct'));
    expect(asked).not.toContain(selector('getRateProviders'));
    expect(weightedOf(W1).weightedYield).toBeUndefined();
  });
});

describe('StablePhantom: cached rates and the protocol fee BPT it owes', () => {
  test('rates per token, the due BPT and the cached protocol swap fee percentage; no cache expiry', () => {
    const s = stateOf(SP);
    const own = phantomOf(SP);
    expect(own.rates).toEqual(
      new Map([
        [T1, 1_010_000_000_000_000_000n],
        [T2, E18],
      ]),
    );
    expect(own.dueProtocolFeeBpt).toBe(123_456n);
    expect(own.protocolSwapFeeCache).toBe(E18 / 2n);
    // Its swap prices with the cached rate before refreshing it: later timestamps change nothing.
    expect(own.rateCaches).toBeUndefined();
    expect(stateAt(s, 2_000_000_000)).toBe(s);
    expect(needsReread(s, 2_000_000_000)).toBe(false);
  });

  test('a refresh of its cached protocol fee percentage (no Vault log) names the pool for a reread', async () => {
    const topic = eventTopic('CachedProtocolSwapFeePercentageUpdated(uint256)');
    const block = node.mine([], [{ address: SP.address, topic }]);
    expect([...(await readMovedPools(rpc, VAULT, block.number, block.number)).pools.keys()]).toEqual([SP.address]);
  });

  test('stored: the rates as priceRate, the due BPT in 18 decimals', () => {
    const applied = applyChainState(storedOf(SP), stateOf(SP));
    expect(applied.tokens.map((t) => t.priceRate)).toEqual(['1.01', '1', '1']);
    expect(applied.dueProtocolFeeBpt).toBe('0.000000000000123456');
    expect(applied.protocolSwapFeeCache).toBe('0.5');
  });
});

describe('MetaStable: price rate caches that a swap refreshes first once expired', () => {
  test('the cached rate of the token with a provider, its expiry and the provider rate; none for the other', () => {
    const s = metaStableOf(MS);
    expect(s.rates).toEqual(new Map([[T1, 1_020_000_000_000_000_000n]]));
    expect(s.rateCaches).toEqual(
      new Map([
        [T1, { rate: 1_020_000_000_000_000_000n, duration: 600n, expires: CACHE_EXPIRES, providerRate: P1_RATE }],
      ]),
    );
  });

  test('up to its expiry a swap uses the cached rate; after it, the provider rate, and the pool is reread', () => {
    const s = stateOf(MS);
    const at = (ts: bigint) => applyChainState(storedOf(MS), stateAt(s, Number(ts))).tokens.map((t) => t.priceRate);
    expect(at(CACHE_EXPIRES)).toEqual(['1.02', '1']);
    expect(needsReread(s, Number(CACHE_EXPIRES))).toBe(false);
    expect(at(CACHE_EXPIRES + 1n)).toEqual(['1.05', '1']);
    expect(needsReread(s, Number(CACHE_EXPIRES + 1n))).toBe(true);
  });

  test("its protocol fee basis: the last invariant and amp, and the Vault's protocol swap fee percentage", () => {
    const s = metaStableOf(MS);
    expect(s.lastInvariant).toEqual({ invariant: 2_000_000n * E18 + 7n, amp: 50_000n });
    expect(s.vaultProtocolSwapFee).toBe(E18 / 2n);
    expect(applyChainState(storedOf(MS), stateOf(MS))).toMatchObject({
      lastInvariant: '2000000.000000000000000007',
      lastInvariantAmp: '50',
      vaultProtocolSwapFee: '0.5',
    });
  });

  test("a node failing the collector's or a provider's call (not a revert) fails the whole read", async () => {
    for (const failing of [COLLECTOR, P1]) {
      node.callError = (c) => (c.to === failing ? { code: -32005, message: 'rate limited' } : undefined);
      await expect(readPoolStates(rpc, VAULT, stored, node.head.number)).rejects.toThrow(UpstreamError);
    }
    node.callError = undefined;
  });
});
