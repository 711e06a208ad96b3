import { parentPort, workerData } from 'node:worker_threads';
import { chainById } from '../../src/config/chains';
import { EngineRouter } from '../../src/routing/engineRouter';
import { loadSnapshotPools } from '../helpers/snapshot';
import { directPools } from './directSor';
import { exactOfSorRoute, specsOf } from './exactReplay';

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
const pools = directPools(loadSnapshotPools());
const router = new EngineRouter(chain, specsOf(pools));
router.engineAt(timestamp);
requests.forEach((req, k) => {
  parentPort!.postMessage({ started: k } satisfies WorkerMessage);
  const { info } = router.routeNow({ ...req, gasPrice: '0', timestamp });
  const exact =
    info.swaps.length > 0 ? exactOfSorRoute(req.orderKind, info, pools, chain.wrappedNative, timestamp) : undefined;
  parentPort!.postMessage({
    done: k,
    returnAmount: info.returnAmount,
    swaps: info.swaps.length,
    ...(exact === undefined ? {} : { exact: exact.toString() }),
  } satisfies WorkerMessage);
});
