/**
 * Spaces request starts so a caller never exceeds `requestsPerMinute` against a rate-limited
 * provider (CoinGecko's free tier answers 429 beyond roughly 30 calls a minute). The gate is shared
 * by every run that uses the same client, so back-to-back runs do not burst.
 */
export class RequestGate {
  private nextStart = 0;
  private readonly intervalMs: number;

  constructor(
    requestsPerMinute: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.intervalMs = 60_000 / Math.max(1, requestsPerMinute);
  }

  /**
   * Waits for the next free slot and claims it. Returns false, without claiming, when that slot
   * starts after `deadline` (unix ms): the caller's time budget is spent.
   */
  async take(deadline?: number): Promise<boolean> {
    const now = this.clock();
    const start = Math.max(now, this.nextStart);
    if (deadline !== undefined && start > deadline) return false;
    this.nextStart = start + this.intervalMs;
    if (start > now) await new Promise((r) => setTimeout(r, start - now));
    return true;
  }
}
