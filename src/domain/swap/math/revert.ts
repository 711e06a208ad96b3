/**
 * Base of every "the contract would revert here" error of the pool math. Searches probe past
 * pools' limits all the time, so these errors carry no stack trace: capturing one cost more than
 * the swap arithmetic itself (a tenth of a quote's CPU).
 */
export class Revert extends Error {
  constructor(message: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
  }
}
