import type { StoredToken } from '../domain/pool';
import type { Logger } from '../log/logger';
import { fetchErc20Metadata, TokenMetadata } from '../sources/rpc/erc20Metadata';
import type { JsonRpcOptions } from '../sources/rpc/jsonRpc';

/**
 * Fills symbol and name of newly discovered tokens the subgraph sent without them, from the chain
 * itself. The chain is only an enrichment here: when the node fails, the tokens are stored as the
 * subgraph described them and the pool update still succeeds. Decimals stay the subgraph's, since
 * the stored balances were scaled with them.
 */
export interface ChainMetadataResult {
  readonly tokens: readonly StoredToken[];
  /** Tokens whose symbol or name came from the chain. */
  readonly filled: number;
  /** Why the lookup did not happen or failed, when it did not succeed. */
  readonly problem: string | null;
}

export const RPC_DEFAULTS = {
  timeoutMs: 10_000,
  batchSize: 100,
  retry: { attempts: 3, baseDelayMs: 250, maxDelayMs: 4_000 },
} as const;

export function needsChainMetadata(t: StoredToken): boolean {
  return t.symbol === null || t.name === null;
}

/** Pure: the tokens with the chain's symbol/name where the subgraph had none. */
export function mergeChainMetadata(
  tokens: readonly StoredToken[],
  found: ReadonlyMap<string, TokenMetadata>,
): { tokens: StoredToken[]; filled: number } {
  let filled = 0;
  const merged = tokens.map((t) => {
    const m = found.get(t.address);
    if (!m || !needsChainMetadata(t)) return t;
    const next = { ...t, symbol: t.symbol ?? m.symbol, name: t.name ?? m.name };
    if (next.symbol !== t.symbol || next.name !== t.name) filled++;
    return next;
  });
  return { tokens: merged, filled };
}

export async function withChainMetadata(
  rpcUrl: string | undefined,
  tokens: readonly StoredToken[],
  logger: Logger,
  options: Omit<JsonRpcOptions, 'url'> = RPC_DEFAULTS,
): Promise<ChainMetadataResult> {
  const missing = tokens.filter(needsChainMetadata).map((t) => t.address);
  if (missing.length === 0) return { tokens, filled: 0, problem: null };
  if (!rpcUrl) return { tokens, filled: 0, problem: 'no RPC URL configured' };
  try {
    const found = await fetchErc20Metadata({ ...options, url: rpcUrl }, missing);
    const merged = mergeChainMetadata(tokens, found);
    return { ...merged, problem: null };
  } catch (e) {
    const problem = (e as Error).message;
    logger.warn(
      { tokens: missing.length, err: problem },
      'token metadata from the chain failed; storing tokens without symbols',
    );
    return { tokens, filled: 0, problem };
  }
}
