import { Contract } from 'ethers';
import { applyChainState, type PoolChainState } from '../../../src/domain/chainState';
import { stateAt } from '../../../src/domain/chainTime';
import { ownStateOf } from '../../../src/domain/poolTypes/chainReads';
import { LBP_CHAIN } from '../../../src/domain/poolTypes/weighted/weightedReads';
import type { StoredPool } from '../../../src/domain/pool';
import { normalizePool } from '../../../src/domain/normalizePool';
import type { Devnet, DevnetPool } from '../../../src/devnet/devnet';
import { ensureDevnet } from '../../../src/devnet/ensure';
import { OnchainPoolReader } from '../../../src/devnet/indexer/onchainPools';
import { toSubgraphPool } from '../../../src/devnet/indexer/subgraphPools';
import { lbpOwnerContract, startLbpWeightUpdate } from '../../../src/devnet/lbpWeightUpdate';
import { LocalChain, serveChain } from '../../../src/devnet/localChain';
import { pricesByAddress } from '../../../src/devnet/prices';
import { DEMO_LBP_WEIGHT_UPDATE } from '../../../src/devnet/universe';
import { readHead } from '../../../src/sources/chainState/headReads';
import { readMovedPools } from '../../../src/sources/chainState/logReads';
import { readPoolStates } from '../../../src/sources/chainState/chainStateReader';
import type { JsonRpcOptions } from '../../../src/sources/rpc/jsonRpc';
import { nodeRpc } from '../../helpers/nodeRpc';

/**
 * A liquidity bootstrapping pool during a gradual weight update on the real 2021 LBP contract
 * (the devnet's no-protocol-fee factory): what the reader reads at one block, evaluated at later
 * timestamps (src/domain/chainTime.ts), is what the pool's own getNormalizedWeights() answers in a
 * block mined at each of them; the owner's schedule and swap switch name the pool for a re-read.
 */
let chain: LocalChain;
let devnet: Devnet;
let rpc: JsonRpcOptions;
let lbp: DevnetPool;
let stored: StoredPool;

const WEIGHTS = ['function getNormalizedWeights() view returns (uint256[])'];

beforeAll(async () => {
  chain = await serveChain('127.0.0.1', 0);
  devnet = (await ensureDevnet(chain.provider)).devnet;
  rpc = nodeRpc(chain.rpcUrl!);
  lbp = devnet.pools.find((p) => p.name === DEMO_LBP_WEIGHT_UPDATE.pool)!;
  const onchain = (await new OnchainPoolReader(chain.provider, devnet.addresses).readAll()).find(
    (p) => p.id === lbp.id,
  )!;
  const n = normalizePool(toSubgraphPool(onchain, pricesByAddress(devnet)));
  if (!n.ok) throw new Error(n.error);
  stored = n.pool as StoredPool;
}, 120_000);

afterAll(async () => {
  await chain?.close();
});

const lbpOf = (s: PoolChainState) => ownStateOf(LBP_CHAIN, s.own)!;

async function readLbp(): Promise<{ state: PoolChainState; block: number }> {
  const { head } = await readHead(rpc);
  const state = (await readPoolStates(rpc, devnet.addresses.vault, [stored], head.number)).get(lbp.id)!;
  return { state, block: head.number };
}

/** The pool's own weights in a block mined at `timestamp`. */
async function weightsOnChainAt(timestamp: number): Promise<bigint[]> {
  await chain.provider.send('evm_setNextBlockTimestamp', [timestamp]);
  await chain.provider.send('evm_mine', []);
  const block = (await chain.provider.getBlock('latest'))!;
  expect(block.timestamp).toBe(timestamp);
  const pool = new Contract(lbp.address, WEIGHTS, chain.provider);
  return [...((await pool.getFunction('getNormalizedWeights')({ blockTag: block.number })) as bigint[])];
}

test('a still LBP has no weight update to follow, and its swaps are on', async () => {
  const { state } = await readLbp();
  expect(lbpOf(state).weightUpdate).toBeUndefined();
  expect(lbpOf(state).swapEnabled).toBe(true);
  // 90/10 as deployed (SALEA first in the Vault's order), as the pool answers once its creation's
  // zero-length update is over: the end weights it keeps in 16 bits, ceil(ceil(0.9 * 65535) * 1e18 / 65535).
  expect(lbpOf(state).weights).toEqual([900_007_629_510_948_349n, 100_007_629_510_948_349n]);
});

