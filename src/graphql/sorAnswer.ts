import { unitsToDecimal } from '../domain/decimal';
import type { OrderKind, SerializedSwapInfo, SerializedV3SwapInfo } from '../routing/types';

/**
 * Our quotes in the current Balancer API's shape (`GqlSorGetSwapPaths`): the paths the SDK builds
 * its swaps from, the `batchSwap`-shaped swaps CoW's solver sends to the V2 Vault (and counts for
 * gas), human and raw amounts, prices, routes with their real shares. Pure: the resolver hands in
 * the quote, the token decimals and the pools it may name.
 */

export type GqlSwapType = 'EXACT_IN' | 'EXACT_OUT';

/** A path as the answer gives it: its pools (buffers by their ERC-4626 token) and its amounts at each token. */
export interface ApiPath {
  readonly pools: readonly string[];
  readonly isBuffer: readonly boolean[];
  /** The path's tokens in trading order (pools + 1), as ERC-20 addresses. */
  readonly tokens: readonly string[];
  /** The amounts at each token: the path's amount in, after each step, its amount out. */
  readonly amounts: readonly bigint[];
}

export interface GqlSorSwap {
  readonly poolId: string;
  readonly assetInIndex: number;
  readonly assetOutIndex: number;
  readonly amount: string;
  readonly userData: string;
}

export interface GqlSorPath {
  readonly vaultVersion: number;
  readonly protocolVersion: number;
  readonly pools: readonly string[];
  readonly isBuffer: readonly boolean[];
  readonly tokens: readonly { readonly address: string; readonly decimals: number }[];
  readonly inputAmountRaw: string;
  readonly outputAmountRaw: string;
}

export interface GqlSorSwapRouteHop {
  readonly tokenIn: string;
  readonly tokenInAmount: string;
  readonly tokenOut: string;
  readonly tokenOutAmount: string;
  readonly poolId: string;
}

export interface GqlSorSwapRoute {
  readonly tokenIn: string;
  readonly tokenInAmount: string;
  readonly tokenOut: string;
  readonly tokenOutAmount: string;
  readonly share: number;
  readonly hops: readonly GqlSorSwapRouteHop[];
}

export interface GqlSorCallData {
  readonly callData: string;
  readonly to: string;
  readonly value: string;
  readonly minAmountOutRaw?: string;
  readonly maxAmountInRaw?: string;
}

export interface GqlSorGetSwapPaths {
  readonly vaultVersion: number;
  readonly protocolVersion: number;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly swapType: GqlSwapType;
  readonly swaps: readonly GqlSorSwap[];
  readonly tokenAddresses: readonly string[];
  readonly paths: readonly GqlSorPath[];
  readonly tokenInAmount: string;
  readonly tokenOutAmount: string;
  readonly swapAmount: string;
  readonly swapAmountRaw: string;
  readonly returnAmount: string;
  readonly returnAmountRaw: string;
  readonly effectivePrice: string;
  readonly effectivePriceReversed: string;
  readonly routes: readonly GqlSorSwapRoute[];
  readonly priceImpact: { readonly priceImpact: string | null; readonly error: string | null };
  readonly callData: GqlSorCallData | null;
  /** The block whose state the answer was read at; null where the chain's head is not followed. */
  readonly blockNumber: number | null;
}

export const kindOf = (swapType: GqlSwapType): OrderKind => (swapType === 'EXACT_IN' ? 'sell' : 'buy');

/**
 * The current API's zero answer for "no route": nothing to swap, every amount "0", and
 * `priceImpact.error` saying why (CoW's solver reads an all-zero answer as "not found").
 */
