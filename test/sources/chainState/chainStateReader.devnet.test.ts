import { Contract } from 'ethers';
import { applyChainState } from '../../../src/domain/chainState';
import { watchedContracts } from '../../../src/domain/chainTime';
import { unitsToDecimal } from '../../../src/domain/decimal';
import type { StoredPool } from '../../../src/domain/pool';
import { normalizePool } from '../../../src/domain/normalizePool';
import { LEGACY_FEE_BASIS_PARAMS } from '../../../src/domain/poolTypes/legacyFeeBasis';
import { storedFields } from '../../../src/domain/poolTypes/registry';
import { ensureDevnet } from '../../../src/devnet/ensure';
import type { Devnet } from '../../../src/devnet/devnet';
import { OnchainPoolReader } from '../../../src/devnet/indexer/onchainPools';
import { toSubgraphPool } from '../../../src/devnet/indexer/subgraphPools';
import { pricesByAddress } from '../../../src/devnet/prices';
import { LocalChain, serveChain } from '../../../src/devnet/localChain';
import { callsFor, readPoolStates } from '../../../src/sources/chainState/chainStateReader';
import { readHead } from '../../../src/sources/chainState/headReads';
import type { JsonRpcOptions } from '../../../src/sources/rpc/jsonRpc';
import { nodeRpc } from '../../helpers/nodeRpc';

/**
 * The chain-state reader on the real Balancer V2 contracts of the devnet (weighted v1 and v2,
 * stable, composable stable, linear, liquidity bootstrapping; the weighted v2 and composable
 * stable protocol fee basis and the LBPs' swap switch included): laid over pools whose chain-provided fields were spoiled,
 * what it reads at the head gives back, field for field, the pools the devnet's indexer builds from
 * the same chain (src/devnet/indexer/). So its units and conversions are the subgraph's.
 */
let chain: LocalChain;
let devnet: Devnet;
let rpc: JsonRpcOptions;
let indexed: StoredPool[];

beforeAll(async () => {
  chain = await serveChain('127.0.0.1', 0);
  devnet = (await ensureDevnet(chain.provider)).devnet;
  rpc = nodeRpc(chain.rpcUrl!);
  const onchain = await new OnchainPoolReader(chain.provider, devnet.addresses).readAll();
  const prices = pricesByAddress(devnet);
  indexed = onchain.map((p) => {
    const n = normalizePool(toSubgraphPool(p, prices));
    if (!n.ok) throw new Error(n.error);
    return n.pool as StoredPool;
  });
}, 120_000);

afterAll(async () => {
  await chain?.close();
});

/** Every field the chain provides set to something else (token rates: composable stable and linear wrapped). */
function spoiled(p: StoredPool): StoredPool {
  const rated = (i: number) =>
    (p.poolType === 'ComposableStable' && p.tokens[i]!.address !== p.address) || i === p.wrappedIndex;
  return {
    ...p,
    swapFee: '0.5',
    isPaused: !p.isPaused,
    // Recovery mode came with the 2022 pools: a v1 pool (weighted, the LBP) has no getter, the subgraph's value stays.
    isInRecoveryMode: p.poolTypeVersion === 1 ? p.isInRecoveryMode : !p.isInRecoveryMode,
    totalShares: '1',
    amp: p.amp === null ? null : '1',
    lowerTarget: p.lowerTarget === null ? null : '0',
    upperTarget: p.upperTarget === null ? null : '0',
    ...(p.lastJoinExitAmp === undefined ? {} : { lastJoinExitAmp: '1' }),
    // Composable stable and weighted v2+ pools' fee basis.
    ...(p.lastPostJoinExitInvariant === undefined ? {} : { lastPostJoinExitInvariant: '1' }),
    ...(p.protocolSwapFeeCache === undefined ? {} : { protocolSwapFeeCache: '0.9' }),
    protocolYieldFeeCache: p.protocolYieldFeeCache === null ? null : '0.9',
    routable: !p.routable,
    // Only liquidity bootstrapping pools have a swap switch (getSwapEnabled).
    swapEnabled: p.poolType === 'LiquidityBootstrapping' ? !p.swapEnabled : p.swapEnabled,
    tokens: p.tokens.map((t, i) => ({
      ...t,
      balance: '1',
      weight: t.weight === null ? null : '0.1',
      priceRate: rated(i) ? '3' : t.priceRate,
      ...(t.oldPriceRate === undefined ? {} : { oldPriceRate: '4' }),
    })),
  };
}

