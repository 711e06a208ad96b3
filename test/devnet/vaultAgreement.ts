import { Contract, type Provider } from 'ethers';
import { balancerAbi } from '../../src/devnet/artifacts';
import type { DevnetAddresses } from '../../src/devnet/devnet';
import { OnchainPoolReader } from '../../src/devnet/indexer/onchainPools';
import { toSubgraphPool } from '../../src/devnet/indexer/subgraphPools';
import { normalizePool } from '../../src/domain/normalizePool';
import { buildModels } from '../../src/domain/swap/models';
import type { PoolModel, PoolSpec, SwapKind } from '../../src/domain/swap/poolModel';
import { replayBatchSwap } from '../../src/domain/swap/replay';
import type { BatchStep } from '../../src/domain/swap/route';

/**
 * Agreement between a stored pool and the chain: what `Vault.queryBatchSwap` answers for a swap
 * (or a path of swaps, chained as a batch) on the chain's current state, next to what our pool
 * models answer for the same swap over the pool as the store keeps it. Any suite with a devnet can
 * use it: the pool-math tests for one pool and one swap, the end-to-end suite for a route.
 *
 * An answer is the computed amount (out of a givenIn path, in to a givenOut path) or, where the
 * Vault reverts, its error code ("BAL#304"); our side answers "revert: <reason>" for a model that
 * throws, so two reverts agree whatever their wording and a revert never equals an amount.
 */
export type Answer = bigint | `BAL#${string}` | `revert: ${string}`;

export interface Hop {
  readonly poolId: string;
  /** Lower-case token addresses (a pool's own BPT included). */
  readonly tokenIn: string;
  readonly tokenOut: string;
}

export interface Agreement {
  readonly ours: Answer;
  readonly chain: Answer;
  /** Both the same amount, or both a revert. */
  readonly agree: boolean;
}

/** The batch the Vault runs for a path: amount on the first executed hop, 0 (= the previous result) after. */
function batchOf(kind: SwapKind, path: readonly Hop[], amount: bigint): { assets: string[]; steps: BatchStep[] } {
  if (path.length === 0) throw new Error('a path needs at least one hop');
  const assets: string[] = [];
  const indexOf = (token: string): number => {
    const t = token.toLowerCase();
    let k = assets.indexOf(t);
    if (k < 0) k = assets.push(t) - 1;
    return k;
  };
  // A givenOut batch runs from the last hop backwards, each hop's amount in paying the one before.
  const ordered = kind === 'givenIn' ? path : [...path].reverse();
  const steps = ordered.map((hop, n) => ({
    poolId: hop.poolId.toLowerCase(),
    assetInIndex: indexOf(hop.tokenIn),
    assetOutIndex: indexOf(hop.tokenOut),
    amount: n === 0 ? amount : 0n,
  }));
  return { assets, steps };
}

function resultOf(kind: SwapKind, path: readonly Hop[], assets: readonly string[], deltas: readonly bigint[]): bigint {
  if (kind === 'givenIn') return -deltas[assets.indexOf(path[path.length - 1]!.tokenOut.toLowerCase())]!;
  return deltas[assets.indexOf(path[0]!.tokenIn.toLowerCase())]!;
}

function revertCode(e: unknown): Answer {
  const err = e as { reason?: string; shortMessage?: string; message?: string };
  const text = String(err.reason ?? err.shortMessage ?? err.message ?? e);
  const code = /BAL#\d{3}/.exec(text)?.[0];
  return code ? (code as `BAL#${string}`) : `revert: ${text.slice(0, 160)}`;
}

/** `Vault.queryBatchSwap` (a staticCall: it is not a view) for a path on the chain's current state. */
export async function vaultAnswer(
  provider: Provider,
  vault: string,
  kind: SwapKind,
  path: readonly Hop[],
  amount: bigint,
  sender: string,
): Promise<Answer> {
  const { assets, steps } = batchOf(kind, path, amount);
  const contract = new Contract(vault, balancerAbi('Vault'), provider);
  try {
    const deltas = (await contract.getFunction('queryBatchSwap').staticCall(
      kind === 'givenIn' ? 0 : 1,
      steps.map((s) => ({ ...s, userData: '0x' })),
      assets,
      { sender, fromInternalBalance: false, recipient: sender, toInternalBalance: false },
      { from: sender },
    )) as bigint[];
    return resultOf(kind, path, assets, [...deltas]);
  } catch (e) {
    return revertCode(e);
  }
}

/** Models of stored pools by id, built once per set of pools (a quote's timestamp for Element pools). */
export function modelsOf(pools: Iterable<PoolSpec>, timestamp = Math.floor(Date.now() / 1000)): Map<string, PoolModel> {
  const built = buildModels([...pools], { timestamp });
  return new Map(built.models.map((m) => [m.id, m]));
}

/** Our answer for the same path: the stored pools' models, replayed as the Vault runs the batch. */
export function modelAnswer(
  models: ReadonlyMap<string, PoolModel>,
  kind: SwapKind,
  path: readonly Hop[],
  amount: bigint,
): Answer {
  const { assets, steps } = batchOf(kind, path, amount);
  const replay = replayBatchSwap(kind === 'givenIn' ? 'sell' : 'buy', steps, assets, (id) => models.get(id));
  return replay.ok ? resultOf(kind, path, assets, replay.deltas) : `revert: ${replay.reason}`;
}

export function agrees(ours: Answer, chain: Answer): boolean {
  if (typeof ours === 'bigint' || typeof chain === 'bigint') return ours === chain;
  return true;
}

/**
 * Our answer (the models over `models`, or a value the caller computed) against the Vault's on the
 * chain's current state. The chain must hold the state the stored pools describe.
 */
export async function compareWithVault(
  provider: Provider,
  vault: string,
  models: ReadonlyMap<string, PoolModel>,
  kind: SwapKind,
  path: readonly Hop[],
  amount: bigint,
  sender: string,
  ours?: Answer,
): Promise<Agreement> {
  const mine = ours ?? modelAnswer(models, kind, path, amount);
  const chain = await vaultAnswer(provider, vault, kind, path, amount, sender);
  return { ours: mine, chain, agree: agrees(mine, chain) };
}

/**
 * The devnet's pools as the store keeps them, without a running service: read from the chain by
 * the devnet's indexer, shaped as its subgraph serves them, and normalized by the pool-update
 * job's own validation. Pools the job would skip make this throw (the indexer must serve them).
 */
export async function storedDevnetPools(provider: Provider, addresses: DevnetAddresses): Promise<PoolSpec[]> {
  const onchain = await new OnchainPoolReader(provider, addresses).readAll();
  return onchain.map((p) => {
    const result = normalizePool(toSubgraphPool(p, new Map()));
    if (!result.ok)
      throw new Error(
        `the devnet indexer serves pool ${p.id} (${p.name}) in a shape the pool update refuses: ${result.error}`,
      );
    return result.pool;
  });
}
