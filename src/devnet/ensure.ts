import type { Provider, Signer } from 'ethers';
import { devAccount, traderAccounts } from './accounts';
import { deployDevnet, DeployOptions } from './deploy';
import { DeployError } from './deployTools';
import { Devnet, DevnetToken, expectedAddresses } from './devnet';
import { OnchainPoolReader } from './indexer/onchainPools';
import { STETH_SYMBOL, WETH_SYMBOL } from './universe';
import { readDevnetV3 } from './v3/read';

/**
 * A devnet on `provider`, whichever way it comes: read back when the stack already sits at its
 * expected addresses (a `npm run demo` node reused through LOCALFORK_URL), deployed otherwise.
 */
export async function readDevnet(provider: Provider): Promise<Devnet | undefined> {
  const addresses = expectedAddresses(devAccount(0).address);
  if ((await provider.getCode(addresses.vault)) === '0x') return undefined;
  const v3 = await readDevnetV3(provider);
  if (!v3)
    throw new DeployError(
      'this node holds the devnet without Balancer V3 (started before V3 joined the devnet): restart it so it deploys afresh',
    );
  const pools = await new OnchainPoolReader(provider, addresses).readAll();
  const tokens = new Map<string, DevnetToken>();
  tokens.set(addresses.weth, { symbol: WETH_SYMBOL, name: 'Wrapped Ether', decimals: 18, address: addresses.weth });
  // Pool BPT held by other pools (a boosted pool's linear BPT) is a pool, not a token, as deployDevnet lists it.
  const bpts = new Set(pools.map((p) => p.address));
  for (const p of pools) {
    for (const t of p.tokens) {
      if (!bpts.has(t.address) && !tokens.has(t.address))
        tokens.set(t.address, { symbol: t.symbol, name: t.name, decimals: t.decimals, address: t.address });
    }
  }
  // stETH is in no pool; the devnet's Lido sits at its fixed addresses.
  if ((await provider.getCode(addresses.stETH)) !== '0x') {
    tokens.set(addresses.stETH, {
      symbol: STETH_SYMBOL,
      name: 'Liquid staked Ether 2.0 (devnet)',
      decimals: 18,
      address: addresses.stETH,
    });
  }
  return {
    chainId: Number((await provider.getNetwork()).chainId),
    addresses,
    tokens: [...tokens.values()],
    pools: pools.map((p) => ({
      id: p.id,
      address: p.address,
      kind: p.kind,
      name: p.name,
      symbol: p.symbol,
      tokens: p.tokens.map((t) => t.address),
    })),
    v3,
  };
}

export async function ensureDevnet(
  provider: Provider,
  options: Pick<DeployOptions, 'v3'> = {},
): Promise<{ devnet: Devnet; deployed: boolean }> {
  const existing = await readDevnet(provider);
  if (existing) return { devnet: existing, deployed: false };
  const deployer: Signer = devAccount(0, provider);
  return { devnet: await deployDevnet(deployer, { ...options, traders: traderAccounts(provider) }), deployed: true };
}
