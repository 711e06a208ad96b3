import type { AppContext } from '../appContext';
import type { Feature } from '../http/feature';
import { RpcWstEthRates, type WstEthRates } from '../sources/lido/wstEthRates';
import { GasPriceReader } from '../sources/rpc/gasPrice';
import { RpcPermit2Allowances, type Permit2AllowanceReader } from '../sources/rpc/permit2Allowances';
import { LIDO_RPC } from './v2/lido';
import { createExecutor } from './quoteExecutor';
import { QuoteService } from './quoteService';
import { Quoting, quotingKey } from './quoting';
import { routingRouter } from './routes';

/**
 * Routing: `/sor` and `/order` over a per-chain router kept in worker threads (`ROUTER_WORKERS`,
 * default one per core, 0 = in-process), rebuilt whenever a chain's pools change (or, for the V3
 * Vault's engine on the same threads, its buffers). The router is the
 * service's own engine, or @balancer-labs/sor with `ROUTER_ENGINE=sor`.
 */
export function routingFeature(ctx: AppContext): Feature {
  const executor = createExecutor(ctx.config.routing.workers, {
    timeoutMs: ctx.config.routing.quoteTimeoutMs,
    heapMb: ctx.config.routing.threadHeapMb,
    onThreadError: (e) => ctx.logger.error({ err: e.message }, 'routing: a quote thread failed outside a quote'),
  });
  const { batchRelayers } = ctx.config.routing;
  const quotes = new QuoteService({
    executor,
    logger: ctx.logger,
    now: ctx.now,
    cacheSize: ctx.config.routing.quoteCacheSize,
    engine: ctx.config.routing.engine,
    joinExit: (id) => !!batchRelayers.get(id),
  });
  // Lido's ratio is read through the chain's node, on chains that name stETH and have an RPC URL.
  const rates = new Map<number, WstEthRates>();
  // An order's sender's allowances (the Vault's, Permit2's) are read through the same node.
  const allowances = new Map<number, Permit2AllowanceReader>();
  // And the gas price of requests that name none (GraphQL's sorGetSwapPaths).
  const gasPrices = new Map<number, GasPriceReader>();
  for (const chain of ctx.config.chains) {
    const url = ctx.config.rpcUrls.get(chain.id);
    if (chain.lido && url) rates.set(chain.id, new RpcWstEthRates({ ...LIDO_RPC, url }));
    if (url) allowances.set(chain.id, new RpcPermit2Allowances({ ...LIDO_RPC, url }));
    if (url) gasPrices.set(chain.id, new GasPriceReader({ ...LIDO_RPC, url }, ctx.now));
  }
  // The quote paths /sor, /order and GraphQL's sorGetSwapPaths share (routing/quoting.ts).
  const quoting = new Quoting(
    ctx,
    quotes,
    (id) => rates.get(id),
    (id) => allowances.get(id),
    (id) => gasPrices.get(id),
  );
  ctx.state.get(quotingKey).current = quoting;
  const warm = (chainId: number) => {
    const chain = ctx.config.chains.find((c) => c.id === chainId);
    const snap = ctx.readModel.get(chainId);
    if (!chain || !snap) return;
    quotes.warm(chain, snap, ctx.config.routing.minLiquidityUsd).catch((e: Error) => {
      // A stop terminates the threads under a build in hand: that is the shutdown, not a failure.
      if (stopping) return;
      ctx.logger.error({ chainId, err: e.message }, 'routing: building the router of a new pool version failed');
    });
  };
  // The service process builds every chain's router at start and each new pool version as soon as
  // it loads, so quotes never wait for one. Without background work (tests, one-off commands) no
  // thread is spawned until the first quote.
  let warming = false;
  let stopping = false;
  const unsubscribe = ctx.readModel.onReload((next, previous) => {
    const moved = !previous || next.pools !== previous.pools || next.buffers !== previous.buffers;
    if ((warming || quotes.hasQuoted) && moved) warm(next.chainId);
  });
  return {
    name: 'routing',
    routers: [routingRouter(ctx, quoting)],
    start: async () => {
      const workers = ctx.config.routing.workers;
      await executor.ready().catch((e: Error) => {
        throw new Error(
          `routing: the ${workers} quote threads (ROUTER_WORKERS=${workers}) could not start: ${e.message}; remove the Node flag worker threads refuse (NODE_OPTIONS, execArgv) or set ROUTER_WORKERS=0`,
        );
      });
      warming = true;
      for (const chain of ctx.config.chains) warm(chain.id);
    },
    stop: async () => {
      stopping = true;
      unsubscribe();
      if (ctx.state.get(quotingKey).current === quoting) ctx.state.get(quotingKey).current = undefined;
      await executor.close();
    },
  };
}
