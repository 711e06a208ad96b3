import type { FeatureFactory } from '../http/feature';
import { tenderlyClient } from '../sources/simulator/tenderly';
import { checkSimulationChain, checkSimulationTarget } from './contractAllowList';
import { simulatorRouter } from './simulatorRouter';

/**
 * Simulator pass-throughs; answer 503 until user, project and access key are all configured.
 * Simulations may call allow-listed contracts only, and are never saved at the provider unless
 * `SIMULATOR_SAVE` is set.
 */
export const simulatorFeature: FeatureFactory = (ctx) => {
  const { apiUrl, user, project, accessKey } = ctx.config.simulator;
  const client = user && project && accessKey ? tenderlyClient({ apiUrl, user, project, accessKey }) : undefined;
  return {
    name: 'simulator',
    routers: [
      simulatorRouter(client, {
        checkChain: (networkId, field) => checkSimulationChain(ctx.config, networkId, field),
        checkTarget: (networkId, to) => checkSimulationTarget(ctx.config, ctx.readModel, networkId, to),
        allowSave: ctx.config.simulator.allowSave,
      }),
    ],
  };
};
