import { parseAddress } from '../domain/address';
import { chainById, type ChainInfo } from '../config/chains';
import type { Config } from '../config/env';
import type { ReadModel } from '../readModel/readModel';

/**
 * The contracts a simulation may call, per chain: the Vault, the batch relayer the service's orders
 * use (BATCH_RELAYER_<id>), the chain's Lido stETH and wstETH, every token the service knows on that
 * chain (as `GET /tokens/{chainId}` lists them), every stored pool's own token (its BPT, as
 * `GET /pools/{chainId}` lists them) and the addresses in `SIMULATOR_ALLOWED_CONTRACTS`: everything
 * an `/order` answer asks to approve or call. The pass-through spends the operator's simulator
 * account; this keeps it to simulations of Balancer trades.
 */
export type AllowListVerdict = { ok: true } | { ok: false; error: string };
export type ChainVerdict = { ok: true; chain: ChainInfo } | { ok: false; error: string };

/** `network_id` as callers send it: a number, a decimal string or a 0x quantity. */
function chainIdOf(networkId: unknown): number | undefined {
  if (typeof networkId === 'number') return networkId;
  if (typeof networkId !== 'string') return undefined;
  const n = networkId.startsWith('0x') ? parseInt(networkId, 16) : Number(networkId);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** The enabled chain `networkId` names, or the 400 message naming `field` and the enabled chains. */
export function checkSimulationChain(config: Config, networkId: unknown, field: string): ChainVerdict {
  const chainId = chainIdOf(networkId);
  const chain = config.chains.find((c) => c.id === chainId);
  if (chain) return { ok: true, chain };
  const enabled = config.chains.map((c) => c.id).join(', ');
  const known = chainId === undefined ? undefined : chainById(chainId);
  const what = known
    ? `chain ${chainId} (${known.name}) is not enabled on this service`
    : `chain ${String(networkId)} is not one this service serves`;
  return { ok: false, error: `${field}: ${what} (enabled: ${enabled}); simulate on an enabled chain` };
}

export function checkSimulationTarget(
  config: Config,
  readModel: ReadModel,
  networkId: unknown,
  to: string,
): AllowListVerdict {
  const verdict = checkSimulationChain(config, networkId, 'network_id');
  if (!verdict.ok) return verdict;
  const { chain } = verdict;
  // `to` passed the request schema's address check; parsed here for the lower-case lookups.
  const address = parseAddress(to, 'to');
  // The relayer the service's own orders use (BATCH_RELAYER_<id>), none when turned off.
  const relayer = config.routing.batchRelayers.get(chain.id) ?? null;
  const snapshot = readModel.get(chain.id);
  if (
    address === chain.vault ||
    address === relayer ||
    address === chain.lido?.stETH ||
    address === chain.lido?.wstETH ||
    config.simulator.allowedContracts.includes(address) ||
    snapshot?.tokensByAddress.has(address) ||
    snapshot?.pools.some((p) => p.address === address)
  ) {
    return { ok: true };
  }
  const lido = chain.lido ? `Lido's stETH (${chain.lido.stETH}) and wstETH (${chain.lido.wstETH}), ` : '';
  return {
    ok: false,
    error:
      `to: ${to} is not a contract this service simulates on chain ${chain.id}; allowed: the Vault (${chain.vault}), ` +
      `${relayer ? `the batch relayer (${relayer}), ` : ''}${lido}the tokens listed by GET /tokens/${chain.id}, ` +
      `the pool tokens (BPTs: each pool's address) listed by GET /pools/${chain.id}, and the operator's SIMULATOR_ALLOWED_CONTRACTS`,
  };
}
