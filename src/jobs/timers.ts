import type { Logger } from '../log/logger';
import { JobAlreadyRunning } from './exclusive';

/**
 * Embedded-mode schedule: runs `fn` every `intervalMs`, never overlapping itself (the next run is
 * scheduled when the previous one ends). `intervalMs <= 0` disables it. A tick that finds its job
 * already running (a POST, another instance holding the lease) is skipped, not a failure.
 */
export interface Timer {
  stop(): Promise<void>;
}

export function every(
  name: string,
  intervalMs: number,
  fn: () => Promise<unknown>,
  logger: Logger,
  runNow = false,
): Timer {
  if (!(intervalMs > 0)) return { stop: async () => undefined };
  let stopped = false;
  let handle: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = () => {
    running = fn()
      .then(
        () => undefined,
        (e: Error) => {
          if (e instanceof JobAlreadyRunning) logger.debug({ job: name }, 'scheduled run skipped: already running');
          else logger.warn({ job: name, err: e.message }, 'scheduled job failed');
        },
      )
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
