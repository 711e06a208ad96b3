import { parentPort, workerData } from 'node:worker_threads';
import { chainById } from '../../../src/config/chains';
import { buildModels } from '../../../src/domain/swap/models';
import { replayBatchSwap } from '../../../src/domain/swap/replay';
import { EngineRouter } from '../../../src/routing/v2/engineRouter';
import type { SerializedSwapInfo } from '../../../src/routing/types';
import { loadSnapshotPools } from '../../helpers/snapshot';
import { directPools } from './directSor';
import { specsOf } from './exactReplay';

/**
 * Worker thread for `engineTerminates.test.ts`: quotes each request on the mainnet snapshot with
 * the own engine and posts, per request, that it started and then what it answered with the exact
 * replay of its swaps. A quote that never ends blocks this thread only; the test sees which one.
 */

export interface SnapshotQuote {
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: 'sell' | 'buy';
  readonly amount: string;
}

export type WorkerMessage =
  | { readonly started: number }
  | { readonly done: number; readonly returnAmount: string; readonly swaps: number; readonly exact?: string };

const { timestamp, requests } = workerData as { timestamp: number; requests: readonly SnapshotQuote[] };
const chain = chainById(1)!;
const specs = specsOf(directPools(loadSnapshotPools()));
const router = new EngineRouter(chain, specs);
router.engineAt(timestamp);
// Models of their own, so the replay shares no state with the engine that proposed the route.
const models = new Map(buildModels(specs, { timestamp }).models.map((m) => [m.id, m]));

/** What the Vault pays (buy) or returns (sell) for the answer's swaps. */
function exactReplay(kind: 'sell' | 'buy', info: SerializedSwapInfo): bigint | undefined {
  const steps = info.swaps.map((s) => ({
    poolId: s.poolId.toLowerCase(),
    assetInIndex: s.assetInIndex,
    assetOutIndex: s.assetOutIndex,
    amount: BigInt(s.amount),
  }));
  const r = replayBatchSwap(kind, steps, info.tokenAddresses, (id) => models.get(id));
  if (!r.ok) return undefined;
  const index = info.tokenAddresses.indexOf(kind === 'sell' ? info.tokenOut : info.tokenIn);
  const delta = r.deltas[index];
  return delta === undefined ? undefined : kind === 'sell' ? -delta : delta;
}
requests.forEach((req, k) => {
  parentPort!.postMessage({ started: k } satisfies WorkerMessage);
  const { info } = router.routeNow({ ...req, gasPrice: '0', timestamp });
  const exact = info.swaps.length > 0 ? exactReplay(req.orderKind, info) : undefined;
  parentPort!.postMessage({
    done: k,
    returnAmount: info.returnAmount,
    swaps: info.swaps.length,
    ...(exact === undefined ? {} : { exact: exact.toString() }),
  } satisfies WorkerMessage);
});
