/**
 * Token bucket for client-side store budgets: `ratePerSecond` sustained, bursts up to
 * `ratePerSecond * burstMultiplier`. Firestore has no provisioned capacity, so this is what keeps
 * a 10,000-pool job from spiking far past the `DATABASE_*_CAPACITY` the operator planned for.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;
  readonly capacity: number;

  constructor(
    readonly ratePerSecond: number,
    burstMultiplier: number,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    this.capacity = Math.max(1, ratePerSecond * burstMultiplier);
    this.tokens = this.capacity;
    this.last = this.now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.capacity, this.tokens + ((t - this.last) / 1000) * this.ratePerSecond);
    this.last = t;
  }

  /** Waits until `n` operations fit the budget, then spends them. */
  async take(n: number): Promise<void> {
    let remaining = n;
    while (remaining > 0) {
      this.refill();
      const chunk = Math.min(remaining, this.capacity);
      if (this.tokens >= chunk) {
        this.tokens -= chunk;
        remaining -= chunk;
        continue;
      }
      await this.sleep(Math.ceil(((chunk - this.tokens) / this.ratePerSecond) * 1000));
    }
  }
}
