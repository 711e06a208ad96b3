import { chainById } from '../../src/config/chains';
import { parseNetworks } from '../../src/config/env';
import { devAccount } from '../../src/devnet/accounts';
import { DEVNET_CHAIN_ID, expectedAddresses } from '../../src/devnet/devnet';
import { expectedGaugeAddresses } from '../../src/devnet/gauges';
import { expectedV3Addresses } from '../../src/devnet/v3/devnetV3';

describe('chain 31337 localdev', () => {
  test('the chain table lists the addresses the devnet deployment lands at', () => {
    const chain = chainById(DEVNET_CHAIN_ID);
    const deployed = expectedAddresses(devAccount(0).address);
    expect(chain).toMatchObject({
      name: 'localdev',
      vault: deployed.vault,
      wrappedNative: deployed.weth,
      batchRelayer: deployed.batchRelayer,
    });
    expect(chain?.lido).toEqual({ stETH: deployed.stETH, wstETH: deployed.wstETH });
  });

  test('the chain table lists the gauge system the devnet deploys from its gauge admin account', () => {
    const gauges = expectedGaugeAddresses();
    expect(chainById(DEVNET_CHAIN_ID)?.gauges?.emissions).toEqual({
      kind: 'controller',
      gaugeController: gauges.gaugeController,
      balancerTokenAdmin: gauges.balancerTokenAdmin,
    });
  });

  test('the chain table lists the Balancer V3 stack the devnet deploys from its V3 admin account', () => {
    const v3 = expectedV3Addresses();
    expect(chainById(DEVNET_CHAIN_ID)?.v3).toEqual({
      vault: v3.vault,
      router: v3.router,
      batchRouter: v3.batchRouter,
      bufferRouter: v3.bufferRouter,
      vaultExplorer: v3.vaultExplorer,
      permit2: v3.permit2,
      protocolFeeController: v3.protocolFeeController,
    });
  });

  test('is opt-in: not among the default NETWORKS, but accepted by id or name', () => {
    expect(parseNetworks(undefined).map((c) => c.id)).not.toContain(DEVNET_CHAIN_ID);
    expect(parseNetworks('localdev').map((c) => c.id)).toEqual([DEVNET_CHAIN_ID]);
    expect(parseNetworks('31337').map((c) => c.id)).toEqual([DEVNET_CHAIN_ID]);
  });
});
