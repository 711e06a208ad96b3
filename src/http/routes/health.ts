import { Router } from 'express';
import type { AppContext } from '../../appContext';
import { followStatusKey } from '../../jobs/headFollower';
import { isStale, lagReason, type FollowStatus } from '../../jobs/follow/followStatus';
import { settledWithin } from '../../lifecycle/timeLimit';

/**
 * Per followed chain: the node's head, the block the served state was read at, how old that block
 * is (seconds since its timestamp) and how many blocks it trails the head; `serving`: `chain` once
 * a state was published, `subgraph` before (the node never answered a full read); `stale` past
 * FOLLOW_STALE_SECONDS of failed polls while a chain state is served; `lagging` (with why) past
 * FOLLOW_MAX_LAG_BLOCKS or FOLLOW_MAX_LAG_SECONDS behind the head; `heads`: how new blocks are
 * learnt (`subscription` or `polling`); polls failed on an answer that was not a real one
 * (`malformedAnswers`), heads below the state's block that were ignored (`headsBehind`), and the
 * slow re-read's pools and mismatches (`recheck`), and pools and buffers dropped after a good
 * answer, each asked again at the next block (`dropped`: counts and the last reason), and how the
 * getters reach the node (`transport`: `aggregate3` or `batch`, with `transportReason`). Null for
 * chains whose head is not followed.
 */
function followView(ctx: AppContext, status: FollowStatus | undefined) {
  if (!status) return null;
  const nowSeconds = ctx.now() / 1000;
  const state = status.stateBlock;
  const ageSeconds = state ? Math.max(0, Math.round(nowSeconds - state.timestamp)) : null;
  return {
    headBlock: status.head?.number ?? null,
    stateBlock: state?.number ?? null,
    stateBlockHash: state?.hash ?? null,
    ageSeconds,
    lagBlocks: state && status.head ? Math.max(0, status.head.number - state.number) : null,
    serving: state ? 'chain' : 'subgraph',
    stale: isStale(status, ctx.now(), ctx.config.follow.staleSeconds * 1000),
    lagging: lagReason(status, null, ctx.now(), {
      maxBlocks: ctx.config.follow.maxLagBlocks,
      maxSeconds: ctx.config.follow.maxLagSeconds,
    }),
    heads: status.heads,
    failures: status.failures,
    lastError: status.lastError,
    malformedAnswers: status.malformedAnswers,
    headsBehind: status.headsBehind,
    lastHeadBehind: status.lastHeadBehind,
    recheck: {
      pools: status.rechecked,
      mismatches: status.recheckMismatches,
      lastMismatch: status.lastRecheckMismatch,
    },
    dropped: { pools: status.droppedPools, buffers: status.droppedBuffers, last: status.lastDropped },
    transport: status.transport,
    transportReason: status.transportReason,
  };
}

/**
 * A followed chain whose first full read has not been published, while its node has not failed
 * `STARTUP_FAILURES` polls in a row: `/readyz?serving=chain` waits for it. A node that keeps
 * failing does not hold the instance back: it serves the subgraph's state, as without a node.
 */
const STARTUP_FAILURES = 3;

/** How long `/readyz` waits for the store's ping. */
const STORE_PING_MS = 2_000;

/**
 * `/healthz`: the process answers. `/readyz`: the store answers and every chain is loaded; with
 * `?serving=chain` (Cloud Run's startup probe, infra/service.ts) also every followed chain serves
 * the chain's state, exact at a block, unless its node keeps failing.
 */
export function healthRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (req, res) => {
    const loaded = ctx.readModel.isLoaded();
    let storeOk = true;
    let storeError: string | undefined;
    try {
      // The timer goes with the answer: a probe every few seconds would otherwise keep one per probe.
      await settledWithin(STORE_PING_MS, `store ping timed out after ${STORE_PING_MS / 1000} s`, ctx.store.ping());
    } catch (e) {
      storeOk = false;
      storeError = (e as Error).message;
    }
    const chains = ctx.config.chains.map((c) => {
      const s = ctx.readModel.get(c.id);
      return {
        chainId: c.id,
        loaded: !!s,
        poolsVersion: s?.poolsVersion ?? null,
        pools: s?.pools.length ?? 0,
        follow: followView(ctx, ctx.state.get(followStatusKey).get(c.id)),
      };
    });
    const reading =
      req.query.serving === 'chain'
        ? chains.filter(
            (c) => c.follow !== null && c.follow.serving !== 'chain' && c.follow.failures < STARTUP_FAILURES,
          )
        : [];
    const ready = loaded && storeOk && reading.length === 0;
    // A stale or lagging chain degrades the answer but not readiness: the instance still serves every read,
    // and /order refuses that chain itself (routing/routes.ts).
    const degraded = chains.some((c) => c.follow?.stale === true || (c.follow?.lagging ?? null) !== null);
    res.status(ready ? 200 : 503).json({
      status: ready ? (degraded ? 'degraded' : 'ready') : 'not ready',
      store: storeOk ? 'ok' : storeError,
      chains,
      ...(ready
        ? {}
        : {
            error: !storeOk
              ? `store unreachable: ${storeError}`
              : !loaded
                ? 'read model still loading'
                : `first full read of chain ${reading.map((c) => c.chainId).join(', ')} still running`,
            code: 503,
          }),
    });
  });
  return r;
}
