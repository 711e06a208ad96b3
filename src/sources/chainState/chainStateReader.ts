import { Interface, type Result } from 'ethers';
import type { BlockRef, PoolChainState } from '../../domain/chainState';
import type { StoredPool } from '../../domain/pool';
import { UpstreamError } from '../upstream';
import { callBatch, RPC_UPSTREAM, type JsonRpcOptions, type RpcCall, type RpcOutcome } from '../rpc/jsonRpc';

/**
 * Reads pool state from the chain's node in JSON-RPC batches, every `eth_call` pinned to one block
 * number, so a read is the chain at that block and nothing else: the Vault's balances, and per
 * pool type the getters its math needs (domain/chainState.ts says how they replace the stored
 * values). Also the head block and the Vault's logs that name pools whose balances moved.
 * A node that fails a whole request, or any call for another reason than a revert (a block it
 * does not have yet, a per-call rate limit, a missing answer), is an `UpstreamError`: a read is the
 * whole block or nothing. Only a getter that reverts (a pool type without it) leaves its field out.
 */

const VAULT = new Interface([
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
  'event Swap(bytes32 indexed poolId, address indexed tokenIn, address indexed tokenOut, uint256 amountIn, uint256 amountOut)',
  'event PoolBalanceChanged(bytes32 indexed poolId, address indexed liquidityProvider, address[] tokens, int256[] deltas, uint256[] protocolFeeAmounts)',
  'event PoolBalanceManaged(bytes32 indexed poolId, address indexed assetManager, address indexed token, int256 cashDelta, int256 managedDelta)',
]);

const POOL = new Interface([
  'function getSwapFeePercentage() view returns (uint256)',
  'function getPausedState() view returns (bool paused, uint256 pauseWindowEndTime, uint256 bufferPeriodEndTime)',
  'function inRecoveryMode() view returns (bool)',
  'function totalSupply() view returns (uint256)',
  'function getNormalizedWeights() view returns (uint256[])',
  'function getAmplificationParameter() view returns (uint256 value, bool isUpdating, uint256 precision)',
  'function getTokenRate(address token) view returns (uint256)',
  'function getTokenRateCache(address token) view returns (uint256 rate, uint256 oldRate, uint256 duration, uint256 expires)',
  'function getLastJoinExitData() view returns (uint256 lastJoinExitAmplification, uint256 lastPostJoinExitInvariant)',
  'function getProtocolFeePercentageCache(uint256 feeType) view returns (uint256)',
  'function getTargets() view returns (uint256 lowerTarget, uint256 upperTarget)',
  'function getWrappedTokenRate() view returns (uint256)',
]);

/** ProtocolFeeType ids of the protocol fee percentage cache. */
const FEE_TYPE_SWAP = 0;
const FEE_TYPE_YIELD = 2;

/** Topics of the Vault events that change a pool's balances; topic 1 is the pool id. */
export const VAULT_BALANCE_TOPICS: readonly string[] = ['Swap', 'PoolBalanceChanged', 'PoolBalanceManaged'].map(
  (name) => VAULT.getEvent(name)!.topicHash,
);

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Draft = Mutable<Omit<PoolChainState, 'rates' | 'oldRates'>> & {
  rates?: Map<string, bigint>;
  oldRates?: Map<string, bigint>;
};

/** One `eth_call` and what its answer sets in the pool's draft. */
interface Read {
  readonly to: string;
  readonly data: string;
  readonly fn: string;
  readonly iface: Interface;
  readonly apply: (draft: Draft, result: Result) => void;
}

const hex = (n: number) => `0x${n.toString(16)}`;

function poolCall(pool: StoredPool, fn: string, args: unknown[], apply: Read['apply']): Read {
  return { to: pool.address, data: POOL.encodeFunctionData(fn, args), fn, iface: POOL, apply };
}

