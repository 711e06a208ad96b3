import type { Logger } from '../log/logger';

/**
 * Embedded-mode schedule: runs `fn` every `intervalMs`, never overlapping itself (the next run is
 * scheduled when the previous one ends). `intervalMs <= 0` disables it.
 */
export interface Timer {
  stop(): Promise<void>;
}

export function every(name: string, intervalMs: number, fn: () => Promise<unknown>, logger: Logger, runNow = false): Timer {
  if (!(intervalMs > 0)) return { stop: async () => undefined };
  let stopped = false;
  let handle: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = () => {
    running = fn()
      .then(() => undefined, (e: Error) => logger.warn({ job: name, err: e.message }, 'scheduled job failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) schedule();
      });
  };
  const schedule = () => {
    handle = setTimeout(tick, intervalMs);
    handle.unref();
  };
  if (runNow) tick();
  else schedule();
  return {
    stop: async () => {
      stopped = true;
      if (handle) clearTimeout(handle);
      await running;
    },
  };
}
