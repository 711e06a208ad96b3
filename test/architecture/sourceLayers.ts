import type { Layer } from './layers';

/** The layers of src/, bottom first: the table in docs/ARCHITECTURE.md. */
export const SOURCE_LAYERS: readonly Layer[] = [
  { name: 'domain', units: ['src/domain/'] },
  { name: 'config and log', units: ['src/config/', 'src/log/', 'src/lifecycle/'] },
  { name: 'store and sources', units: ['src/store/', 'src/sources/'] },
  { name: 'read model', units: ['src/readModel/'] },
  { name: 'app context', units: ['src/appContext.ts', 'src/appState.ts'] },
  { name: 'jobs', units: ['src/jobs/'] },
  { name: 'http kit', units: ['src/http/'] },
  {
    name: 'features',
    units: [
      'src/errorTracking/',
      'src/graphql/',
      'src/routing/',
      'src/sanctions/',
      'src/simulator/',
      'src/jobs/triggers/',
      'src/http/armour/',
    ],
  },
  { name: 'composition root', units: ['src/features.ts', 'src/server.ts', 'src/main.ts', 'src/cli/', 'src/devnet/'] },
];
