/**
 * The transaction simulation provider (Tenderly's REST API shape), as the pass-through routes see
 * it. Bodies are already allow-listed by the caller; answers come back as the provider's JSON.
 * Failures throw `UpstreamError` (with the provider's status and body for a 4xx).
 */
export interface SimulatorClient {
  encodeStates(body: Readonly<Record<string, unknown>>): Promise<unknown>;
  simulate(body: Readonly<Record<string, unknown>>): Promise<unknown>;
}

export const SIMULATOR_UPSTREAM = 'simulator';
/** Full simulations of a batch swap can take several seconds; past this the route answers 502. */
export const SIMULATOR_TIMEOUT_MS = 10_000;
