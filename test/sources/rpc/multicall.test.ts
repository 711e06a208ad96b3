import { id } from 'ethers';
import { MULTICALL3_ADDRESS } from '../../../src/config/chains';
import type { Address } from '../../../src/domain/address';
import type { StoredPool } from '../../../src/domain/pool';
import { readPoolStates } from '../../../src/sources/chainState/chainStateReader';
import { MalformedAnswerError } from '../../../src/sources/rpc/jsonRpc';
import {
  decodeAggregate3,
  encodeAggregate3,
  type AggregateHealth,
  type PinnedRpcOptions,
} from '../../../src/sources/rpc/multicall';
import { UpstreamError } from '../../../src/sources/upstream';
import { FakeChainRpc } from '../../fakes/chainRpcServer';
import { decodeResults, encodeResults, innerCalls, MULTICALL3_ABI } from '../../fakes/multicall3';
import { nodeRpc } from '../../helpers/nodeRpc';
import { storedPool } from '../../helpers/poolFixtures';

/**
 * The follower's reads through Multicall3's `aggregate3` (src/sources/rpc/multicall.ts): the same
 * state as plain `eth_call`s in a few calls, each inner answer checked as a plain one is, the
 * aggregate's own answer decoded strictly and pinned to its block, and the JSON-RPC batch as the
 * fallback where the aggregate itself fails.
 */
const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const E18 = 10n ** 18n;
const POOLS = 60;

const ids = Array.from({ length: POOLS }, (_, n) => {
  const address = `0x${(n + 16).toString(16).padStart(2, '0').repeat(20)}`;
  return { id: `${address}0002000000000000000000${(n + 16).toString(16).padStart(2, '0')}`, address };
});

const stored: StoredPool[] = ids.map((p) =>
  storedPool({
    id: p.id,
    address: p.address as Address,
    tokens: [WETH, USDC].map((address, i) => ({
      address: address as Address,
      symbol: null,
      name: null,
      decimals: i === 0 ? 18 : 6,
      balance: '1',
      weight: '0.5',
      priceRate: '1',
    })),
  }),
);

const word = (n: bigint) => n.toString(16).padStart(64, '0');
const selector = (signature: string) => id(signature).slice(0, 10);
/**
 * A weighted v1 pool's getters beside the fake's own: not paused, its supply and weights. It has
 * no `inRecoveryMode` (recovery mode came with the 2022 pools): that getter reverts, with no data.
 */
const v1Getters = (n: number) =>
  new Map([
    [selector('getPausedState()'), `0x${word(0n)}${word(0n)}${word(0n)}`],
    [selector('totalSupply()'), `0x${word(BigInt(n + 1) * 100n * E18)}`],
    [selector('getNormalizedWeights()'), `0x${word(32n)}${word(2n)}${word(E18 / 2n)}${word(E18 / 2n)}`],
  ]);
/** The getters that revert without data: every pool's `inRecoveryMode`, and `getLastInvariant` of the odd ones. */
const EMPTY_REVERTS = POOLS + POOLS / 2;

let node: FakeChainRpc;
beforeEach(async () => {
  node = await FakeChainRpc.start(
    VAULT,
    ids.map((p, n) => ({
      id: p.id,
      address: p.address,
      tokens: [WETH, USDC],
      balances: [BigInt(n + 1) * E18, BigInt(n + 1) * 3_000_000_000n],
      swapFee: 3_000_000_000_000_000n,
      ...(n % 2 === 0 ? { lastInvariant: BigInt(n + 7) * E18 } : {}),
      getters: v1Getters(n),
    })),
  );
  node.feesCollector = `0x${'fe'.repeat(20)}`;
  node.protocolSwapFee = 5n * 10n ** 17n;
  node.mine([]);
});
afterEach(async () => node.close());

const aggregated = (callsPerAggregate = 1000): PinnedRpcOptions => ({
  ...nodeRpc(node.url),
  aggregate: { address: MULTICALL3_ADDRESS, callsPerAggregate },
});
const ethCalls = () => node.methodCounts.get('eth_call') ?? 0;