/** What to ask about one pool, by what its stored shape says it has. */
function readsFor(vault: string, pool: StoredPool): Read[] {
  const reads: Read[] = [
    {
      to: vault,
      data: VAULT.encodeFunctionData('getPoolTokens', [pool.id]),
      fn: 'getPoolTokens',
      iface: VAULT,
      apply: (d, r) => {
        const addresses = r[0] as string[];
        const balances = r[1] as bigint[];
        d.tokens = addresses.map((a, i) => ({ address: a.toLowerCase(), balance: balances[i] ?? 0n }));
      },
    },
    poolCall(pool, 'getSwapFeePercentage', [], (d, r) => (d.swapFee = r[0] as bigint)),
    poolCall(pool, 'getPausedState', [], (d, r) => (d.paused = r[0] as boolean)),
    poolCall(pool, 'inRecoveryMode', [], (d, r) => (d.recoveryMode = r[0] as boolean)),
    poolCall(pool, 'totalSupply', [], (d, r) => (d.totalSupply = r[0] as bigint)),
  ];
  if (pool.tokens.some((t) => t.weight !== null))
    reads.push(poolCall(pool, 'getNormalizedWeights', [], (d, r) => (d.weights = [...(r[0] as bigint[])])));
  if (pool.amp !== null)
    reads.push(
      poolCall(
        pool,
        'getAmplificationParameter',
        [],
        (d, r) => (d.amp = { value: r[0] as bigint, precision: r[2] as bigint }),
      ),
    );
  if (pool.poolType === 'ComposableStable') {
    for (const t of pool.tokens) {
      if (t.address === pool.address) continue;
      reads.push(
        poolCall(pool, 'getTokenRate', [t.address], (d, r) => (d.rates ??= new Map()).set(t.address, r[0] as bigint)),
      );
      // Reverts for tokens without a rate provider: they have no cache and no old rate.
      reads.push(
        poolCall(pool, 'getTokenRateCache', [t.address], (d, r) =>
          (d.oldRates ??= new Map()).set(t.address, r[1] as bigint),
        ),
      );
    }
    reads.push(
      poolCall(
        pool,
        'getLastJoinExitData',
        [],
        (d, r) => (d.lastJoinExit = { amp: r[0] as bigint, invariant: r[1] as bigint }),
      ),
      poolCall(
        pool,
        'getProtocolFeePercentageCache',
        [FEE_TYPE_SWAP],
        (d, r) => (d.protocolSwapFeeCache = r[0] as bigint),
      ),
      poolCall(
        pool,
        'getProtocolFeePercentageCache',
        [FEE_TYPE_YIELD],
        (d, r) => (d.protocolYieldFeeCache = r[0] as bigint),
      ),
    );
  }
  if (pool.lowerTarget !== null && pool.upperTarget !== null) {
    reads.push(
      poolCall(pool, 'getTargets', [], (d, r) => (d.targets = { lower: r[0] as bigint, upper: r[1] as bigint })),
    );
    const wrapped = pool.wrappedIndex === null ? undefined : pool.tokens[pool.wrappedIndex];
    if (wrapped)
      reads.push(
        poolCall(pool, 'getWrappedTokenRate', [], (d, r) =>
          (d.rates ??= new Map()).set(wrapped.address, r[0] as bigint),
        ),
      );
  }
  return reads;
}

/**
 * A revert is the contract's answer (the getter is missing, the Vault does not know the pool);
 * anything else a node says about one call (header not found, rate limited) is the node's failure.
 */
export function isRevert(outcome: { readonly error: string; readonly code?: number }): boolean {
  return outcome.code === 3 || /revert/i.test(outcome.error);
}

function decoded(read: Read, outcome: RpcOutcome | undefined, blockNumber: number): Result | undefined {
  if (!outcome)
    throw new UpstreamError(RPC_UPSTREAM, `eth_call ${read.fn} at block ${blockNumber}: no answer for this call`);
  if (!outcome.ok) {
    if (isRevert(outcome)) return undefined;
    throw new UpstreamError(RPC_UPSTREAM, `eth_call ${read.fn} at block ${blockNumber} failed: ${outcome.error}`);
  }
  if (typeof outcome.result !== 'string' || outcome.result === '0x') return undefined;
  try {
    return read.iface.decodeFunctionResult(read.fn, outcome.result);
  } catch {
    return undefined;
  }
}

/** How many calls a read of these pools makes (the README's per-block figures). */
export function callsFor(vault: string, pools: readonly StoredPool[]): number {
  return pools.reduce((n, p) => n + readsFor(vault, p).length, 0);
}

/**
 * The state of each pool at `blockNumber`, keyed by pool id. A pool whose `getPoolTokens` the
 * Vault refuses (reverts: not registered there) is left out; a call the node fails otherwise
 * throws `UpstreamError`, so the caller publishes nothing of this block.
 */
