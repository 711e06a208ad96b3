import { poolTypeDef } from '../../src/domain/poolTypes/registry';
import type { ModelFactory } from '../../src/domain/swap/poolModel';

/**
 * A pool's model as the engine builds it: through its type's definition in the registry (each
 * definition owns its factory, so there is no model factory per family to ask).
 */
export const modelOfType: ModelFactory = (spec, ctx) => {
  const def = poolTypeDef(spec.poolType);
  if (!def?.createModel) throw new Error(`no V2 pool type ${spec.poolType} is registered`);
  return def.createModel(spec, ctx);
};
