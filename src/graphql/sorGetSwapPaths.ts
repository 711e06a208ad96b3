import type { AppContext } from '../appContext';
import { NATIVE_ASSET_ALIASES, type ChainInfo } from '../config/chains';
import { parseAddress } from '../domain/address';
import { toPlainDecimal, unitsToDecimal } from '../domain/decimal';
import type { StoredPool } from '../domain/pool';
import { HttpError } from '../http/errors';
import { REASONS } from '../http/errorReasons';
import { blockNumberOfHash, isFollowed, StateBehindHead } from '../jobs/headGate';
import { retimed } from '../jobs/retime';
import { stateBehindRefusal } from '../http/stateRefusal';
import { ChainSnapshot } from '../readModel/chainSnapshot';
import { buildOrder, checkParties } from '../routing/v2/buildOrder';
import { knownContracts } from '../routing/knownContracts';
import { v3IsBetter } from '../routing/protocolChoice';
import { orderDeadline, quotingKey, refuseStaleState, snapshotFor, type Quoting } from '../routing/quoting';
import { orderBodySchema, parseOrderBody, type OrderBody } from '../routing/requestSchema';
import { hasRoute } from '../routing/serialize';
import type { OrderKind, QuoteRequest, SerializedSwapInfo, SorOrderResponse } from '../routing/types';
import type { V3Quote } from '../routing/v3/v3Router';
import { apiChain } from './apiChain';
import { snapshotLookup } from './currentApiQueries';
import { BadQueryInput } from './badInput';
import type { GraphqlContext } from './requestContext';
import {
  batchSwapOf,
  kindOf,
  routedAnswer,
  v2Paths,
  v3Paths,
  zeroAnswer,
  type GqlSorCallData,
  type GqlSorGetSwapPaths,
  type GqlSwapType,
} from './sorAnswer';

/**
 * `sorGetSwapPaths`, the current Balancer API's routing query, answered by this service's own V2
 * and V3 engines through the paths `/sor` and `/order` use (`routing/quoting.ts`): parse the
 * arguments, take the snapshot (at the block the client names), quote, shape the answer
 * (`sorAnswer.ts`). Without `useProtocolVersion` both Vaults quote and the better for the user
 * after gas answers, exact in and exact out alike.
 */

export interface SorGetSwapPathsArgs {
  readonly chain: string;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly swapType: GqlSwapType;
  readonly swapAmount: unknown;
  readonly queryBatchSwap?: boolean | null;
  readonly useProtocolVersion?: number | null;
  readonly considerPoolsWithHooks?: boolean | null;
  readonly poolIds?: readonly string[] | null;
  readonly callDataInput?: {
    readonly slippagePercentage: string;
    readonly deadline?: number | null;
    readonly sender: string;
    readonly receiver: string;
  } | null;
}

/** The header CoW's solver sends with the hash of the newest block it has seen. */
export const BLOCK_HASH_HEADER = 'x-current-block-hash';

const HUMAN_AMOUNT = /^\d+(\.\d+)?$/;

/**
 * A human amount ("1.5", "0.000000000000000000001") as raw units of a token with `decimals`,
 * exactly: more fraction digits than the token has, a sign or an exponent is refused.
 */
export function parseHumanAmount(value: unknown, decimals: number, token: string): bigint {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
  if (text === undefined || !HUMAN_AMOUNT.test(text))
    throw new BadQueryInput(
      `swapAmount: expected a positive decimal amount in the token's units like "1.5", got ${JSON.stringify(value)}`,
    );
  const [i = '0', f = ''] = text.split('.');
  const fraction = f.replace(/0+$/, '');
  if (fraction.length > decimals)
    throw new BadQueryInput(
      `swapAmount: ${text} has ${fraction.length} decimals, more than ${token}'s ${decimals}; send at most ${decimals} fraction digits`,
    );
  const raw = BigInt(i + fraction.padEnd(decimals, '0'));
  if (raw === 0n) throw new BadQueryInput(`swapAmount: must be above 0, got ${JSON.stringify(value)}`);
  return raw;
}

