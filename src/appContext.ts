import type { Config } from './config/env';
import type { Logger } from './log/logger';
import type { ReadModel } from './readModel/readModel';
import type { Store } from './store/Store';

/**
 * What the HTTP layer and the jobs share. Built once by `createContext` (src/server.ts); tests
 * build it around a temp store and local fake upstreams.
 */
export interface AppContext {
  readonly config: Config;
  readonly logger: Logger;
  readonly store: Store;
  readonly readModel: ReadModel;
  /** Unix milliseconds; injected so jobs and leases can be tested with a fake clock. */
  readonly now: () => number;
}
