import { CHAINS, vaultOf } from '../../src/config/chains';

/**
 * A chain has a Vault per protocol: V2 everywhere the service runs, V3 where Balancer deployed it
 * (and on the local devnet, which deploys its own).
 */
describe('the protocols of each chain', () => {
  const v3Chains = CHAINS.filter((c) => c.v3).map((c) => c.name);

  test('V3 is known on the chains it is deployed on, with its routers, VaultExplorer, Permit2 and fee controller', () => {
    expect(v3Chains.sort()).toEqual([
      'arbitrum',
      'avalanche',
      'base',
      'gnosis',
      'localdev',
      'mainnet',
      'optimism',
      'sepolia',
    ]);
    const mainnet = CHAINS.find((c) => c.id === 1)!;
    expect(mainnet.v3).toEqual({
      vault: '0xba1333333333a1ba1108e8412f11850a5c319ba9',
      router: '0xae563e3f8219521950555f5962419c8919758ea2',
      batchRouter: '0x136f1efcc3f8f88516b9e94110d56fdbfb1778d1',
      bufferRouter: '0x9179c06629ef7f17cb5759f501d89997fe0e7b45',
      vaultExplorer: '0xfc2986feab34713e659da84f3b1fa32c1da95832',
      permit2: '0x000000000022d473030f116ddee9f6b43ac78ba3',
      protocolFeeController: '0xa731c23d7c95436baaae9d52782f966e1ed07cc8',
    });
  });

  test('each protocol answers its own Vault; a chain without V3 has none', () => {
    const polygon = CHAINS.find((c) => c.id === 137)!;
    expect(vaultOf(polygon, 2)).toBe('0xba12222222228d8ba445958a75a0704d566bf2c8');
    expect(vaultOf(polygon, 3)).toBeUndefined();
    for (const chain of CHAINS.filter((c) => c.v3)) {
      // Balancer's V3 Vault has one address everywhere; the devnet's is its own deployment's.
      if (chain.name !== 'localdev') expect(vaultOf(chain, 3)).toBe('0xba1333333333a1ba1108e8412f11850a5c319ba9');
      else expect(vaultOf(chain, 3)).not.toBe('0xba1333333333a1ba1108e8412f11850a5c319ba9');
      // Every V3 contract of a chain is a distinct contract.
      expect(new Set(Object.values(chain.v3!)).size).toBe(7);
    }
  });
});
