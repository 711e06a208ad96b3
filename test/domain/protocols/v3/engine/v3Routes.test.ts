import { replayV3Paths, toV3Paths } from '../../../../../src/domain/protocols/v3/engine/paths';
import { SwapEngine } from '../../../../../src/domain/swap/engine';
import type { PoolModel } from '../../../../../src/domain/swap/poolModel';
import { DAI, STATA_USDC, STATA_USDT, USDC, USDT, v3Universe } from '../../../../helpers/v3Universe';

/**
 * The engine routes a universe of V3 models (real Sepolia pools and two buffers) with its own
 * candidates, search and split; the answer is what the BatchRouter's paths give when replayed in
 * order with each step's state carried.
 */

function engineOf(): { engine: SwapEngine; modelOf: (id: string) => PoolModel | undefined } {
  const { weighted, stable, buffers } = v3Universe();
  const models: PoolModel[] = [weighted, stable, ...buffers];
  const byId = new Map(models.map((m) => [m.id, m]));
  return { engine: new SwapEngine(models), modelOf: (id) => byId.get(id) };
}

const noGas = () => 0n;

/** Each step run by hand, in path order, one fresh state per pool shared along the path. */
function chained(
  modelOf: (id: string) => PoolModel | undefined,
  path: readonly string[],
  pools: readonly string[],
  amount: bigint,
): bigint {
  const states = new Map<string, ReturnType<PoolModel['initialState']>>();
  let a = amount;
  pools.forEach((id, k) => {
    const m = modelOf(id)!;
    const s = states.get(id) ?? m.initialState();
    states.set(id, s);
    const i = m.tokens.indexOf(path[k]!);
    const j = m.tokens.indexOf(path[k + 1]!);
    const out = m.swap(s, 'givenIn', i, j, a);
    m.apply(s, i, j, a, out);
    a = out;
  });
  return a;
}

describe('V3 routes over the engine', () => {
  test('USDC -> USDT goes wrap, stable pool, unwrap: three steps, two of them buffers', () => {
    const { engine, modelOf } = engineOf();
    const amount = 1_000n * 10n ** 6n;
    const route = engine.route({
      tokenIn: USDC,
      tokenOut: USDT,
      kind: 'sell',
      amount,
      gasPerSwap: noGas,
      singlePath: true,
    })!;
    expect(route).toBeDefined();
    const [path] = toV3Paths(route);
    expect(path!.steps.map((s) => [s.tokenOut, s.isBuffer])).toEqual([
      [STATA_USDC, true],
      [STATA_USDT, false],
      [USDT, true],
    ]);
    expect(path!.steps[0]!.pool).toBe(STATA_USDC);
    const replay = replayV3Paths('sell', toV3Paths(route), modelOf);
    if (!replay.ok) throw new Error(replay.reason);
    expect(replay.amountOut).toBe(route.returnAmount);
    expect(route.returnAmount).toBe(
      chained(
        modelOf,
        [USDC, STATA_USDC, STATA_USDT, USDT],
        [STATA_USDC, modelOf(path!.steps[1]!.pool)!.id, STATA_USDT],
        amount,
      ),
    );
  });

  test('DAI -> USDT needs four steps: weighted, wrap, stable, unwrap', () => {
    const { engine, modelOf } = engineOf();
    const amount = 100n * 10n ** 18n;
    const route = engine.route({ tokenIn: DAI, tokenOut: USDT, kind: 'sell', amount, gasPerSwap: noGas })!;
    expect(route).toBeDefined();
    const paths = toV3Paths(route);
    expect(paths).toHaveLength(1);
    expect(paths[0]!.steps.map((s) => s.tokenOut)).toEqual([USDC, STATA_USDC, STATA_USDT, USDT]);
    const replay = replayV3Paths('sell', paths, modelOf);
    if (!replay.ok) throw new Error(replay.reason);
    expect(replay.amountOut).toBe(route.returnAmount);
  });

  test('a buy replays backward, last step first, and pays what the route says', () => {
    const { engine, modelOf } = engineOf();
    const amountOut = 500n * 10n ** 6n;
    const route = engine.route({
      tokenIn: DAI,
      tokenOut: USDT,
      kind: 'buy',
      amount: amountOut,
      gasPerSwap: noGas,
    })!;
    expect(route).toBeDefined();
    const paths = toV3Paths(route);
    const replay = replayV3Paths('buy', paths, modelOf);
    if (!replay.ok) throw new Error(replay.reason);
    expect(replay.amountIn).toBe(route.returnAmount);
    expect(replay.amountOut).toBe(amountOut);
    // Selling what the buy costs gives at least the amount bought (the Vault rounds against the user).
    const sell = replayV3Paths(
      'sell',
      paths.map((p, k) => ({ ...p, given: replay.paths[k]!.amountIn })),
      modelOf,
    );
    if (!sell.ok) throw new Error(sell.reason);
    expect(sell.amountOut).toBeGreaterThanOrEqual(amountOut);
  });

  test('a step that names a pool as a buffer (or the reverse) is refused, as the BatchRouter would', () => {
    const { engine, modelOf } = engineOf();
    const route = engine.route({
      tokenIn: USDC,
      tokenOut: STATA_USDC,
      kind: 'sell',
      amount: 10n ** 6n,
      gasPerSwap: noGas,
    })!;
    const paths = toV3Paths(route).map((p) => ({ ...p, steps: p.steps.map((s) => ({ ...s, isBuffer: !s.isBuffer })) }));
    const replay = replayV3Paths('sell', paths, modelOf);
    expect(replay.ok).toBe(false);
  });
});
