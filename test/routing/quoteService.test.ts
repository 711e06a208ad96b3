import { chainById } from '../../src/config/chains';
import { emptyMeta, type StoredPool, type StoredToken } from '../../src/domain/pool';
import { createLogger, silentLogger } from '../../src/log/logger';
import { ChainSnapshot } from '../../src/readModel/chainSnapshot';
import type { SubgraphPoolBase } from '@balancer-labs/sor';
import type { RouteOutcome } from '../../src/routing/v2/chainRouter';
import { EngineRouter } from '../../src/routing/v2/engineRouter';
import type { QuoteExecutor } from '../../src/routing/quoteExecutor';
import type { QuoteTask, V3QuoteTask, V3RouteOutcome } from '../../src/routing/routerHost';
import { emptyV3SwapInfo } from '../../src/routing/v3/v3Answer';
import { QuoteService } from '../../src/routing/quoteService';
import { emptySwapInfo } from '../../src/routing/serialize';
import type { QuoteRequest } from '../../src/routing/types';

/**
 * The quote cache: hits within a pool version, misses across versions, bounded, never caching
 * failures; and a pool model that breaks on a stored pool reaches the log as an error.
 */

class CountingExecutor implements QuoteExecutor {
  readonly kind = 'in-process';
  tasks: QuoteTask[] = [];
  fail = false;
  async run(task: QuoteTask): Promise<RouteOutcome> {
    this.tasks.push(task);
    if (this.fail) throw new Error('worker died');
    return { info: { ...emptySwapInfo(task.sellToken, task.buyToken), returnAmount: String(this.tasks.length) } };
  }
  async ready(): Promise<void> {}
  v3Tasks: V3QuoteTask[] = [];
  async runV3(task: V3QuoteTask): Promise<V3RouteOutcome> {
    this.v3Tasks.push(task);
    if (this.fail) throw new Error('worker died');
    return { info: { ...emptyV3SwapInfo(task.sellToken, task.buyToken), returnAmount: String(this.v3Tasks.length) } };
  }
  prepared: V3QuoteTask[] = [];
  async prepareV3(task: V3QuoteTask): Promise<V3RouteOutcome | undefined> {
    this.prepared.push(task);
    return undefined;
  }
  async close(): Promise<void> {}
}

const chain = chainById(1)!;
const pools: StoredPool[] = [];
const tokens: StoredToken[] = [];
const snap = (p: readonly StoredPool[], t: readonly StoredToken[], version: number) =>
  new ChainSnapshot({
    chainId: 1,
    meta: { ...emptyMeta(1), poolsVersion: version, tokensVersion: version },
    pools: p,
    tokens: t,
    loadedAt: 0,
  });
const req = (over: Partial<QuoteRequest> = {}): QuoteRequest => ({
  sellToken: chain.wrappedNative,
  buyToken: '0x6b175474e89094c44da98b954eedeac495271d0f',
  orderKind: 'sell',
  amount: 10n ** 18n,
  gasPrice: 0n,
  minLiquidityUsd: 100,
  ...over,
});