/** `callDataInput.slippagePercentage` is in percent ("0.5" = 0.5 %): the fraction `/order` takes. */
export function slippageFraction(percent: string): string {
  let plain: string;
  try {
    plain = toPlainDecimal(percent);
  } catch {
    throw new BadQueryInput(
      `callDataInput.slippagePercentage: expected a percentage like "0.5" (0.5 %), got ${JSON.stringify(percent)}`,
    );
  }
  if (plain.startsWith('-'))
    throw new BadQueryInput(`callDataInput.slippagePercentage: must not be negative, got ${JSON.stringify(percent)}`);
  const [i = '0', f = ''] = plain.split('.');
  // Refused here, in the caller's percent: the fraction check after it would name a value they never sent.
  if (BigInt(i) >= 100n)
    throw new BadQueryInput(
      `callDataInput.slippagePercentage: expected a percentage below 100, like "0.5" for 0.5 %, got ${JSON.stringify(percent)}`,
    );
  const digits = (i + f).replace(/^0+(?=\d)/, '');
  return unitsToDecimal(BigInt(digits), f.length + 2);
}

function protocolOf(chain: ChainInfo, value: number | null | undefined): 2 | 3 | undefined {
  if (value === null || value === undefined) return undefined;
  if (value !== 2 && value !== 3)
    throw new BadQueryInput(
      `useProtocolVersion: expected 2 (Balancer V2) or 3 (Balancer V3), got ${value}; leave it out for the better of both`,
    );
  if (value === 3 && !chain.v3)
    throw new BadQueryInput(
      `useProtocolVersion: Balancer V3 is not deployed on chain ${chain.id} (${chain.name}); send 2 or leave it out`,
    );
  return value;
}

/** Pool ids as the current API takes them: a V2 pool's 32-byte id or a V3 pool's address, any case. */
function poolIdsOf(ids: readonly string[] | null | undefined): ReadonlySet<string> | undefined {
  if (!ids) return undefined;
  for (const [k, id] of ids.entries())
    if (!/^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/.test(id))
      throw new BadQueryInput(
        `poolIds[${k}]: expected a pool id (0x + 64 hex digits for Balancer V2, the pool's address for V3), got ${JSON.stringify(id)}`,
      );
  return new Set(ids.map((id) => id.toLowerCase()));
}

function decimalsLookup(snap: ChainSnapshot): (token: string) => number | undefined {
  const lookup = snapshotLookup(snap);
  return (token) => (NATIVE_ASSET_ALIASES.includes(token) ? 18 : lookup.token(token)?.decimals);
}

/** The snapshot's pools cut to what the request allows, one array per pools array and restriction. */
const restrictions = new WeakMap<readonly StoredPool[], Map<string, readonly StoredPool[]>>();

function restricted(snap: ChainSnapshot, key: string, keep: (p: StoredPool) => boolean): ChainSnapshot {
  let byKey = restrictions.get(snap.pools);
  if (!byKey) {
    byKey = new Map();
    restrictions.set(snap.pools, byKey);
  }
  let pools = byKey.get(key);
  if (!pools) {
    pools = snap.pools.filter(keep);
    // A handful of restrictions per pools array: poolIds lists come and go with requests.
    if (byKey.size >= 16) byKey.clear();
    byKey.set(key, pools);
  }
  return new ChainSnapshot({
    chainId: snap.chainId,
    meta: snap.meta,
    pools,
    tokens: snap.tokens,
    loadedAt: snap.loadedAt,
    block: snap.block,
    buffers: snap.buffers,
  });
}

const hasHook = (p: StoredPool) => p.v3?.hook != null;

/**
 * The snapshot the answer is read from: the current one, at the node's head when a transaction
 * is asked for (as `/order`), and never older than the block the client names by hash.
 */
