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
  let running: Promise<T>;
  try {
    running = work(bound.signal);
  } catch (e) {
    // A `work` that throws before it returns a promise would otherwise leave the timer for `ms`.
    clearTimeout(timer);
    throw e;
  }
  return running.finally(() => clearTimeout(timer));
}

/**
 * `work`'s outcome, or a rejection with a TimeoutError whose message is `what` once `ms` pass
 * first: for work that takes no signal. The work itself goes on; only the wait ends.
 */
export function settledWithin<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  return withTimeLimit(
    ms,
    what,
    (signal) =>
      new Promise<T>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        work.then(resolve, reject);
      }),
  );
}