describe('QuoteService cache', () => {
  const now = () => Date.UTC(2026, 0, 15, 12, 0, 0);

  test('identical requests within one pool version compute once; a new pool version computes again', async () => {
    const exec = new CountingExecutor();
    const service = new QuoteService({ executor: exec, logger: silentLogger(), now, cacheSize: 100 });
    const v1 = snap(pools, tokens, 1);
    const a = await service.quote(chain, v1, req());
    const b = await service.quote(chain, v1, req());
    expect(b).toEqual(a);
    expect(exec.tasks).toHaveLength(1);
    await service.quote(chain, v1, req({ amount: 10n ** 18n + 1n }));
    expect(exec.tasks).toHaveLength(2);
    const v2 = snap([], tokens, 2);
    expect((await service.quote(chain, v2, req())).returnAmount).toBe('3');
    expect(exec.tasks[2]!.pools.key).not.toBe(exec.tasks[0]!.pools.key);
  });

  test('new token prices only invalidate quotes that pay for gas', async () => {
    const exec = new CountingExecutor();
    const service = new QuoteService({ executor: exec, logger: silentLogger(), now, cacheSize: 100 });
    const v1 = snap(pools, tokens, 1);
    await service.quote(chain, v1, req());
    await service.quote(chain, v1, req({ gasPrice: 1n }));
    const newPrices = v1.withTokens(v1.meta, [], 0);
    await service.quote(chain, newPrices, req());
    expect(exec.tasks).toHaveLength(2);
    await service.quote(chain, newPrices, req({ gasPrice: 1n }));
    expect(exec.tasks).toHaveLength(3);
  });

  test('a cached answer lives a bounded time (dead answers of past blocks do not pile up)', async () => {
    const exec = new CountingExecutor();
    const service = new QuoteService({ executor: exec, logger: silentLogger(), now, cacheSize: 100, answerTtlMs: 40 });
    const v1 = snap(pools, tokens, 1);
    await service.quote(chain, v1, req());
    await service.quote(chain, v1, req());
    expect(exec.tasks).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 80));
    await service.quote(chain, v1, req());
    expect(exec.tasks).toHaveLength(2);
  });

  test('answers at a pool version leave once an answer at the next is cached (a block no longer asked at)', async () => {
    const exec = new CountingExecutor();
    const service = new QuoteService({ executor: exec, logger: silentLogger(), now, cacheSize: 100 });
    const v1 = snap(pools, tokens, 1);
    for (const amount of [1n, 2n, 3n]) await service.quote(chain, v1, req({ amount }));
    await service.quoteV3(chain, v1, req(), 1_000);
    expect(service.answersHeld).toBe(4);
    await service.quote(chain, snap([], tokens, 2), req());
    expect(service.answersHeld).toBe(2);
    // The V3 Vault's universe has versions of its own: its answer stays.
    await service.quoteV3(chain, v1, req(), 1_000);
    expect(exec.v3Tasks).toHaveLength(1);
  });

  test('the cache is bounded and can be turned off; failures are not cached', async () => {
    const exec = new CountingExecutor();
    const service = new QuoteService({ executor: exec, logger: silentLogger(), now, cacheSize: 2 });
    const v1 = snap(pools, tokens, 1);
    for (const amount of [1n, 2n, 3n, 1n]) await service.quote(chain, v1, req({ amount }));
    expect(exec.tasks).toHaveLength(4); // 1 was evicted by 3

    const off = new CountingExecutor();
    const uncached = new QuoteService({ executor: off, logger: silentLogger(), now, cacheSize: 0 });
    await uncached.quote(chain, v1, req());
    await uncached.quote(chain, v1, req());
    expect(off.tasks).toHaveLength(2);

    const flaky = new CountingExecutor();
    flaky.fail = true;
    const s = new QuoteService({ executor: flaky, logger: silentLogger(), now, cacheSize: 10 });
    await expect(s.quote(chain, v1, req())).rejects.toThrow('worker died');
    flaky.fail = false;
    await expect(s.quote(chain, v1, req())).resolves.toMatchObject({ returnAmount: '2' });
  });
});

describe('pool models that break', () => {
  const POOL = `0x${'12'.repeat(32)}`;
  const weighted = (tokens: readonly { address?: string; balance: string; decimals: number }[]) =>
    ({
      id: POOL,
      address: POOL.slice(0, 42),
      poolType: 'Weighted',
      poolTypeVersion: 2,
      swapFee: '0.003',
      totalShares: '1000',
      tokens: tokens.map((t) => ({ ...t, weight: '0.5', priceRate: '1' })),
    }) as unknown as SubgraphPoolBase;

  test('the engine router hands a model build failure on once, with the next outcome', async () => {
    const router = new EngineRouter({ id: 1, vault: chain.vault, wrappedNative: chain.wrappedNative }, [
      weighted([
        { balance: '100', decimals: 18 },
        { address: chain.wrappedNative, balance: '100', decimals: 18 },
      ]),
    ]);
    const ask = { ...req(), amount: '1', gasPrice: '0', timestamp: 0 };
    const first = await router.route(ask);
    expect(first.modelBugs).toEqual([{ poolId: POOL, error: expect.stringMatching(/^TypeError/) }]);
    expect((await router.route(ask)).modelBugs).toBeUndefined();
  });

  test('the quote service logs each at error level with the pool id', async () => {
    const lines: string[] = [];
    const logger = createLogger({ debug: false, destination: { write: (l: string) => void lines.push(l) } });
    const exec = new CountingExecutor();
    exec.run = async (task) => ({
      info: emptySwapInfo(task.sellToken, task.buyToken),
      modelBugs: [{ poolId: POOL, error: 'TypeError: boom' }],
    });
    const service = new QuoteService({ executor: exec, logger, now: () => 0, cacheSize: 0 });
    await service.quote(chain, snap(pools, tokens, 1), req());
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ severity: 'ERROR', poolId: POOL, err: 'TypeError: boom', chainId: 1 }),
    ]);
  });
});

