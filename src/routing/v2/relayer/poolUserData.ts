import { AbiCoder } from 'ethers';
import type { UserDataFamily } from '../../../domain/poolTypes/poolTypeDef';
import { poolTypeDef } from '../../../domain/poolTypes/registry';

/**
 * `userData` of the single-token join and exit a route takes, per pool family. The join is
 * EXACT_TOKENS_IN_FOR_BPT_OUT (kind 1 in every family) with one non-zero amount and a minimum BPT
 * out; the exit is EXACT_BPT_IN_FOR_ONE_TOKEN_OUT (kind 0 in every family) with the index of the
 * token paid out. Weighted and legacy stable pools (Stable, MetaStable) count amounts and indexes
 * over all their tokens; composable stable pools hold their own BPT among their tokens and count
 * over the others only (ComposableStablePool `_dropBptItem`).
 */

export type PoolFamily = UserDataFamily;

const JOIN_EXACT_TOKENS_IN_FOR_BPT_OUT = 1n;
const EXIT_EXACT_BPT_IN_FOR_ONE_TOKEN_OUT = 0n;

const coder = AbiCoder.defaultAbiCoder();

/** The family whose join/exit encoding a pool type uses (its registry entry); undefined when it has none. */
export function poolFamily(poolType: string): PoolFamily | undefined {
  return poolTypeDef(poolType)?.userData;
}

/**
 * Tokens as the pool's userData counts them: a composable stable pool's own BPT is left out.
 * `tokens` and `bpt` lower-case, `tokens` in the Vault's order.
 */
export function userDataTokens(family: PoolFamily, tokens: readonly string[], bpt: string): readonly string[] {
  return family === 'composableStable' ? tokens.filter((t) => t !== bpt) : tokens;
}

function indexIn(tokens: readonly string[], token: string, what: string): number {
  const k = tokens.indexOf(token);
  if (k < 0) throw new Error(`${what} ${token} is not a token of the pool (${tokens.join(', ')})`);
  return k;
}

/** `amountIn` may be a chained reference: the relayer replaces it in the amounts array. */
export function joinUserData(
  family: PoolFamily,
  tokens: readonly string[],
  bpt: string,
  tokenIn: string,
  amountIn: bigint,
  minBptOut: bigint,
): string {
  const counted = userDataTokens(family, tokens, bpt);
  const k = indexIn(counted, tokenIn, 'join token');
  const amounts = counted.map((_, n) => (n === k ? amountIn : 0n));
  return coder.encode(['uint256', 'uint256[]', 'uint256'], [JOIN_EXACT_TOKENS_IN_FOR_BPT_OUT, amounts, minBptOut]);
}

/** `bptIn` may be a chained reference. */
export function exitUserData(
  family: PoolFamily,
  tokens: readonly string[],
  bpt: string,
  tokenOut: string,
  bptIn: bigint,
): string {
  const k = indexIn(userDataTokens(family, tokens, bpt), tokenOut, 'exit token');
  return coder.encode(['uint256', 'uint256', 'uint256'], [EXIT_EXACT_BPT_IN_FOR_ONE_TOKEN_OUT, bptIn, BigInt(k)]);
}
