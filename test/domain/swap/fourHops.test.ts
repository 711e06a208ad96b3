import { SwapEngine } from '../../../src/domain/swap/engine';
import { buildModels } from '../../../src/domain/swap/models';
import type { PoolSpec } from '../../../src/domain/swap/poolModel';
import { replayBatchSwap } from '../../../src/domain/swap/replay';
import { toBatchSwap } from '../../../src/domain/swap/route';

/**
 * Four-hop paths in V2: a token sold in an LBP whose other token reaches the buy token only
 * through two pool tokens (a boosted pool's BPTs) is routed over four hops when no shorter path
 * exists.
 */

const SALE = '0x00000000000000000000000000000000000000a1';
const WETH = '0x00000000000000000000000000000000000000e1';
const DAI = '0x00000000000000000000000000000000000000d1';
const U = ['0x00000000000000000000000000000000000000f1', '0x00000000000000000000000000000000000000f2'];

let nonce = 0x100;
function pool(tokens: [string, string][], type = 'Weighted', weights?: string[]): PoolSpec {
  const address = `0x${(++nonce).toString(16).padStart(40, '0')}`;
  return {
    id: `${address}000200000000000000000000`.slice(0, 66).padEnd(66, '0'),
    address,
    poolType: type,
    poolTypeVersion: type === 'Weighted' ? 2 : 1,
    swapFee: '0.003',
    totalShares: '1000',
    tokens: tokens.map(([t, balance], k) => ({
      address: t,
      balance,
      decimals: 18,
      weight: weights?.[k] ?? '0.5',
      priceRate: '1',
    })),
  };
}

test('token -> LBP -> connector -> BPT -> BPT -> token is found where no shorter path exists', () => {
  // Two pools whose BPTs are the middle tokens of the path.
  const bptA = pool([
    [U[0]!, '1000'],
    [U[1]!, '1000'],
  ]);
  const bptB = pool([
    [U[1]!, '1000'],
    [U[0]!, '1000'],
  ]);
  const lbp = pool(
    [
      [SALE, '1000000'],
      [WETH, '100'],
    ],
    'LiquidityBootstrapping',
    ['0.8', '0.2'],
  );
  const wethToA = pool([
    [WETH, '1000'],
    [bptA.address, '3000000'],
  ]);
  const aToB = pool([
    [bptA.address, '1000000'],
    [bptB.address, '1000000'],
  ]);
  const bToDai = pool([
    [bptB.address, '1000000'],
    [DAI, '1000000'],
  ]);
  const engine = new SwapEngine(buildModels([bptA, bptB, lbp, wethToA, aToB, bToDai], { timestamp: 0 }).models);
  const route = engine.route({ tokenIn: SALE, tokenOut: DAI, kind: 'sell', amount: 10n ** 21n, gasPerSwap: () => 0n });
  expect(route).toBeDefined();
  expect(route!.paths.map((p) => p.path.map((h) => h.pool.address))).toEqual([
    [lbp.address, wethToA.address, aToB.address, bToDai.address],
  ]);
  const batch = toBatchSwap(route!);
  const replay = replayBatchSwap('sell', batch.steps, batch.assets, (id) => engine.model(id));
  if (!replay.ok) throw new Error(replay.reason);
  expect(-replay.deltas[1]!).toBe(route!.returnAmount);
});
