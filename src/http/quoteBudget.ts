import { ipKeyGenerator, MemoryStore } from 'express-rate-limit';
import { appStateKey } from '../appState';

/**
 * The per-client quote budget (`RATE_LIMIT_QUOTES_PER_MINUTE`). `/sor` and `/order` draw one quote
 * a request through the armour's limiter; a GraphQL request draws one per `sorGetSwapPaths` it
 * asks (each alias is a route search), else a hundred aliases in one read would be a hundred
 * quotes for the price of one read. One store, so both count against the same budget.
 */
export class QuoteBudget {
  readonly store = new MemoryStore();

  constructor(readonly perMinute: number) {}

  /**
   * Draws `quotes` from the budget of the client at `ip`, keyed as the limiter keys it. Undefined
   * when they all fit; else none is drawn, and the answer is the seconds until the window resets.
   */
  async draw(ip: string | undefined, quotes: number): Promise<number | undefined> {
    const key = ipKeyGenerator(ip ?? '0.0.0.0');
    let hits = 0;
    let resetTime: Date | undefined;
    for (let n = 0; n < quotes; n++) ({ totalHits: hits, resetTime } = await this.store.increment(key));
    if (hits <= this.perMinute) return undefined;
    // A refused request computes nothing, so it leaves the budget as it found it.
    for (let n = 0; n < quotes; n++) await this.store.decrement(key);
    return Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + 60_000) - Date.now()) / 1000));
  }
}

/** The app's quote budget, where the armour limits quotes (absent in tests without it, or a budget of 0). */
export const quoteBudgetKey = appStateKey<{ current: QuoteBudget | undefined }>('quoteBudget', () => ({
  current: undefined,
}));