/** The legacy fee basis the test checks by itself (chain-only fields, asked of the pool here). */
const LEGACY_FEE_BASIS = LEGACY_FEE_BASIS_PARAMS.map((f) => f.name);

/** The pool without the fields only the chain has (the indexer builds the subgraph's shape), but `keep`. */
function withoutChainOnly(p: StoredPool, keep: readonly string[] = []): StoredPool {
  const chainOnly = new Set(storedFields().all.flatMap((f) => (f.chainOnly && !keep.includes(f.name) ? [f.name] : [])));
  return Object.fromEntries(Object.entries(p).filter(([k]) => !chainOnly.has(k))) as unknown as StoredPool;
}

test('what it reads at the head restores every pool type exactly as the indexer stores it', async () => {
  const { head } = await readHead(rpc);
  const states = await readPoolStates(rpc, devnet.addresses.vault, indexed, head.number);
  expect([...states.keys()].sort()).toEqual(indexed.map((p) => p.id).sort());
  const collector = String(
    await new Contract(
      devnet.addresses.vault,
      ['function getProtocolFeesCollector() view returns (address)'],
      chain.provider,
    ).getFunction('getProtocolFeesCollector')(),
  ).toLowerCase();
  const legacy = { weighted: 0, stable: 0 };
  for (const pool of indexed) {
    // Weighted v1, Stable v2 and MetaStable also get the fee basis the subgraph lacks for them: the
    // invariant after their last join or exit (with its amp, for stable) and the collector's
    // protocol swap fee percentage (zero on this chain).
    const lastInvariant = new Contract(
      pool.address,
      ['function getLastInvariant() view returns (uint256 invariant, uint256 amp)'],
      chain.provider,
    ).getFunction('getLastInvariant');
    let expected = pool;
    if (pool.poolType === 'Weighted' && pool.poolTypeVersion === 1) {
      const weighted = new Contract(
        pool.address,
        ['function getLastInvariant() view returns (uint256)'],
        chain.provider,
      );
      const invariant = (await weighted.getFunction('getLastInvariant')()) as bigint;
      expected = { ...pool, lastInvariant: unitsToDecimal(invariant, 18), vaultProtocolSwapFee: '0' };
      legacy.weighted++;
    } else if ((pool.poolType === 'Stable' && pool.poolTypeVersion! >= 2) || pool.poolType === 'MetaStable') {
      const [invariant, amp] = (await lastInvariant()) as [bigint, bigint];
      expected = {
        ...pool,
        lastInvariant: unitsToDecimal(invariant, 18),
        lastInvariantAmp: unitsToDecimal(amp, 3),
        vaultProtocolSwapFee: '0',
      };
      legacy.stable++;
    }
    if (expected !== pool) expect(watchedContracts(states.get(pool.id)!)).toEqual([collector]);
    // The pool's name leads the diff when one differs.
    expect([
      pool.name,
      withoutChainOnly(applyChainState(spoiled(pool), states.get(pool.id)!), LEGACY_FEE_BASIS),
    ]).toEqual([pool.name, expected]);
  }
  expect(legacy).toEqual({ weighted: 1, stable: 1 });
  process.stdout.write(
    `chain state reader: ${indexed.length} devnet pools (${[...new Set(indexed.map((p) => p.poolType))].join(', ')}) ` +
      `in ${callsFor(devnet.addresses.vault, indexed)} eth_calls at block ${head.number}\n`,
  );
});

test('the head comes with its hash and parent hash, and the block now at a known height', async () => {
  const { head } = await readHead(rpc);
  await chain.provider.send('evm_mine', []);
  // The head's parent is the known block: it vouches for it.
  const next = await readHead(rpc, head);
  expect(next.head.number).toBe(head.number + 1);
  expect(next.head.parentHash).toBe(head.hash);
  expect(next.atKnown?.hash).toBe(head.hash);
  // A known block the chain does not have at its height (a reorg replaced it): the chain's block is read.
  const replaced = { ...head, hash: `0x${'ab'.repeat(32)}` };
  expect((await readHead(rpc, replaced)).atKnown?.hash).toBe(head.hash);
  // A known block beyond the head (the node was rewound): nothing is there.
  expect(
    (await readHead(rpc, { ...next.head, number: next.head.number + 5, hash: `0x${'cd'.repeat(32)}` })).atKnown,
  ).toBeNull();
});
