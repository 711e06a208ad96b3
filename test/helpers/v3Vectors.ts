import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { V3SwapKind } from '../../src/domain/protocols/v3/poolMath';
import type { V3PoolState } from '../../src/domain/protocols/v3/vault/poolState';

/**
 * The real Balancer V3 pool vectors kept beside the clone (`V3_VECTORS_DIR` below):
 * a pool's state at a block and what the chain's query functions answered for swaps, adds and
 * removes then. Read at run time by file name, numbers as bigints. They are the oracle for the V3
 * maths, so a missing file fails its test rather than skipping it.
 */
export const V3_VECTORS_DIR = join(__dirname, '..', '..', '..', 'shared', 'data', 'balancer-v3-vectors');

export interface V3VectorSwap {
  readonly kind: V3SwapKind;
  readonly amountRaw: bigint;
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** Amount out (exact in) or in (exact out), raw, as the chain's query returned it. */
  readonly outputRaw: bigint;
}

export interface V3VectorAdd {
  /** 'Unbalanced': exact amounts in; 'SingleToken': exact BPT out, the one non-zero amount being the max in. */
  readonly kind: 'Unbalanced' | 'SingleToken';
  readonly inputAmountsRaw: readonly bigint[];
  readonly bptOutRaw: bigint;
}

export interface V3VectorRemove {
  readonly kind: 'Proportional' | 'SingleTokenExactIn' | 'SingleTokenExactOut';
  readonly amountsOutRaw: readonly bigint[];
  readonly bptInRaw: bigint;
}

export interface V3VectorHook {
  readonly address: string;
  readonly type: string;
  readonly enableHookAdjustedAmounts: boolean;
  /** `shouldCall...` flags, by callback name (`shouldCallComputeDynamicSwapFee` ...). */
  readonly flags: Readonly<Record<string, boolean>>;
  /** The hook's own parameters as the vector recorded them (decimal strings). */
  readonly dynamicData: Readonly<Record<string, string>>;
}

/** The pool part of a vector: the fields every V3 pool has typed, the type's own through the accessors. */
export interface V3VectorPool {
  readonly chainId: number;
  readonly blockNumber: bigint;
  readonly poolType: string;
  readonly poolAddress: string;
  readonly tokens: readonly string[];
  readonly hook: V3VectorHook | undefined;
  /** A field as a bigint (the vector keeps numbers as decimal strings). Throws when absent. */
  big(name: string): bigint;
  /** A field that is a list of numbers, as bigints. Throws when absent. */
  bigs(name: string): readonly bigint[];
  /** A field as a JS number (indices). Throws when absent. */
  num(name: string): number;
  /** A boolean field. Throws when absent. */
  bool(name: string): boolean;
  has(name: string): boolean;
}

export interface V3Vector {
  readonly file: string;
  readonly swaps: readonly V3VectorSwap[];
  readonly adds: readonly V3VectorAdd[];
  readonly removes: readonly V3VectorRemove[];
  readonly pool: V3VectorPool;
}

type Json = Record<string, unknown>;

export function loadV3Vector(file: string): V3Vector {
  const json = JSON.parse(readFileSync(join(V3_VECTORS_DIR, file), 'utf8')) as Json;
  const list = (key: string): Json[] => (Array.isArray(json[key]) ? (json[key] as Json[]) : []);
  return {
    file,
    swaps: list('swaps').map((s) => ({
      kind: swapKind(s['swapKind']),
      amountRaw: BigInt(s['amountRaw'] as string),
      tokenIn: s['tokenIn'] as string,
      tokenOut: s['tokenOut'] as string,
      outputRaw: BigInt(s['outputRaw'] as string),
    })),
    adds: list('adds').map((a) => ({
      kind: oneOf(a['kind'], ['Unbalanced', 'SingleToken'] as const),
      inputAmountsRaw: (a['inputAmountsRaw'] as string[]).map((x) => BigInt(x)),
      bptOutRaw: BigInt(a['bptOutRaw'] as string),
    })),
    removes: list('removes').map((r) => ({
      kind: oneOf(r['kind'], ['Proportional', 'SingleTokenExactIn', 'SingleTokenExactOut'] as const),
      amountsOutRaw: (r['amountsOutRaw'] as string[]).map((x) => BigInt(x)),
      bptInRaw: BigInt(r['bptInRaw'] as string),
    })),
    pool: vectorPool(file, json['pool'] as Json),
  };
}