export async function readPoolStates(
  rpc: JsonRpcOptions,
  vault: string,
  pools: readonly StoredPool[],
  blockNumber: number,
): Promise<Map<string, PoolChainState>> {
  const plans = pools.map((p) => ({ pool: p, reads: readsFor(vault, p) }));
  const calls: RpcCall[] = plans.flatMap(({ reads }) =>
    reads.map((r) => ({ method: 'eth_call', params: [{ to: r.to, data: r.data }, hex(blockNumber)] })),
  );
  const outcomes = await callBatch(rpc, calls);
  const out = new Map<string, PoolChainState>();
  let at = 0;
  for (const { pool, reads } of plans) {
    const draft: Draft = { poolId: pool.id, tokens: [] };
    let known = true;
    reads.forEach((read, i) => {
      const result = decoded(read, outcomes[at + i], blockNumber);
      if (result) read.apply(draft, result);
      else if (i === 0) known = false;
    });
    at += reads.length;
    if (known) out.set(pool.id, draft);
  }
  return out;
}

interface RawBlock {
  readonly number?: unknown;
  readonly hash?: unknown;
  readonly parentHash?: unknown;
  readonly timestamp?: unknown;
}

function toBlock(outcome: RpcOutcome | undefined, what: string): BlockRef | null {
  if (!outcome?.ok)
    throw new UpstreamError(RPC_UPSTREAM, `eth_getBlockByNumber(${what}) failed: ${outcome?.error ?? 'no answer'}`);
  if (outcome.result === null) return null;
  const b = outcome.result as RawBlock;
  if (
    typeof b?.number !== 'string' ||
    typeof b.hash !== 'string' ||
    typeof b.parentHash !== 'string' ||
    typeof b.timestamp !== 'string'
  )
    throw new UpstreamError(
      RPC_UPSTREAM,
      `eth_getBlockByNumber(${what}) answered without number, hash, parentHash and timestamp`,
    );
  return {
    number: Number(BigInt(b.number)),
    hash: b.hash.toLowerCase(),
    parentHash: b.parentHash.toLowerCase(),
    timestamp: Number(BigInt(b.timestamp)),
  };
}

/**
 * The head block and, in the same batch, the block now at `known` (null when the chain is
 * shorter): whether it still has the hash the state was read at tells a reorg apart.
 */
export async function readHead(
  rpc: JsonRpcOptions,
  known?: number,
): Promise<{ head: BlockRef; atKnown: BlockRef | null | undefined }> {
  const calls: RpcCall[] = [{ method: 'eth_getBlockByNumber', params: ['latest', false] }];
  if (known !== undefined) calls.push({ method: 'eth_getBlockByNumber', params: [hex(known), false] });
  const [latest, atKnown] = await callBatch(rpc, calls);
  const head = toBlock(latest, 'latest');
  if (!head) throw new UpstreamError(RPC_UPSTREAM, 'eth_getBlockByNumber(latest) answered null');
  return { head, atKnown: known === undefined ? undefined : toBlock(atKnown, hex(known)) };
}

/**
 * The node answered but refused this `eth_getLogs` (providers cap a query's block range or result
 * count): a smaller range may pass, unlike a node that does not answer at all.
 */
export class LogsRefusedError extends UpstreamError {}

/**
 * Ids of the pools whose Vault balances moved in blocks `from`..`to` (Swap, PoolBalanceChanged,
 * PoolBalanceManaged). A refused query is a `LogsRefusedError`.
 */
export async function readMovedPools(
  rpc: JsonRpcOptions,
  vault: string,
  from: number,
  to: number,
): Promise<Set<string>> {
  const [outcome] = await callBatch(rpc, [
    {
      method: 'eth_getLogs',
      params: [{ address: vault, fromBlock: hex(from), toBlock: hex(to), topics: [VAULT_BALANCE_TOPICS] }],
    },
  ]);
  if (!outcome?.ok)
    throw new LogsRefusedError(RPC_UPSTREAM, `eth_getLogs ${from}..${to} failed: ${outcome?.error ?? 'no answer'}`);
  if (!Array.isArray(outcome.result)) throw new UpstreamError(RPC_UPSTREAM, 'eth_getLogs answered without a list');
  const ids = new Set<string>();
  for (const log of outcome.result as { topics?: unknown }[]) {
    const topic = Array.isArray(log?.topics) ? log.topics[1] : undefined;
    if (typeof topic === 'string') ids.add(topic.toLowerCase());
  }
  return ids;
}