/**
 * What a block costs the quote threads is what it changed, when they build ahead, while idle,
 * what the next block's time will need (its time-dependent V3 pools, `V3Router.prepare`): a V3
 * warm-up asks for it at the next block's time, once per universe version and time, and on a
 * chain that makes blocks on demand (the quotes' time moves with the clock) a quote at a new
 * second asks for the second after.
 */
describe('V3 universes built ahead', () => {
  const blockAt = (n: number) => ({ number: n, hash: `0x${n}`, parentHash: '0x', timestamp: 1_780_000_000 + 12 * n });
  const snapAt = (chainId: number, n: number) =>
    new ChainSnapshot({
      chainId,
      meta: { ...emptyMeta(chainId), poolsVersion: n, tokensVersion: 1 },
      pools: [],
      tokens,
      loadedAt: 0,
      block: blockAt(n),
      buffers: new Map(),
    });

  test("a V3 warm-up has the threads build the next block's time ahead, once per universe and time", async () => {
    const exec = new CountingExecutor();
    const service = new QuoteService({ executor: exec, logger: silentLogger(), now: () => 0, cacheSize: 10 });
    const first = snapAt(1, 1);
    // Mainnet makes a block every 12 s: quotes price at the head's time + 12, the next block's at + 24.
    await service.warm(chain, first, 0);
    await service.warm(chain, first, 0);
    await service.quoteV3(chain, first, req(), blockAt(1).timestamp + 12);
    expect(exec.prepared.map((t) => [t.timestamp, t.prepare, t.warmOnly])).toEqual([
      [blockAt(1).timestamp + 24, true, undefined],
    ]);
    await service.warm(chain, snapAt(1, 2), 0);
    expect(exec.prepared.map((t) => t.timestamp)).toEqual([blockAt(1).timestamp + 24, blockAt(2).timestamp + 24]);
  });

  test('on a chain that makes blocks on demand, quotes in consecutive seconds ask for the next one; a lone quote or a cut pool set never', async () => {
    const devnet = chainById(31337)!;
    const exec = new CountingExecutor();
    const service = new QuoteService({ executor: exec, logger: silentLogger(), now: () => 0, cacheSize: 10 });
    const snap = snapAt(31337, 1);
    const t = blockAt(1).timestamp + 5;
    await service.quoteV3(devnet, snap, req(), t);
    await service.quoteV3(devnet, snap, req({ amount: 2n }), t);
    // A cut pool set (GraphQL's poolIds) is its own array on its own line.
    await service.quoteV3(devnet, snapAt(31337, 1), req({ restricted: true }), t + 1);
    expect(exec.prepared).toEqual([]);
    await service.quoteV3(devnet, snap, req(), t + 1);
    await service.quoteV3(devnet, snap, req({ amount: 3n }), t + 1);
    expect(exec.prepared.map((p) => p.timestamp)).toEqual([t + 2]);
    await service.quoteV3(devnet, snap, req(), t + 9);
    await service.quoteV3(devnet, snap, req(), t + 10);
    expect(exec.prepared.map((p) => p.timestamp)).toEqual([t + 2, t + 11]);
  });
});
