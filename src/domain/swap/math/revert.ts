/**
 * "The contract would revert here": the one error the pool math and the pool models throw for it,
 * whichever library (fixed point, log/exp, a pool's math, the Vault's checks) the revert comes
 * from. Callers test for it with `isRevert`, in one place each.
 *
 * Searches probe past pools' limits all the time, so a revert carries no stack trace: capturing
 * one cost more than the swap arithmetic itself (a tenth of a quote's CPU).
 */
export class Revert extends Error {
  override readonly name: string = 'Revert';
  /**
   * The contract's revert code, e.g. 'BAL#304' or 'GYR#121'; undefined where the contract has
   * none (a checked-arithmetic panic, a failed square root, a request no pool takes).
   */
  readonly code: string | undefined;

  /**
   * `message` is short and ends with the code in parentheses where the contract has one
   * ("amount in above 30% of the balance (BAL#304)"), which is where `code` is read from unless
   * given.
   */
  constructor(message: string, options?: { readonly code?: string; readonly cause?: unknown }) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = limit;
    this.code = options?.code ?? trailingCode(message);
  }
}

/** "... (BAL#304)" -> 'BAL#304': three capitals, '#', three digits, in parentheses at the end. */
function trailingCode(message: string): string | undefined {
  const end = message.length - 1;
  if (message.charCodeAt(end) !== 41 /* ) */ || message.charCodeAt(end - 8) !== 40 /* ( */) return undefined;
  const code = message.slice(end - 7, end);
  return CODE.test(code) ? code : undefined;
}

const CODE = /^[A-Z]{3}#\d{3}$/;

/**
 * Whether an error thrown by a pool model is the contract reverting: a `Revert`, or the RangeError
 * bigint arithmetic throws for a division by zero (which reverts on chain too). Anything else is a
 * bug in the model and must not be taken for a pool's limit.
 */
export function isRevert(e: unknown): e is Error {
  return e instanceof Revert || e instanceof RangeError;
}
