import { addMoved, type MovedInBlocks } from '../../sources/chainState/movedInBlocks';
import { LogsRefusedError } from '../../sources/chainState/logReads';

/**
 * How the follower asks a node for a range of logs. Providers cap `eth_getLogs` by block range or
 * result count, so a refused range is halved and each half asked again.
 */

/** Beyond this many blocks behind, re-reading every pool is cheaper than asking for the logs. */
export const MAX_LOG_SPAN = 2_000;

/**
 * `read` over `from`..`to`, the range halved while the node refuses it (a `LogsRefusedError`);
 * null when even a single block is refused. Any other failure is thrown.
 */
export async function movedInHalves(
  from: number,
  to: number,
  read: (from: number, to: number) => Promise<MovedInBlocks>,
): Promise<MovedInBlocks | null> {
  try {
    return await read(from, to);
  } catch (e) {
    if (!(e instanceof LogsRefusedError)) throw e;
    if (from >= to) return null;
  }
  const mid = Math.floor((from + to) / 2);
  const low = await movedInHalves(from, mid, read);
  if (!low) return null;
  const high = await movedInHalves(mid + 1, to, read);
  if (!high) return null;
  return addMoved(low, high);
}
