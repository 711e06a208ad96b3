import type { PoolModel } from '../../../swap/poolModel';
import type { StoredPool } from '../../../pool';
import { poolTypeDef } from '../../../poolTypes/registry';
import { v3PoolOf } from '../../../poolTypes/v3PoolOf';
import { bufferStateOf, erc4626Of } from '../stored/buffers';
import type { StoredBuffer } from '../stored/storedV3';
import type { V3VaultLimits } from '../vault/limits';
import { BufferModel } from './bufferModel';
import type { KeptPoolModel, V3ModelCache } from './v3ModelCache';
import { V3PoolModel } from './v3PoolModel';

/**
 * The V3 Vault's routing universe at one state and timestamp: a model per stored V3 pool whose type
 * the service carries (`poolTypes/v3PoolOf.ts`) and one per buffer. Pools of other protocols are
 * not part of it: a route stays within one Vault.
 */

export interface V3Models {
  readonly models: PoolModel[];
  /** Pools and buffers left out, with why (type not carried, unmodelled hook, missing field, paused). */
  readonly skipped: { readonly id: string; readonly reason: string }[];
  /** Failures no stored pool explains (a bug), for the caller to log. */
  readonly failed: { readonly id: string; readonly error: unknown }[];
}

export interface V3ModelsInput {
  readonly pools: readonly StoredPool[];
  readonly buffers: ReadonlyMap<string, StoredBuffer>;
  /** Unix seconds of the block the quote prices in (LBP and QuantAMM weights, ReClamm's virtual balances). */
  readonly timestamp: bigint;
  /** Decimals of a token no V3 pool holds (a buffer's underlying), from the chain's token list. */
  readonly decimalsOf?: (token: string) => number | undefined;
  readonly limits?: V3VaultLimits;
  /** Models kept from earlier universes of the same chain (`V3ModelCache`). */
  readonly cache?: V3ModelCache;
}

export function buildV3Models(input: V3ModelsInput): V3Models {
  const models: PoolModel[] = [];
  const skipped: { id: string; reason: string }[] = [];
  const failed: { id: string; error: unknown }[] = [];
  const decimals = new Map<string, number>();
  for (const pool of input.pools) {
    if (pool.protocolVersion !== 3) continue;
    for (const t of pool.tokens) decimals.set(t.address.toLowerCase(), t.decimals);
    const built = poolModelOf(pool, input);
    if ('model' in built) models.push(built.model);
    else if ('skipped' in built) skipped.push(built.skipped);
    else failed.push({ id: pool.id, error: built.failed });
  }
  const decimalsOf = (t: string) => decimals.get(t.toLowerCase()) ?? input.decimalsOf?.(t.toLowerCase());
  for (const [key, stored] of input.buffers) {
    if (stored.buffersPaused) {
      skipped.push({ id: key, reason: 'buffers paused' });
      continue;
    }
    // An ERC-4626 token has its asset's decimals, plus its virtual offset where it has one.
    const offset = stored.token.conversion === 'totals' ? stored.token.decimalsOffset : 0;
    const wrapped = decimalsOf(stored.wrappedToken) ?? decimalsOf(stored.underlyingToken)! + offset;
    const underlying = decimalsOf(stored.underlyingToken) ?? wrapped - offset;
    if (!Number.isInteger(wrapped) || !Number.isInteger(underlying)) {
      skipped.push({ id: key, reason: 'decimals of neither token are known' });
      continue;
    }
    const decimalsKey = `${wrapped}/${underlying}`;
    const keptBuffer = input.cache?.buffer(stored, input.limits, decimalsKey);
    if (keptBuffer) {
      models.push(keptBuffer);
      continue;
    }
    try {
      const model = new BufferModel({
        buffer: bufferStateOf(stored),
        token: erc4626Of(stored.token),
        decimals: [wrapped, underlying],
        ...(input.limits ? { limits: input.limits } : {}),
      });
      models.push(model);
      input.cache?.keepBuffer(stored, input.limits, decimalsKey, model);
    } catch (e) {
      if (isBadPool(e)) skipped.push({ id: key, reason: e.message });
      else failed.push({ id: key, error: e });
    }
  }
  return { models, skipped, failed };
}

/**
 * Builds ahead, into `cache`, the models of the time-dependent pools of `input` at its timestamp
 * (the next block's), from the pool at index `from` on, handing each new model to `built` (its
 * owner reads its edges there), until `enough()` says so (one at least). Answers the index to go on from: the
 * pools' count once every such pool has its model (or its reason to be left out). A failure no
 * stored pool explains is left for the block's own build to report.
 */
export function prepareV3Models(
  input: V3ModelsInput & { readonly cache: V3ModelCache; readonly from?: number },
  built: (model: PoolModel) => void,
  enough: () => boolean,
): number {
  const { pools } = input;
  let any = false;
  for (let k = input.from ?? 0; k < pools.length; k++) {
    const pool = pools[k]!;
    if (pool.protocolVersion !== 3 || poolTypeDef(pool.poolType, 3)?.timeDependent !== true) continue;
    if (input.cache.pool(pool, input.limits, input.timestamp)) continue;
    // Each call builds one at least, so calls that are always told enough still get through.
    if (any && enough()) return k;
    any = true;
    const made = poolModelOf(pool, input);
    if ('model' in made) built(made.model);
  }
  return pools.length;
}

/** A stored V3 pool's model (kept, or built and kept), its reason to be left out, or what broke. */
function poolModelOf(pool: StoredPool, input: V3ModelsInput): KeptPoolModel | { readonly failed: unknown } {
  const kept = input.cache?.pool(pool, input.limits, input.timestamp);
  if (kept) return kept;
  const skip = (reason: string): KeptPoolModel => {
    const entry: KeptPoolModel = { skipped: { id: pool.id, reason } };
    input.cache?.keepPool(pool, input.limits, input.timestamp, entry);
    return entry;
  };
  try {
    const v3 = v3PoolOf(pool, input.timestamp);
    if (!v3) return skip(`V3 pool type ${pool.poolType} is not carried`);
    if (v3.state.paused || v3.state.inRecoveryMode) return skip(v3.state.paused ? 'paused' : 'in recovery mode');
    const model = new V3PoolModel({
      pool: v3,
      decimals: pool.tokens.map((t) => t.decimals),
      poolType: pool.poolType,
      pathRole: poolTypeDef(pool.poolType, 3)?.pathRole ?? 'through',
      ...(pool.v3?.hook?.kind === 'mevCapture'
        ? {
            assumption: `pool ${pool.id}: its MEV capture hook is quoted at the static fee, what a transaction whose priority fee is at or below the pool's threshold pays; a higher priority fee pays more`,
          }
        : {}),
      ...(input.limits ? { limits: input.limits } : {}),
    });
    const entry = { model };
    input.cache?.keepPool(pool, input.limits, input.timestamp, entry);
    return entry;
  } catch (e) {
    if (isBadPool(e)) return skip(e.message);
    return { failed: e };
  }
}

/**
 * What building from stored data may throw without a bug: a type or hook not carried, a field the
 * type needs that the pool lacks, arithmetic the contract would refuse, a malformed decimal. A
 * TypeError or ReferenceError is the code's fault, not the pool's.
 */
function isBadPool(e: unknown): e is Error {
  return e instanceof Error && !(e instanceof TypeError) && !(e instanceof ReferenceError);
}
