import { movedInHalves } from '../../../src/jobs/follow/logRange';
import { LogsRefusedError } from '../../../src/sources/chainState/logReads';
import { nothingMoved, type MovedInBlocks } from '../../../src/sources/chainState/movedInBlocks';
import { RPC_UPSTREAM } from '../../../src/sources/rpc/jsonRpc';
import { UpstreamError } from '../../../src/sources/upstream';

/**
 * A node that caps `eth_getLogs` ranges: the follower halves a refused range until each part
 * passes, so it keeps following instead of re-reading every pool.
 */
function cappedNode(maxSpan: number, logs: ReadonlyMap<number, string>) {
  const asked: string[] = [];
  const read = (from: number, to: number): Promise<MovedInBlocks> => {
    asked.push(`${from}..${to}`);
    if (to - from + 1 > maxSpan) return Promise.reject(new LogsRefusedError(RPC_UPSTREAM, 'range too large'));
    const moved = nothingMoved();
    for (const [block, pool] of logs) if (block >= from && block <= to) moved.pools.set(pool, block);
    return Promise.resolve(moved);
  };
  return { read, asked };
}

test('a range the node takes is asked once', async () => {
  const node = cappedNode(100, new Map([[5, 'a']]));
  const moved = await movedInHalves(1, 10, node.read);
  expect(node.asked).toEqual(['1..10']);
  expect([...moved!.pools]).toEqual([['a', 5]]);
});

test('a refused range is halved until each part passes, and the parts are added up', async () => {
  const node = cappedNode(
    3,
    new Map([
      [2, 'a'],
      [9, 'b'],
    ]),
  );
  const moved = await movedInHalves(1, 10, node.read);
  expect(node.asked).toEqual(['1..10', '1..5', '1..3', '4..5', '6..10', '6..8', '9..10']);
  expect(new Map(moved!.pools)).toEqual(
    new Map([
      ['a', 2],
      ['b', 9],
    ]),
  );
});

test('a node that refuses even one block gives null: only a full read reaches the head then', async () => {
  const node = cappedNode(0, new Map());
  expect(await movedInHalves(7, 8, node.read)).toBeNull();
  expect(node.asked).toEqual(['7..8', '7..7']);
});

test('a node that fails otherwise fails the step, unhalved', async () => {
  const read = () => Promise.reject(new UpstreamError(RPC_UPSTREAM, 'connection refused'));
  await expect(movedInHalves(1, 10, read)).rejects.toThrow('connection refused');
});