async function answerSnapshot(gql: GraphqlContext, chain: ChainInfo, withCallData: boolean): Promise<ChainSnapshot> {
  const app = gql.app;
  const hash = gql.header(BLOCK_HASH_HEADER)?.trim();
  let minBlock: number | undefined;
  if (hash) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash))
      throw new BadQueryInput(
        `${BLOCK_HASH_HEADER}: expected a block hash (0x + 64 hex digits), got ${JSON.stringify(hash)}`,
      );
    if (!isFollowed(app, chain.id))
      throw new BadQueryInput(
        `${BLOCK_HASH_HEADER}: chain ${chain.id}'s pools are the subgraph's values, read at no block (its head is not followed: no RPC_URL_${chain.id}, or FOLLOW_HEAD=off), so no block can be promised; leave the header out`,
      );
    const current = gql.snapshot(chain.id);
    if (current.block?.hash.toLowerCase() !== hash.toLowerCase()) {
      try {
        minBlock = await blockNumberOfHash(app, chain, hash.toLowerCase());
      } catch (e) {
        if (e instanceof StateBehindHead) throw stateBehindRefusal(app, chain.id, e);
        throw e;
      }
      if (minBlock === undefined)
        throw new HttpError(
          503,
          `${BLOCK_HASH_HEADER}: the RPC node of chain ${chain.id} knows no block ${hash} (not yet seen, or reorganised away); no answer is built on a state that may predate it; retry in a moment`,
          { 'Retry-After': '1' },
        );
    }
  }
  if (withCallData) refuseStaleState(app, chain);
  if (!withCallData && minBlock === undefined) return gql.snapshot(chain.id);
  return snapshotFor(app, chain, { atNodeHead: withCallData, ...(minBlock !== undefined ? { minBlock } : {}) });
}

function quotingOf(app: AppContext): Quoting {
  const quoting = app.state.get(quotingKey).current;
  if (!quoting)
    throw new HttpError(
      503,
      'routing is not mounted in this deployment (the routing feature is off), so no quote can be answered',
      {},
      { reason: REASONS.NOT_CONFIGURED },
    );
  return quoting;
}

interface Chosen {
  readonly v2?: SerializedSwapInfo;
  readonly v3?: V3Quote;
}

/** The better route for the user after gas (a tie stays with V2, as `/order`'s choice). */
function choose(kind: OrderKind, v2: SerializedSwapInfo | undefined, v3: V3Quote | undefined): Chosen {
  const v2Routed = v2 && hasRoute(v2) && !v2.relayerRequired ? v2 : undefined;
  const v3Routed = v3 && v3.info.paths.length > 0 && v3.hopAmounts ? v3 : undefined;
  if (v3Routed && (!v2Routed || v3IsBetter(kind, v3Routed.info, v2Routed))) return { v3: v3Routed };
  return v2Routed ? { v2: v2Routed } : {};
}

/** The answer, and the chain it is of. */
export async function sorGetSwapPaths(
  args: SorGetSwapPathsArgs,
  gql: GraphqlContext,
): Promise<{ readonly chainId: number; readonly answer: GqlSorGetSwapPaths }> {
  const chain = apiChain(gql.app, args.chain);
  return { chainId: chain.id, answer: await answer(chain, args, gql) };
}

