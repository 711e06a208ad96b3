import { isTimeDependentType, poolTypeDef } from '../poolTypes/registry';
import { UnsupportedPoolError, type ModelContext, type PoolModel, type PoolSpec } from './poolModel';

/**
 * Stored pools -> the engine's models, each through its pool type's factory in the registry
 * (`src/domain/poolTypes/registry.ts`, the one place that names every pool type).
 */

/** Pool types whose swaps depend on the quote's timestamp: rebuilt when it moves, the rest kept. */
export function isTimeDependent(spec: Pick<PoolSpec, 'poolType'>): boolean {
  return isTimeDependentType(spec.poolType);
}

export interface BuiltModels {
  readonly models: PoolModel[];
  /** Pools left out, with the reason (unknown type, unsupported version, bad parameters). */
  readonly skipped: { readonly id: string; readonly reason: string }[];
}

export function buildModels(specs: readonly PoolSpec[], ctx: ModelContext): BuiltModels {
  const models: PoolModel[] = [];
  const skipped: { id: string; reason: string }[] = [];
  for (const spec of specs) {
    const factory = poolTypeDef(spec.poolType)?.createModel;
    if (!factory) {
      skipped.push({ id: spec.id, reason: `pool type ${spec.poolType} is not carried` });
      continue;
    }
    try {
      models.push(factory(spec, ctx));
    } catch (e) {
      if (!(e instanceof UnsupportedPoolError) && !(e instanceof Error)) throw e;
      skipped.push({ id: spec.id, reason: e.message });
    }
  }
  return { models, skipped };
}
