import type { FeatureFactory } from '../features';
import { tenderlyClient } from '../sources/simulator/tenderly';
import { simulatorRouter } from './simulatorRouter';

/** Simulator pass-throughs; answer 503 until user, project and access key are all configured. */
export const simulatorFeature: FeatureFactory = (ctx) => {
  const { apiUrl, user, project, accessKey } = ctx.config.simulator;
  const client = user && project && accessKey ? tenderlyClient({ apiUrl, user, project, accessKey }) : undefined;
  return { name: 'simulator', routers: [simulatorRouter(client)] };
};