async function answer(chain: ChainInfo, args: SorGetSwapPathsArgs, gql: GraphqlContext): Promise<GqlSorGetSwapPaths> {
  const app = gql.app;
  const tokenIn = parseAddress(args.tokenIn, 'tokenIn');
  const tokenOut = parseAddress(args.tokenOut, 'tokenOut');
  const kind = kindOf(args.swapType);
  const protocol = protocolOf(chain, args.useProtocolVersion);
  const poolIds = poolIdsOf(args.poolIds);
  // The current API leaves pools with hooks out unless asked to consider them.
  const withHooks = args.considerPoolsWithHooks === true;
  const callInput = args.callDataInput ?? undefined;
  const quoting = quotingOf(app);
  const snap = await answerSnapshot(gql, chain, callInput !== undefined);
  const blockNumber = snap.block?.number ?? null;
  const zero = (reason: string) => zeroAnswer(tokenIn, tokenOut, args.swapType, reason, blockNumber);

  const native = (t: string) => NATIVE_ASSET_ALIASES.includes(t) || t === chain.wrappedNative;
  if (tokenIn === tokenOut || (native(tokenIn) && native(tokenOut)))
    return zero(`tokenIn and tokenOut are the same token (${tokenIn}, ${tokenOut}): nothing to swap`);
  const decimalsOf = decimalsLookup(snap);
  const amountToken = kind === 'sell' ? tokenIn : tokenOut;
  const amountDecimals = decimalsOf(amountToken);
  if (amountDecimals === undefined || decimalsOf(kind === 'sell' ? tokenOut : tokenIn) === undefined)
    return zero(
      `no pool of chain ${chain.id} holds ${amountDecimals === undefined ? amountToken : kind === 'sell' ? tokenOut : tokenIn}`,
    );
  const amount = parseHumanAmount(args.swapAmount, amountDecimals, amountToken);

  const order = callInput ? callDataOrder(callInput, tokenIn, tokenOut, kind, amount) : undefined;
  const request: QuoteRequest = {
    sellToken: tokenIn,
    buyToken: tokenOut,
    orderKind: kind,
    amount,
    // The better Vault is chosen after gas, priced at the chain's gas price.
    gasPrice: await quoting.gasPrice(chain),
    minLiquidityUsd: app.config.routing.minLiquidityUsd,
  };
  const keepV3 = (p: StoredPool) =>
    (withHooks || !hasHook(p)) && (!poolIds || poolIds.has(p.id) || poolIds.has(p.address));
  // V3 routers pay the sender: a transaction for another receiver can only be V2's.
  const v3Allowed = chain.v3 && protocol !== 2 && (!order || order.receiver === order.sender);
  // A transaction is priced where it lands, as `/order`'s (routing/routes.ts): on a chain making
  // blocks on demand, time-moving pools at the node's clock.
  const clock = order ? await quoting.chainClock(chain) : undefined;
  const timedSnap = order ? retimed(app, chain, snap, clock).snap : snap;
  // Both Vaults at once, on the quote threads.
  const whole = withHooks && !poolIds;
  const [v3, v2] = await Promise.all([
    v3Allowed
      ? quoting.v3(
          chain,
          whole ? timedSnap : restricted(timedSnap, `v3|${withHooks}|${[...(poolIds ?? [])].sort().join(',')}`, keepV3),
          whole ? request : { ...request, restricted: true },
          clock,
        )
      : undefined,
    protocol === 3
      ? undefined
      : quoting.v2(
          chain,
          poolIds ? restricted(timedSnap, `v2|${[...poolIds].sort().join(',')}`, (p) => poolIds.has(p.id)) : timedSnap,
          { ...request, stepAmounts: true, ...(poolIds ? { restricted: true } : {}) },
        ),
  ]);
  const chosen = choose(kind, v2, v3);
  if (!chosen.v2 && !chosen.v3)
    return zero(noRouteReason(chain, args, v2, v3, order !== undefined && order.receiver !== order.sender));

  const known = (t: string) => decimalsOf(t) ?? 18;
  const swapTokenIn = NATIVE_ASSET_ALIASES.includes(tokenIn) ? chain.wrappedNative : tokenIn;
  const swapTokenOut = NATIVE_ASSET_ALIASES.includes(tokenOut) ? chain.wrappedNative : tokenOut;
  if (chosen.v3) {
    const info = chosen.v3.info;
    const paths = v3Paths(info, chosen.v3.hopAmounts!);
    return routedAnswer({
      protocolVersion: 3,
      swapType: args.swapType,
      tokenIn,
      tokenOut,
      swapTokenIn,
      swapTokenOut,
      paths,
      batch: batchSwapOf(kind, paths, swapTokenIn, swapTokenOut),
      amountIn: BigInt(kind === 'sell' ? info.swapAmount : info.returnAmount),
      amountOut: BigInt(kind === 'sell' ? info.returnAmount : info.swapAmount),
      priceImpact: info.priceImpact,
      decimalsOf: known,
      blockNumber,
      callData: order ? callData(await v3Transaction(app, quoting, chain, timedSnap, order, chosen.v3)) : null,
    });
  }
  const info = chosen.v2!;
  return routedAnswer({
    protocolVersion: 2,
    swapType: args.swapType,
    tokenIn,
    tokenOut,
    swapTokenIn,
    swapTokenOut,
    paths: v2Paths(kind, info, chain.wrappedNative),
    batch: {
      tokenAddresses: info.tokenAddresses,
      swaps: info.swaps.map((s) => ({
        poolId: s.poolId,
        assetInIndex: s.assetInIndex,
        assetOutIndex: s.assetOutIndex,
        amount: s.amount,
        userData: s.userData,
      })),
    },
    amountIn: BigInt(kind === 'sell' ? info.swapAmount : info.returnAmount),
    amountOut: BigInt(kind === 'sell' ? info.returnAmount : info.swapAmount),
    priceImpact: info.priceImpact ?? '0',
    decimalsOf: known,
    blockNumber,
    callData: order ? callData(v2Transaction(app, chain, timedSnap, order, info)) : null,
  });
}

