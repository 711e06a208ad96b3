/**
 * Pools whose model broke while a quote thread built it: bugs, not bad pool data (`buildModels` in
 * src/domain/swap/models.ts tells them apart), carried back to the main thread to be logged. Apart
 * from the routers so the own engine does not load the SOR adapter (and with it
 * `@balancer-labs/sor` and ethers v5) into every thread.
 */
export interface ModelBug {
  readonly poolId: string;
  /** The error's stack (or text): it crosses to the main thread as a string. */
  readonly error: string;
}

export function modelBugsOf(failed: readonly { readonly id: string; readonly error: unknown }[]): ModelBug[] {
  return failed.map(({ id, error }) => ({
    poolId: id,
    error: error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error),
  }));
}
