import { applyChainState } from '../../src/domain/chainState';
import type { StoredPool } from '../../src/domain/pool';
import { normalizePool } from '../../src/domain/normalizePool';
import { storedFields } from '../../src/domain/poolTypes/registry';
import { ensureDevnet } from '../../src/devnet/ensure';
import type { Devnet } from '../../src/devnet/devnet';
import { OnchainPoolReader } from '../../src/devnet/indexer/onchainPools';
import { toSubgraphPool } from '../../src/devnet/indexer/subgraphPools';
import { pricesByAddress } from '../../src/devnet/prices';
import { LocalChain, serveChain } from '../../src/devnet/localChain';
import { callsFor, readHead, readPoolStates } from '../../src/sources/chainState/chainStateReader';
import type { JsonRpcOptions } from '../../src/sources/rpc/jsonRpc';

/**
 * The chain-state reader on the real Balancer V2 contracts of the devnet (weighted v1 and v2,
 * stable, composable stable, linear; the weighted v2 and composable stable protocol fee basis
 * included): laid over pools whose chain-provided fields were spoiled,
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
  rpc = {
    url: chain.rpcUrl!,
    timeoutMs: 10_000,
    retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
    batchSize: 100,
  };
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
    tokens: p.tokens.map((t, i) => ({
      ...t,
      balance: '1',
      weight: t.weight === null ? null : '0.1',
      priceRate: rated(i) ? '3' : t.priceRate,
      ...(t.oldPriceRate === undefined ? {} : { oldPriceRate: '4' }),
    })),
  };
}

/** The pool without the fields only the chain has (the indexer builds the subgraph's shape). */
function withoutChainOnly(p: StoredPool): StoredPool {
  const chainOnly = new Set(storedFields().all.flatMap((f) => (f.chainOnly ? [f.name] : [])));
  return Object.fromEntries(Object.entries(p).filter(([k]) => !chainOnly.has(k))) as unknown as StoredPool;
}

test('what it reads at the head restores every pool type exactly as the indexer stores it', async () => {
  const { head } = await readHead(rpc);
  const states = await readPoolStates(rpc, devnet.addresses.vault, indexed, head.number);
  expect([...states.keys()].sort()).toEqual(indexed.map((p) => p.id).sort());
  for (const pool of indexed) {
    // The pool's name leads the diff when one differs.
    expect([pool.name, withoutChainOnly(applyChainState(spoiled(pool), states.get(pool.id)!))]).toEqual([
      pool.name,
      pool,
    ]);
  }
  process.stdout.write(
    `chain state reader: ${indexed.length} devnet pools (${[...new Set(indexed.map((p) => p.poolType))].join(', ')}) ` +
      `in ${callsFor(devnet.addresses.vault, indexed)} eth_calls at block ${head.number}\n`,
  );
});

test('the head comes with its hash and parent hash, and the block at a known height in the same batch', async () => {
  const { head } = await readHead(rpc);
  await chain.provider.send('evm_mine', []);
  const next = await readHead(rpc, head.number);
  expect(next.head.number).toBe(head.number + 1);
  expect(next.head.parentHash).toBe(head.hash);
  expect(next.atKnown?.hash).toBe(head.hash);
  expect((await readHead(rpc, next.head.number + 5)).atKnown).toBeNull();
});
