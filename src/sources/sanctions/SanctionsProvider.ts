/**
 * One sanctions screening provider (Chainalysis or TRM Labs), as the check-wallet route sees it.
 * An implementation either answers for certain or throws `UpstreamError`: there is no "unknown"
 * answer, so a failed check can never be mistaken for a clean address.
 */
export interface SanctionsProvider {
  /** Operator-facing name, used in logs and errors. */
  readonly name: string;
  /** `address` is an EIP-55 checksummed EVM address. */
  isSanctioned(address: string): Promise<boolean>;
}

/** Each attempt gets this long; the route answers 503 when it runs out. */
export const SANCTIONS_TIMEOUT_MS = 5_000;

export const SANCTIONS_UPSTREAM = 'sanctions provider';
