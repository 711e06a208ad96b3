import type { FeatureFactory } from '../http/feature';
import { createSanctionsProvider } from '../sources/sanctions/createSanctionsProvider';
import { checkWalletRouter } from './checkWalletRouter';
import { createScreeningCache } from './screeningCache';

/** Sanctions screening: `GET /check-wallet` over the configured provider, with a result cache. */
export const sanctionsFeature: FeatureFactory = (ctx) => {
  const provider = createSanctionsProvider(ctx.config.sanctions);
  const cache = provider ? createScreeningCache(provider, ctx.now) : undefined;
  if (!provider) ctx.logger.info('SANCTIONS_API_KEY not set: /check-wallet answers 503');
  return { name: 'sanctions', routers: [checkWalletRouter(cache)] };
};
