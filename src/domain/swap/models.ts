import { DecimalError } from '../decimal';
import { isTimeDependentType, poolTypeDef } from '../poolTypes/registry';
import { Revert, UnsupportedPoolError, type ModelContext, type PoolModel, type PoolSpec } from './poolModel';

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
  /**
   * Pools left out because their model threw what no stored pool explains (a TypeError, say): a
   * bug in the model, which the caller logs as one.
   */
  readonly failed: { readonly id: string; readonly error: unknown }[];
}

/**
 * What a factory throws for a pool it cannot build from the stored data: a type or version not
 * carried, a malformed decimal, parameters whose arithmetic the contract would refuse.
 */
function isBadPool(e: unknown): e is Error {
  return e instanceof UnsupportedPoolError || e instanceof DecimalError || e instanceof Revert;
}

export function buildModels(specs: readonly PoolSpec[], ctx: ModelContext): BuiltModels {
  const models: PoolModel[] = [];
  const skipped: { id: string; reason: string }[] = [];
  const failed: { id: string; error: unknown }[] = [];
  for (const spec of specs) {
    // The engine prices V2 Vault pools: a V3 type's def has no V2 model.
    const def = poolTypeDef(spec.poolType);
    if (!def?.createModel) {
      skipped.push({ id: spec.id, reason: `pool type ${spec.poolType} is not carried` });
      continue;
    }
    // The definition's versions are the ones its model carries: its factory is not asked again.
    const version = spec.poolTypeVersion ?? 1;
    if (def.versions !== 'all' && !def.versions.includes(version)) {
      skipped.push({ id: spec.id, reason: `${spec.poolType} v${version} is not carried` });
      continue;
    }
    try {
      const createModel = def.createModel;
      models.push(createModel(spec, ctx));
    } catch (e) {
      if (isBadPool(e)) skipped.push({ id: spec.id, reason: e.message });
      else failed.push({ id: spec.id, error: e });
    }
  }
  return { models, skipped, failed };
}
