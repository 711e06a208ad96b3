import type { ChainInfo } from '../config/chains';
import { chainById } from '../config/chains';
import type { Config } from '../config/env';
import { REASONS } from './errorReasons';
import { HttpError } from './errors';

/** `/x/{chainId}`: 400 when not a positive integer, 404 when not an enabled chain. */
export function resolveChainParam(raw: string | undefined, config: Config): ChainInfo {
  if (raw === undefined || !/^[1-9]\d{0,15}$/.test(raw)) {
    throw new HttpError(
      400,
      `chainId must be a positive integer, got '${raw ?? ''}' (enabled: ${config.chains.map((c) => c.id).join(', ')})`,
      {},
      { field: 'chainId' },
    );
  }
  const id = Number(raw);
  const enabled = config.chains.find((c) => c.id === id);
  if (!enabled) {
    const known = chainById(id);
    throw new HttpError(
      404,
      known
        ? `chain ${id} (${known.name}) is not enabled on this service (enabled: ${config.chains.map((c) => c.id).join(', ')}; set NETWORKS)`
        : `unknown chain ${id} (enabled: ${config.chains.map((c) => c.id).join(', ')})`,
      {},
      { reason: REASONS.CHAIN_NOT_ENABLED, field: 'chainId', details: { enabled: config.chains.map((c) => c.id) } },
    );
  }
  return enabled;
}
