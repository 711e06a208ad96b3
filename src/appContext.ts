import type { AppState } from './appState';
import type { Config } from './config/env';
import type { ErrorTrackerSlot } from './log/errorTracker';
import type { Logger } from './log/logger';
import type { ReadModel } from './readModel/readModel';
import type { Store } from './store/Store';

/**
 * What the HTTP layer and the jobs share. Built once per app by `createContext` (src/server.ts) and
 * passed down; tests build it around a temp store and local fake upstreams. Everything an app holds
 * while it runs lives here, never in module variables (docs/ARCHITECTURE.md, "State").
 */
export interface AppContext {
  readonly config: Config;
  readonly logger: Logger;
  readonly store: Store;
  readonly readModel: ReadModel;
  /** Unix milliseconds; injected so jobs and leases can be tested with a fake clock. */
  readonly now: () => number;
  /** Where job failures are reported; the errorTracking feature plugs its tracker in. */
  readonly errorTracker: ErrorTrackerSlot;
  /** Leases held, job and GraphQL caches: per-app values behind keys their modules declare. */
  readonly state: AppState;
}