test("during a weight update the read state evaluated at later timestamps is the contract's weights in blocks at those timestamps", async () => {
  const before = (await readHead(rpc)).head.number;
  const update = await startLbpWeightUpdate(chain.provider, devnet, DEMO_LBP_WEIGHT_UPDATE);
  const { state, block } = await readLbp();
  // The schedule event names the pool, so the follower re-reads it.
  expect([...(await readMovedPools(rpc, devnet.addresses.vault, before + 1, block)).pools.keys()]).toContain(
    lbp.address,
  );
  expect(lbpOf(state).weightUpdate).toMatchObject({
    startTime: BigInt(update.startTime),
    endTime: BigInt(update.endTime),
  });
  expect(lbpOf(state).weightUpdate?.endWeights).toEqual(update.endWeights);
  // The devnet's indexer describes the moving pool as it stands at the head, as the reader does.
  const indexed = (await new OnchainPoolReader(chain.provider, devnet.addresses).readAll()).find(
    (p) => p.id === lbp.id,
  )!;
  expect(indexed.tokens.map((t) => t.weight)).toEqual(lbpOf(state).weights);
  const span = update.endTime - update.startTime;
  const offsets = [1, 2, 7, 3_600 + 13, Math.floor(span / 3), span - 1, span, span + 100];
  let moved = 0;
  let last: bigint[] | undefined;
  for (const offset of offsets) {
    const t = update.startTime + offset;
    const onChain = await weightsOnChainAt(t);
    expect(lbpOf(stateAt(state, t)).weights).toEqual(onChain);
    if (last && onChain.some((w, i) => w !== last![i])) moved++;
    last = onChain;
  }
  // The weights did move between the timestamps checked (until the end).
  expect(moved).toBeGreaterThanOrEqual(offsets.length - 3);
  expect(last).toEqual(update.endWeights);
});

test('a second update started half way starts from the weights then, kept at the 31-bit precision the pool stores', async () => {
  const first = await startLbpWeightUpdate(chain.provider, devnet, DEMO_LBP_WEIGHT_UPDATE);
  const half = first.startTime + Math.floor((first.endTime - first.startTime) / 2) + 17;
  await chain.provider.send('evm_setNextBlockTimestamp', [half]);
  await chain.provider.send('evm_mine', []);
  // Back towards 90/10 over a day, from wherever the first update had got to.
  const second = await startLbpWeightUpdate(chain.provider, devnet, {
    pool: DEMO_LBP_WEIGHT_UPDATE.pool,
    endWeights: { SALEA: '0.9', WETH: '0.1' },
    seconds: 86_400,
  });
  expect(second.startTime).toBeGreaterThan(half);
  const { state } = await readLbp();
  expect(lbpOf(state).weightUpdate?.startTime).toBe(BigInt(second.startTime));
  for (const offset of [1, 5, 40_000, 86_399]) {
    const t = second.startTime + offset;
    expect(lbpOf(stateAt(state, t)).weights).toEqual(await weightsOnChainAt(t));
  }
});

test("the owner's swap switch is read, names the pool for a re-read, and takes the pool out of routing", async () => {
  const before = (await readHead(rpc)).head.number;
  await (await lbpOwnerContract(chain.provider, lbp).getFunction('setSwapEnabled')(false)).wait();
  const { state, block } = await readLbp();
  expect([...(await readMovedPools(rpc, devnet.addresses.vault, before + 1, block)).pools.keys()]).toContain(
    lbp.address,
  );
  expect(lbpOf(state).swapEnabled).toBe(false);
  expect(applyChainState(stored, state).swapEnabled).toBe(false);
  const indexed = (await new OnchainPoolReader(chain.provider, devnet.addresses).readAll()).find(
    (p) => p.id === lbp.id,
  )!;
  expect(toSubgraphPool(indexed, pricesByAddress(devnet)).swapEnabled).toBe(false);
  await (await lbpOwnerContract(chain.provider, lbp).getFunction('setSwapEnabled')(true)).wait();
  expect(lbpOf((await readLbp()).state).swapEnabled).toBe(true);
});
