import { parseAddress } from '../domain/address';
import { chainById } from '../config/chains';
import type { Config } from '../config/env';
import type { ReadModel } from '../readModel/readModel';

/**
 * The contracts a simulation may call, per chain: the Vault, the batch relayer the service's orders
 * use (BATCH_RELAYER_<id>), every token the service knows on that chain (as `GET /tokens/{chainId}`
 * lists them) and the addresses in `SIMULATOR_ALLOWED_CONTRACTS`. The pass-through spends the operator's simulator account; this
 * keeps it to simulations of Balancer trades.
 */
export type AllowListVerdict = { ok: true } | { ok: false; error: string };

/** `network_id` as callers send it: a number, a decimal string or a 0x quantity. */
function chainIdOf(networkId: unknown): number | undefined {
  if (typeof networkId === 'number') return networkId;
  if (typeof networkId !== 'string') return undefined;
  const n = networkId.startsWith('0x') ? parseInt(networkId, 16) : Number(networkId);
  return Number.isSafeInteger(n) ? n : undefined;
}

export function checkSimulationTarget(config: Config, readModel: ReadModel, networkId: unknown, to: string): AllowListVerdict {
  const chainId = chainIdOf(networkId);
  const enabled = config.chains.map((c) => c.id).join(', ');
  const chain = config.chains.find((c) => c.id === chainId);
  if (!chain) {
    const known = chainId === undefined ? undefined : chainById(chainId);
    const what = known ? `chain ${chainId} (${known.name}) is not enabled on this service` : `chain ${String(networkId)} is not one this service serves`;
    return { ok: false, error: `network_id: ${what} (enabled: ${enabled}); simulate on an enabled chain` };
  }
  // `to` passed the request schema's address check; parsed here for the lower-case lookups.
  const address = parseAddress(to, 'to');
  // The relayer the service's own orders use (BATCH_RELAYER_<id>), none when turned off.
  const relayer = config.routing.batchRelayers.get(chain.id) ?? null;
  if (
    address === chain.vault ||
    address === relayer ||
    config.simulator.allowedContracts.includes(address) ||
    readModel.get(chain.id)?.tokensByAddress.has(address)
  ) {
    return { ok: true };
  }
  return {
    ok: false,
    error:
      `to: ${to} is not a contract this service simulates on chain ${chain.id}; allowed: the Vault (${chain.vault}), ` +
      `${relayer ? `the batch relayer (${relayer}), ` : ''}the tokens listed by GET /tokens/${chain.id}, and the operator's SIMULATOR_ALLOWED_CONTRACTS`,
  };
}
