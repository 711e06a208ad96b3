/**
 * State that belongs to one running app (leases it holds, caches of its jobs and GraphQL indexes)
 * rather than to a module: each AppContext owns an AppState, so two apps in one process (as the
 * tests start them) never see each other's values. A module declares a key once, next to the code that uses
 * it; the value is created on first use in each app. See docs/ARCHITECTURE.md, "State".
 */
export interface AppStateKey<T> {
  readonly name: string;
  readonly create: () => T;
}

export function appStateKey<T>(name: string, create: () => T): AppStateKey<T> {
  return { name, create };
}

export class AppState {
  private readonly values = new Map<AppStateKey<unknown>, unknown>();

  get<T>(key: AppStateKey<T>): T {
    if (this.values.has(key)) return this.values.get(key) as T;
    const value = key.create();
    this.values.set(key, value);
    return value;
  }
}
