import type { AppContext } from '../appContext';
import type { Feature } from '../http/feature';
import { HeadFollower } from '../jobs/headFollower';

/**
 * Follows the head of every enabled chain that has an RPC URL (`RPC_URL_<chainId>`, `RPC_URL`, or
 * `NODEPROVIDER_PROJECT_ID`), unless `FOLLOW_HEAD=off`: each instance polls its chains' nodes every
 * `FOLLOW_INTERVAL_MS` and keeps the read model at the newest block (jobs/headFollower.ts). Chains
 * without an RPC URL keep the subgraph's values, as the pool update stores them.
 */
export function headFollowFeature(ctx: AppContext): Feature {
  const followers: HeadFollower[] = [];
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
      }
      if (followers.length > 0)
        ctx.logger.info(
          { chains: followers.length, intervalMs: ctx.config.follow.intervalMs },
          'following the chain head through the RPC node',
        );
    },
    async stop() {
      await Promise.all(followers.splice(0).map((f) => f.stop()));
    },
  };
}
