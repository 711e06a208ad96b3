/**
 * An abort signal that fires after `ms`, and whose timer goes as soon as the caller is done.
 *
 * Not `AbortSignal.timeout`: its timer, with a weak reference and a finalizer cell, stays for the
 * whole timeout after the work ends. At a steady rate of calls (quotes, a followed chain's reads)
 * the heap then holds one of each per call of the last timeout's span.
 */
export function withTimeLimit<T>(ms: number, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const bound = new AbortController();
  const timer = setTimeout(() => bound.abort(new DOMException(what, 'TimeoutError')), ms);
  timer.unref();
  return work(bound.signal).finally(() => clearTimeout(timer));
}
