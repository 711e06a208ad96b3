import type { LEGACY_FEE_BASIS_PARAMS } from '../legacyFeeBasis';
import type { SpecOf } from '../paramField';

/** What the model reads: the core fields and the legacy fee basis (`poolTypes/legacyFeeBasis.ts`). */
export type StableSpec = SpecOf<typeof LEGACY_FEE_BASIS_PARAMS>;