function vectorPool(file: string, p: Json): V3VectorPool {
  const field = (name: string): unknown => {
    if (!(name in p)) throw new Error(`${file}: pool has no field ${name}`);
    return p[name];
  };
  const hook = p['hook'] as Json | undefined;
  return {
    chainId: Number(field('chainId')),
    blockNumber: BigInt(field('blockNumber') as string),
    poolType: field('poolType') as string,
    poolAddress: field('poolAddress') as string,
    tokens: field('tokens') as string[],
    hook:
      hook === undefined
        ? undefined
        : {
            address: hook['address'] as string,
            type: hook['type'] as string,
            enableHookAdjustedAmounts: hook['enableHookAdjustedAmounts'] === true,
            flags: Object.fromEntries(
              Object.entries(hook).filter(([k, v]) => k.startsWith('shouldCall') && typeof v === 'boolean'),
            ) as Record<string, boolean>,
            dynamicData: (hook['dynamicData'] ?? {}) as Record<string, string>,
          },
    big: (name) => BigInt(field(name) as string),
    bigs: (name) => (field(name) as string[]).map((x) => BigInt(x)),
    num: (name) => Number(field(name)),
    bool: (name) => {
      const v = field(name);
      if (typeof v !== 'boolean') throw new Error(`${file}: pool field ${name} is not a boolean`);
      return v;
    },
    has: (name) => name in p,
  };
}

function swapKind(v: unknown): V3SwapKind {
  if (v === 0) return 'exactIn';
  if (v === 1) return 'exactOut';
  throw new Error(`swapKind ${String(v)} is neither 0 (exact in) nor 1 (exact out)`);
}

function oneOf<T extends string>(v: unknown, kinds: readonly T[]): T {
  if (typeof v === 'string' && (kinds as readonly string[]).includes(v)) return v as T;
  throw new Error(`kind ${String(v)} is not one of ${kinds.join(', ')}`);
}

/**
 * The Vault's state of a vector's pool: live balances as read (rounded down), rates, fees, supply;
 * paused and recovery flags where the vector recorded them (false otherwise), unbalanced
 * liquidity allowed (every vector pool takes single-token and unbalanced operations).
 */
export function vectorVaultState(pool: V3VectorPool): V3PoolState {
  return {
    address: pool.poolAddress,
    tokens: pool.tokens,
    scalingFactors: pool.bigs('scalingFactors'),
    tokenRates: pool.bigs('tokenRates'),
    balancesLiveScaled18: pool.bigs('balancesLiveScaled18'),
    staticSwapFee: pool.big('swapFee'),
    aggregateSwapFee: pool.has('aggregateSwapFee') ? pool.big('aggregateSwapFee') : 0n,
    totalSupply: pool.big('totalSupply'),
    paused: pool.has('isPoolPaused') ? pool.bool('isPoolPaused') : false,
    inRecoveryMode: pool.has('isPoolInRecoveryMode') ? pool.bool('isPoolInRecoveryMode') : false,
    supportsUnbalancedLiquidity: true,
  };
}

/** A swap's test title: kind, amount and the tokens' first hex digits. */
export function swapTitle(swap: V3VectorSwap): string {
  return `${swap.kind} ${swap.amountRaw} ${swap.tokenIn.slice(0, 8)} -> ${swap.tokenOut.slice(0, 8)}`;
}
