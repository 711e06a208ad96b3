import { getCreateAddress } from 'ethers';
import type { ChainInfo } from '../config/chains';
import type { ChainSnapshot } from '../readModel/chainSnapshot';

/**
 * Contracts of a chain the service knows are not wallets: the Vault and its ProtocolFeesCollector,
 * the batch relayer, wrapped native, Lido's stETH and wstETH, the gauge contracts the chain row
 * names, Balancer V3's Vault, routers, VaultExplorer, Permit2 and ProtocolFeeController, every
 * token of its read model (buffers' ERC-4626 tokens included), every pool's BPT and factory. None can
 * sign a transaction (so none is a sender), and tokens sent to one stay there: a swap paying WETH
 * ends up as WETH credited to the Vault, owned by nobody. A smart-contract wallet is none of
 * these, so it stays a valid party.
 */
export type ContractLookup = (address: string) => string | undefined;

const bySnapshot = new WeakMap<ChainSnapshot, Map<string, string>>();

/**
 * The Vault's ProtocolFeesCollector: the Vault creates it in its constructor, its first contract
 * creation (nonce 1), so its address follows from the Vault's on every chain and on the devnet
 * (0xce88686553686da562ce7cea497ce749da109f9f beside the canonical Vault). Tokens sent there are
 * only withdrawn by governance.
 */
export function protocolFeesCollector(vault: string): string {
  return getCreateAddress({ from: vault, nonce: 1 }).toLowerCase();
}

/** The snapshot's tokens and BPTs, built once per snapshot (snapshots never change). */
function snapshotContracts(snap: ChainSnapshot): Map<string, string> {
  let known = bySnapshot.get(snap);
  if (known) return known;
  known = new Map();
  const symbols = new Map<string, string | null>();
  const addToken = (address: string, symbol: string | null) => {
    if (!symbols.get(address)) symbols.set(address, symbol);
  };
  for (const t of snap.tokens) addToken(t.address, t.symbol);
  for (const pool of snap.pools) for (const t of pool.tokens) addToken(t.address, t.symbol);
  for (const [address, symbol] of symbols)
    known.set(address, symbol ? `the ${symbol} token contract` : 'a token contract');
  // A pool's BPT is a token too; naming the pool says more.
  for (const pool of snap.pools) known.set(pool.address, `the pool token (BPT) of pool ${pool.id}`);
  // A factory only creates pools: what is sent to it stays there.
  for (const pool of snap.pools)
    if (pool.factory && !known.has(pool.factory.toLowerCase()))
      known.set(pool.factory.toLowerCase(), `a pool factory (the one of pool ${pool.id})`);
  bySnapshot.set(snap, known);
  return known;
}

export function knownContracts(chain: ChainInfo, snap: ChainSnapshot, relayer: string | null): ContractLookup {
  const fixed = new Map<string, string>([
    [chain.vault, 'the Vault'],
    [protocolFeesCollector(chain.vault), "the Vault's ProtocolFeesCollector"],
    [chain.batchRelayer, 'the batch relayer'],
    [chain.wrappedNative, 'the wrapped native token contract'],
  ]);
  if (relayer) fixed.set(relayer.toLowerCase(), 'the batch relayer');
  if (chain.v3) {
    fixed.set(chain.v3.vault, 'the Balancer V3 Vault');
    fixed.set(chain.v3.router, 'the Balancer V3 Router');
    fixed.set(chain.v3.batchRouter, 'the Balancer V3 BatchRouter');
    fixed.set(chain.v3.bufferRouter, 'the Balancer V3 BufferRouter');
    fixed.set(chain.v3.vaultExplorer, 'the Balancer V3 VaultExplorer');
    fixed.set(chain.v3.permit2, 'Permit2');
    fixed.set(chain.v3.protocolFeeController, 'the Balancer V3 ProtocolFeeController');
  }
  // A V3 buffer's ERC-4626 token is a token contract as well.
  for (const wrapped of snap.buffers.keys()) if (!fixed.has(wrapped)) fixed.set(wrapped, 'an ERC-4626 token contract');
  if (chain.gauges) {
    fixed.set(chain.gauges.bal, 'the BAL token contract');
    if (chain.gauges.emissions.kind === 'controller') {
      fixed.set(chain.gauges.emissions.gaugeController, 'the GaugeController');
      fixed.set(chain.gauges.emissions.balancerTokenAdmin, 'the BalancerTokenAdmin');
    }
  }
  if (chain.lido) {
    fixed.set(chain.lido.stETH, 'the stETH contract');
    fixed.set(chain.lido.wstETH, 'the wstETH contract');
  }
  const tokens = snapshotContracts(snap);
  return (address) => {
    const a = address.toLowerCase();
    return fixed.get(a) ?? tokens.get(a);
  };
}