export function zeroAnswer(
  tokenIn: string,
  tokenOut: string,
  swapType: GqlSwapType,
  reason: string,
  blockNumber: number | null,
): GqlSorGetSwapPaths {
  return {
    vaultVersion: 2,
    protocolVersion: 2,
    tokenIn,
    tokenOut,
    swapType,
    swaps: [],
    tokenAddresses: [],
    paths: [],
    tokenInAmount: '0',
    tokenOutAmount: '0',
    swapAmount: '0',
    swapAmountRaw: '0',
    returnAmount: '0',
    returnAmountRaw: '0',
    effectivePrice: '0',
    effectivePriceReversed: '0',
    routes: [],
    priceImpact: { priceImpact: null, error: reason },
    callData: null,
    blockNumber,
  };
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * A V2 `batchSwap` (with each step's calculated amount, `QuoteRequest.stepAmounts`) as paths. A
 * sell's path starts at a step with an amount and runs forward; a buy's starts at its last hop
 * and runs backward (a step with amount 0 takes the previous step's calculated amount). The
 * native asset's zero address becomes its wrapped token: paths name ERC-20s.
 */
export function v2Paths(kind: OrderKind, info: SerializedSwapInfo, wrappedNative: string): ApiPath[] {
  const asset = (k: number) => {
    const a = info.tokenAddresses[k]!.toLowerCase();
    return a === ZERO_ADDRESS ? wrappedNative : a;
  };
  const paths: { pools: string[]; tokens: string[]; amounts: bigint[] }[] = [];
  for (const s of info.swaps) {
    const calculated = BigInt(s.returnAmount ?? '0');
    if (s.amount !== '0' || paths.length === 0) {
      paths.push({
        pools: [],
        tokens: [asset(kind === 'sell' ? s.assetInIndex : s.assetOutIndex)],
        amounts: [BigInt(s.amount)],
      });
    }
    const p = paths[paths.length - 1]!;
    p.pools.push(s.poolId);
    p.tokens.push(asset(kind === 'sell' ? s.assetOutIndex : s.assetInIndex));
    p.amounts.push(calculated);
  }
  return paths.map((p) =>
    kind === 'sell'
      ? { ...p, isBuffer: p.pools.map(() => false) }
      : {
          pools: [...p.pools].reverse(),
          isBuffer: p.pools.map(() => false),
          tokens: [...p.tokens].reverse(),
          amounts: [...p.amounts].reverse(),
        },
  );
}

/** V3 BatchRouter paths with their amounts at each token (`V3HopAmounts`). */
export function v3Paths(info: SerializedV3SwapInfo, hopAmounts: readonly (readonly bigint[])[]): ApiPath[] {
  return info.paths.map((p, k) => ({
    pools: p.steps.map((s) => s.pool.toLowerCase()),
    isBuffer: p.steps.map((s) => s.isBuffer),
    tokens: [p.tokenIn.toLowerCase(), ...p.steps.map((s) => s.tokenOut.toLowerCase())],
    amounts: hopAmounts[k]!,
  }));
}

/**
 * Paths as one `batchSwap`: a sell lists each path's steps forward (the first carries the
 * path's amount in), a buy backward (the first carries its amount out). For a V3 answer the
 * "pool id" of a step is the pool's address (a buffer's: its ERC-4626 token), as the current API
 * gives it: CoW counts these steps for gas and builds the V3 call from `paths`.
 */
export function batchSwapOf(
  kind: OrderKind,
  paths: readonly ApiPath[],
  tokenIn: string,
  tokenOut: string,
): { swaps: GqlSorSwap[]; tokenAddresses: string[] } {
  const tokenAddresses = [tokenIn, tokenOut];
  const index = (t: string) => {
    let k = tokenAddresses.indexOf(t);
    if (k < 0) k = tokenAddresses.push(t) - 1;
    return k;
  };
  const swaps: GqlSorSwap[] = [];
  for (const p of paths) {
    const steps = p.pools.map((pool, k) => ({ pool, k }));
    if (kind === 'buy') steps.reverse();
    steps.forEach(({ pool, k }, n) => {
      const given = kind === 'sell' ? p.amounts[0]! : p.amounts[p.amounts.length - 1]!;
      swaps.push({
        poolId: pool,
        assetInIndex: index(p.tokens[k]!),
        assetOutIndex: index(p.tokens[k + 1]!),
        amount: n === 0 ? given.toString() : '0',
        userData: '0x',
      });
    });
  }
  return { swaps, tokenAddresses };
}

/** num / den as a plain decimal, truncated to 18 fraction digits; "0" when den is 0. */
export function ratio(num: bigint, den: bigint): string {
  if (den === 0n) return '0';
  return unitsToDecimal((num * 10n ** 18n) / den, 18);
}

export interface RoutedAnswer {
  readonly protocolVersion: 2 | 3;
  readonly swapType: GqlSwapType;
  /** As the request named them (lower case; the native asset's alias kept). */
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** Native-asset aliases replaced by the wrapped token, as the swaps name them. */
  readonly swapTokenIn: string;
  readonly swapTokenOut: string;
  readonly paths: readonly ApiPath[];
  /** V2: the route's own `batchSwap`; V3: built from the paths. */
  readonly batch: { readonly swaps: readonly GqlSorSwap[]; readonly tokenAddresses: readonly string[] };
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly priceImpact: string;
  readonly decimalsOf: (token: string) => number;
  readonly blockNumber: number | null;
  readonly callData: GqlSorCallData | null;
}

/** A routed quote as the current API answers it. */
export function routedAnswer(a: RoutedAnswer): GqlSorGetSwapPaths {
  const kind = kindOf(a.swapType);
  const dIn = a.decimalsOf(a.swapTokenIn);
  const dOut = a.decimalsOf(a.swapTokenOut);
  const human = (amount: bigint, token: string) => unitsToDecimal(amount, a.decimalsOf(token));
  const tokenInAmount = unitsToDecimal(a.amountIn, dIn);
  const tokenOutAmount = unitsToDecimal(a.amountOut, dOut);
  const [swapRaw, returnRaw] = kind === 'sell' ? [a.amountIn, a.amountOut] : [a.amountOut, a.amountIn];
  const totalGiven = kind === 'sell' ? a.amountIn : a.amountOut;
  return {
    vaultVersion: a.protocolVersion,
    protocolVersion: a.protocolVersion,
    tokenIn: a.tokenIn,
    tokenOut: a.tokenOut,
    swapType: a.swapType,
    swaps: a.batch.swaps,
    tokenAddresses: a.batch.tokenAddresses,
    paths: a.paths.map((p) => ({
      vaultVersion: a.protocolVersion,
      protocolVersion: a.protocolVersion,
      pools: p.pools,
      isBuffer: p.isBuffer,
      tokens: p.tokens.map((t) => ({ address: t, decimals: a.decimalsOf(t) })),
      inputAmountRaw: p.amounts[0]!.toString(),
      outputAmountRaw: p.amounts[p.amounts.length - 1]!.toString(),
    })),
    tokenInAmount,
    tokenOutAmount,
    swapAmount: kind === 'sell' ? tokenInAmount : tokenOutAmount,
    swapAmountRaw: swapRaw.toString(),
    returnAmount: kind === 'sell' ? tokenOutAmount : tokenInAmount,
    returnAmountRaw: returnRaw.toString(),
    // Prices in human units: tokenIn per tokenOut, and its inverse.
    effectivePrice: ratio(a.amountIn * 10n ** BigInt(dOut), a.amountOut * 10n ** BigInt(dIn)),
    effectivePriceReversed: ratio(a.amountOut * 10n ** BigInt(dIn), a.amountIn * 10n ** BigInt(dOut)),
    routes: a.paths.map((p) => {
      const pathIn = p.amounts[0]!;
      const pathOut = p.amounts[p.amounts.length - 1]!;
      const given = kind === 'sell' ? pathIn : pathOut;
      return {
        tokenIn: p.tokens[0]!,
        tokenInAmount: human(pathIn, p.tokens[0]!),
        tokenOut: p.tokens[p.tokens.length - 1]!,
        tokenOutAmount: human(pathOut, p.tokens[p.tokens.length - 1]!),
        share: totalGiven === 0n ? 0 : Number((given * 10n ** 18n) / totalGiven) / 1e18,
        hops: p.pools.map((pool, k) => ({
          tokenIn: p.tokens[k]!,
          tokenInAmount: human(p.amounts[k]!, p.tokens[k]!),
          tokenOut: p.tokens[k + 1]!,
          tokenOutAmount: human(p.amounts[k + 1]!, p.tokens[k + 1]!),
          poolId: pool,
        })),
      };
    }),
    priceImpact: { priceImpact: a.priceImpact, error: null },
    callData: a.callData,
    blockNumber: a.blockNumber,
  };
}
