import { DecimalError } from '../decimal';
import {
  Revert,
  UnsupportedPoolError,
  type ModelContext,
  type ModelFactory,
  type PoolModel,
  type PoolSpec,
} from './poolModel';
import { createComposableStableModel } from './pools/composableStable';
import { createElementModel } from './pools/element';
import { createGyro2Model } from './pools/gyro2';
import { createGyro3Model } from './pools/gyro3';
import { createGyroEModel } from './pools/gyroE';
import { createLinearModel } from './pools/linear';
import { createStableModel } from './pools/stable';
import { createWeightedModel } from './pools/weighted';

/**
 * Pool type -> model factory: the one place that names every pool type the engine carries.
 * Adding a pool type: its math in `math/`, its model in `pools/`, one line here.
 */
const FACTORIES: Readonly<Record<string, ModelFactory>> = {
  Weighted: createWeightedModel,
  LiquidityBootstrapping: createWeightedModel,
  Investment: createWeightedModel,
  Managed: createWeightedModel,
  Element: createElementModel,
  Stable: createStableModel,
  MetaStable: createStableModel,
  StablePhantom: createComposableStableModel,
  ComposableStable: createComposableStableModel,
  Gyro2: createGyro2Model,
  Gyro3: createGyro3Model,
  GyroE: createGyroEModel,
};

/** Every linear pool variant (Aave, ERC4626, Euler, Gearbox, Yearn, ...) shares LinearPool's arithmetic. */
function factoryFor(poolType: string): ModelFactory | undefined {
  return FACTORIES[poolType] ?? (poolType.endsWith('Linear') ? createLinearModel : undefined);
}

/** Pool types whose swaps depend on the quote's timestamp: rebuilt when it moves, the rest kept. */
const TIME_DEPENDENT: ReadonlySet<string> = new Set(['Element']);

export function isTimeDependent(spec: Pick<PoolSpec, 'poolType'>): boolean {
  return TIME_DEPENDENT.has(spec.poolType);
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
    const factory = factoryFor(spec.poolType);
    if (!factory) {
      skipped.push({ id: spec.id, reason: `pool type ${spec.poolType} is not carried` });
      continue;
    }
    try {
      models.push(factory(spec, ctx));
    } catch (e) {
      if (isBadPool(e)) skipped.push({ id: spec.id, reason: e.message });
      else failed.push({ id: spec.id, error: e });
    }
  }
  return { models, skipped, failed };
}