test('a read through aggregate3 equals the plain read, in one aggregate a round', async () => {
  const plain = await readPoolStates(nodeRpc(node.url), VAULT, stored, node.head.number);
  const plainCalls = ethCalls();
  expect(plainCalls).toBeGreaterThan(POOLS * 3);
  const viaAggregate = await readPoolStates(aggregated(), VAULT, stored, node.head.number);
  expect(viaAggregate).toEqual(plain);
  expect(viaAggregate.size).toBe(POOLS);
  // The first round (every pool's getters) and the second (the fees collector's percentage).
  expect(node.aggregates).toBe(2);
  // Beside them, each getter that reverted without data, sent again alone.
  expect(ethCalls() - plainCalls).toBe(2 + EMPTY_REVERTS);
});

test('callsPerAggregate bounds an aggregate: more aggregates, the same state', async () => {
  const plain = await readPoolStates(nodeRpc(node.url), VAULT, stored, node.head.number);
  expect(await readPoolStates(aggregated(50), VAULT, stored, node.head.number)).toEqual(plain);
  expect(node.aggregates).toBeGreaterThan(2);
  expect(node.aggregates).toBeLessThan(POOLS);
});

test('an aggregate the node reverts (no Multicall3 at that block) falls back to the JSON-RPC batch', async () => {
  const plain = await readPoolStates(nodeRpc(node.url), VAULT, stored, node.head.number);
  node.callError = (c) => (c.to === MULTICALL3_ADDRESS ? { code: 3, message: 'execution reverted' } : undefined);
  expect(await readPoolStates(aggregated(), VAULT, stored, node.head.number)).toEqual(plain);
});

test('an aggregate that runs out of gas is halved until it fits', async () => {
  const plain = await readPoolStates(nodeRpc(node.url), VAULT, stored, node.head.number);
  const sizes: number[] = [];
  node.callError = (c) => {
    const inner = c.to === MULTICALL3_ADDRESS && c.data ? innerCalls({ to: c.to, data: c.data }) : undefined;
    if (!inner) return undefined;
    sizes.push(inner.length);
    return inner.length > 60 ? { code: -32000, message: 'out of gas' } : undefined;
  };
  expect(await readPoolStates(aggregated(), VAULT, stored, node.head.number)).toEqual(plain);
  expect(Math.max(...sizes)).toBeGreaterThan(60);
  expect(sizes.some((n) => n <= 60)).toBe(true);
});

test("an inner call that ran out of the aggregate's gas is asked again alone, and its answer taken", async () => {
  const plain = await readPoolStates(nodeRpc(node.url), VAULT, stored, node.head.number);
  const fee = selector('getSwapFeePercentage()');
  const starved = new Set([ids[0]!.address, ids[7]!.address]);
  // Inside the aggregate these fail as an empty revert would: only sent alone do they tell.
  node.outOfGasInside = (c) => c.selector === fee && starved.has(c.to!);
  const before = ethCalls();
  const read = await readPoolStates(aggregated(), VAULT, stored, node.head.number);
  expect(read).toEqual(plain);
  expect(read.get(ids[7]!.id)?.swapFee).toBe(3_000_000_000_000_000n);
  expect(ethCalls() - before).toBe(2 + EMPTY_REVERTS + starved.size);
});

test('a getter that runs out of gas alone too (it needs more than the node allows a call) stays the revert it seemed', async () => {
  const fee = selector('getSwapFeePercentage()');
  const greedy = ids[3]!;
  node.outOfGasInside = (c) => c.selector === fee && c.to === greedy.address;
  node.callError = (c) =>
    c.selector === fee && c.to === greedy.address ? { code: -32000, message: 'out of gas' } : undefined;
  const read = await readPoolStates(aggregated(), VAULT, stored, node.head.number);
  expect(read.size).toBe(POOLS);
  expect(read.get(greedy.id)?.swapFee).toBeUndefined();
  expect(read.get(ids[4]!.id)?.swapFee).toBe(3_000_000_000_000_000n);
});

test('a Multicall3 without code (a fork that lacks it): the read goes plain, and so do the later ones', async () => {
  const plain = await readPoolStates(nodeRpc(node.url), VAULT, stored, node.head.number);
  const plainAsked = ethCalls();
  node.noMulticall3 = true;
  const health: AggregateHealth = {};
  const rpc: PinnedRpcOptions = {
    ...nodeRpc(node.url),
    aggregate: { address: MULTICALL3_ADDRESS, callsPerAggregate: 1000, health },
  };
  expect(await readPoolStates(rpc, VAULT, stored, node.head.number)).toEqual(plain);
  expect(health.codeless).toEqual({ block: `0x${node.head.number.toString(16)}` });
  const codeAsked = node.methodCounts.get('eth_getCode');
  node.mine([]);
  const before = ethCalls();
  expect((await readPoolStates(rpc, VAULT, stored, node.head.number)).size).toBe(POOLS);
  // No aggregate tried again, no code asked again: every getter as its own call, as a plain read.
  expect(node.methodCounts.get('eth_getCode')).toBe(codeAsked);
  expect(ethCalls() - before).toBe(plainAsked);
});