function noRouteReason(
  chain: ChainInfo,
  args: SorGetSwapPathsArgs,
  v2: SerializedSwapInfo | undefined,
  v3: V3Quote | undefined,
  otherReceiver: boolean,
): string {
  const within = [
    v2 ? 'Balancer V2' : undefined,
    v3
      ? `Balancer V3${args.considerPoolsWithHooks === true ? '' : ' (pools without hooks: considerPoolsWithHooks is not true)'}`
      : undefined,
  ].filter(Boolean);
  const relayer = v2?.relayerRequired
    ? '; the only V2 route joins or exits a pool, which needs the batch relayer (not a Vault batchSwap)'
    : '';
  const receiver = otherReceiver
    ? '; V3 routers pay the sender, so a callDataInput receiver other than its sender leaves V3 out'
    : '';
  return `No swaps found: no route from ${args.tokenIn} to ${args.tokenOut} for ${args.swapType} ${String(args.swapAmount)} on chain ${chain.id} in ${within.join(' or ') || 'no Vault'}${args.poolIds ? ' through the poolIds given' : ''}${relayer}${receiver}`;
}

/** `callDataInput` as the `/order` body it stands for, with `/order`'s checks and their messages. */
function callDataOrder(
  input: NonNullable<SorGetSwapPathsArgs['callDataInput']>,
  tokenIn: string,
  tokenOut: string,
  kind: OrderKind,
  amount: bigint,
): OrderBody {
  for (const field of ['sender', 'receiver'] as const) {
    const parsed = orderBodySchema.shape.sender.safeParse(input[field]);
    if (!parsed.success) throw new BadQueryInput(`callDataInput.${field}: ${parsed.error.issues[0]!.message}`);
  }
  try {
    return parseOrderBody({
      sellToken: tokenIn,
      buyToken: tokenOut,
      orderKind: kind,
      amount: amount.toString(),
      gasPrice: '0',
      sender: input.sender,
      receiver: input.receiver,
      slippagePercentage: slippageFraction(input.slippagePercentage),
      ...(input.deadline !== null && input.deadline !== undefined ? { deadline: input.deadline } : {}),
    });
  } catch (e) {
    if (e instanceof Error && /^(slippagePercentage|deadline|sender|receiver)/.test(e.message))
      throw new BadQueryInput(`callDataInput.${e.message}`);
    throw e;
  }
}

function callData(order: SorOrderResponse): GqlSorCallData {
  return {
    callData: order.data,
    to: order.to,
    value: order.value,
    ...(order.minBuyAmount !== undefined ? { minAmountOutRaw: order.minBuyAmount } : {}),
    ...(order.maxSellAmount !== undefined ? { maxAmountInRaw: order.maxSellAmount } : {}),
  };
}

function v2Transaction(
  app: AppContext,
  chain: ChainInfo,
  snap: ChainSnapshot,
  order: OrderBody,
  info: SerializedSwapInfo,
): SorOrderResponse {
  const relayer = app.config.routing.batchRelayers.get(chain.id) ?? null;
  checkParties(order, chain, knownContracts(chain, snap, relayer));
  return buildOrder(order, info, { chain, snap, relayer, deadline: orderDeadline(app, snap, order.deadline) });
}

async function v3Transaction(
  app: AppContext,
  quoting: Quoting,
  chain: ChainInfo,
  snap: ChainSnapshot,
  order: OrderBody,
  quote: V3Quote,
): Promise<SorOrderResponse> {
  const relayer = app.config.routing.batchRelayers.get(chain.id) ?? null;
  checkParties(order, chain, knownContracts(chain, snap, relayer));
  // `callData` holds no approvals: reading the sender's allowances would be a call for nothing.
  return quoting.v3Order(chain, snap, order, quote.info, orderDeadline(app, snap, order.deadline), false);
}
