import { poolTypeDef } from '../../src/domain/poolTypes/registry';
import { UnsupportedPoolError, type ModelFactory } from '../../src/domain/swap/poolModel';

/**
 * A pool's model as the engine builds it: through its type's definition in the registry, which
 * owns its factory and the versions it carries (each factory builds its own type only, without
 * asking the type's name or version again).
 */
export const modelOfType: ModelFactory = (spec, ctx) => {
  const def = poolTypeDef(spec.poolType);
  if (!def?.createModel) throw new UnsupportedPoolError(`pool type ${spec.poolType} is not carried by the V2 engine`);
  const version = spec.poolTypeVersion ?? 1;
  if (def.versions !== 'all' && !def.versions.includes(version))
    throw new UnsupportedPoolError(`${spec.poolType} v${version} is not carried`);
  return def.createModel(spec, ctx);
};