test('an empty aggregate answer while Multicall3 has code is no answer', async () => {
  node.lie = (c) => (c.to === MULTICALL3_ADDRESS ? { result: '0x' } : undefined);
  const health: AggregateHealth = {};
  const rpc: PinnedRpcOptions = {
    ...nodeRpc(node.url),
    aggregate: { address: MULTICALL3_ADDRESS, callsPerAggregate: 1000, health },
  };
  await expect(readPoolStates(rpc, VAULT, stored, node.head.number)).rejects.toThrow(MalformedAnswerError);
  expect(health.codeless).toBeUndefined();
});

test('a node that lacks the block fails the aggregate as it failed each call', async () => {
  await expect(readPoolStates(aggregated(), VAULT, stored, node.head.number + 5)).rejects.toThrow(UpstreamError);
});

test('an aggregate answered from the block before fails the read, though no log named a pool', async () => {
  node.mine([]);
  node.answerFromBlocksBack = 1;
  await expect(readPoolStates(aggregated(), VAULT, stored, node.head.number)).rejects.toThrow(/another block/);
});

describe('the aggregate answer is decoded strictly', () => {
  const good = MULTICALL3_ABI.encodeFunctionResult('aggregate3', [
    [
      [true, '0x' + '00'.repeat(31) + '2a'],
      [false, '0x'],
      [true, '0x1234'],
    ],
  ]);

  test('a canonical answer: each result with its own success flag', () => {
    expect(decodeAggregate3(good, 3, 'test')).toEqual([
      { ok: true, result: '0x' + '00'.repeat(31) + '2a', hexData: true },
      { ok: false, error: 'execution reverted (inside aggregate3)', code: 3, data: '0x' },
      { ok: true, result: '0x1234', hexData: true },
    ]);
  });

  test.each<[string, unknown, number]>([
    ['null', null, 3],
    ['0x', '0x', 3],
    ['fewer results than calls', good, 4],
    ['more results than calls', good, 2],
    ['cut short', good.slice(0, good.length - 64), 3],
    ['bytes past its results', good + '00'.repeat(32), 3],
    ['a success flag that is not a bool', good.replace(/0{63}1(?=0{62}40)/, '0'.repeat(63) + '2'), 3],
    ['text that is not hex', 'hello', 3],
  ])('%s is a malformed answer', (_what, answer, count) => {
    expect(() => decodeAggregate3(answer, count, 'test')).toThrow(MalformedAnswerError);
  });

  test('the calldata decodes with the ABI', () => {
    const calls = [
      { to: WETH, data: '0x' },
      { to: USDC, data: '0x70a08231' + '00'.repeat(12) + 'ab'.repeat(20) },
    ];
    expect(innerCalls({ to: MULTICALL3_ADDRESS, data: encodeAggregate3(calls) })).toEqual(calls);
  });
});

test("the fakes' codec and the service's agree with ethers' general ABI coder", () => {
  const calls = [
    { to: WETH, data: '0x' },
    { to: USDC, data: '0x70a08231' + '00'.repeat(12) + 'ab'.repeat(20) },
  ];
  const data = encodeAggregate3(calls);
  const [decoded] = MULTICALL3_ABI.decodeFunctionData('aggregate3', data) as unknown as [
    { target: string; allowFailure: boolean; callData: string }[],
  ];
  expect(decoded.map((c) => [c.target.toLowerCase(), c.allowFailure, c.callData])).toEqual(
    calls.map((c) => [c.to, true, c.data]),
  );
  const results: [boolean, string][] = [
    [true, '0x' + 'ab'.repeat(33)],
    [false, '0x08c379a0'],
  ];
  const encoded = encodeResults(results);
  expect(encoded).toBe(MULTICALL3_ABI.encodeFunctionResult('aggregate3', [results]));
  expect(decodeResults(encoded)).toEqual(results);
  expect(decodeAggregate3(encoded, 2, 'test').map((o) => o.ok)).toEqual([true, false]);
});
