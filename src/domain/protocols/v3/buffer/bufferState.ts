/**
 * A V3 Vault buffer for one ERC-4626 token (`getBufferBalance`): the underlying and wrapped
 * amounts the Vault holds to wrap and unwrap without calling the token.
 */
export interface BufferState {
  /** The ERC-4626 token (the buffer's key). */
  readonly wrappedToken: string;
  /** Its `asset()`, as the buffer was initialised with it. */
  readonly underlyingToken: string;
  /** Underlying held, raw (the packed balance's raw half). */
  readonly underlyingBalanceRaw: bigint;
  /** Wrapped held, raw (the derived half). */
  readonly wrappedBalanceRaw: bigint;
  /** The Vault's buffers paused (`areBuffersPaused`): every wrap and unwrap reverts. */
  readonly buffersPaused: boolean;
}
