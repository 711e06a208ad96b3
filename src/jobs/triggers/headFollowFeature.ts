import type { AppContext } from '../../appContext';
import type { Feature } from '../../http/feature';
import { HeadFollower } from '../headFollower';
import { NewHeadsSubscription } from '../../sources/rpc/newHeads';

/**
 * Follows the head of every enabled chain that has an RPC URL (`RPC_URL_<chainId>`, `RPC_URL`, or
 * `NODEPROVIDER_PROJECT_ID`), unless `FOLLOW_HEAD=off`: each instance polls its chains' nodes every
 * `FOLLOW_INTERVAL_MS` and keeps the read model at the newest block (jobs/headFollower.ts). Chains
 * without an RPC URL keep the subgraph's values, as the pool update stores them. Where the RPC
 * URL is a WebSocket URL the follower also subscribes to the node's new heads and reads each one
 * as it comes (over HTTP at the same address, `config/env.ts`), polling only while the
 * subscription is down.
 */
export function headFollowFeature(ctx: AppContext): Feature {
  const followers: HeadFollower[] = [];
  const subscriptions: NewHeadsSubscription[] = [];
  return {
    name: 'head-follow',
    start() {
      if (!ctx.config.follow.enabled) return;
      for (const chain of ctx.config.chains) {
        const url = ctx.config.rpcUrls.get(chain.id);
        if (!url) continue;
        const follower = new HeadFollower(ctx, chain, url);
        followers.push(follower);
        follower.start();
        const socketUrl = ctx.config.rpcSocketUrls.get(chain.id);
        if (!socketUrl) continue;
        const subscription = new NewHeadsSubscription(
          socketUrl,
          {
            onHead: (blockNumber) => follower.nudge(blockNumber),
            onLive: (live, reason) => {
              follower.setSubscribed(live);
              if (live) ctx.logger.info({ chainId: chain.id }, 'head follower: subscribed to new heads');
              else
                ctx.logger.warn({ chainId: chain.id, reason }, 'head follower: new heads subscription down; polling');
            },
          },
          // Ten blocks without a word on a chain that makes blocks on a timer: the socket is dead.
          { silenceMs: chain.blockSeconds === undefined ? undefined : Math.max(30_000, chain.blockSeconds * 10_000) },
        );
        subscriptions.push(subscription);
        subscription.start();
      }
      if (followers.length > 0)
        ctx.logger.info(
          { chains: followers.length, intervalMs: ctx.config.follow.intervalMs },
          'following the chain head through the RPC node',
        );
    },
    async stop() {
      for (const s of subscriptions.splice(0)) s.stop();
      await Promise.all(followers.splice(0).map((f) => f.stop()));
    },
  };
}
