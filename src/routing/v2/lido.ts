import type { ChainInfo } from '../../config/chains';
import { HttpError } from '../../http/errors';
import { WstEthConversionReverted, type WstEthRates } from '../../sources/lido/wstEthRates';
import { plainDecimal } from '../priceImpact';
import { emptySwapInfo, hasRoute } from '../serialize';
import type { QuoteRequest, SerializedSwap, SerializedSwapInfo } from '../types';

/**
 * stETH in or out, on chains whose row names Lido (`ChainInfo.lido`): the pools hold wstETH, so a
 * sell of stETH is quoted as the wstETH route behind a relayer `wrapStETH` (first step), a sell
 * into stETH as the wstETH route followed by `unwrapWstETH` (last step of each path). The ratio is
 * read from the chain per quote (`sources/lido/wstEthRates.ts`, all reads at one block).
 *
 * What the user gets (LidoWrapping.sol, wstETH, stETH):
 * - wrapStETH(amount): the Vault pulls `amount` stETH into the relayer (moving
 *   getSharesByPooledEth(amount) shares, so the relayer may hold 1-2 wei less), and wstETH.wrap
 *   pulls `amount` again, which moves those same shares: the wstETH minted is exactly
 *   getWstETHByStETH(amount).
 * - unwrapWstETH(w): wstETH sends r = getStETHByWstETH(w) stETH to the relayer (the shares of r,
 *   floor), and the relayer sends r on, moving the same shares to the receiver. The receiver's
 *   balance grows by at least getStETHByWstETH(getWstETHByStETH(r)) (that many shares, floored),
 *   and by one wei more depending on what it held. The quote is that lower bound, so the user
 *   surely gets it; a fresh receiver gets exactly it.
 *
 * Sells only: a buy would need the wrap to produce an exact wstETH amount, which Lido's floors do
 * not guarantee without leaving dust in the relayer. stETH in takes the best single wstETH path
 * when the best route splits: one wrap cannot feed several fixed path amounts exactly.
 */

export const ZERO_POOL_ID = `0x${'0'.repeat(64)}`;

/** A quote waits on these reads: short timeouts, one retry. */
export const LIDO_RPC = {
  timeoutMs: 5_000,
  batchSize: 100,
  retry: { attempts: 2, baseDelayMs: 200, maxDelayMs: 1_000 },
} as const;

export type Quote = (req: QuoteRequest) => Promise<SerializedSwapInfo>;

export function lidoSide(chain: ChainInfo, req: Pick<QuoteRequest, 'sellToken' | 'buyToken'>): 'in' | 'out' | null {
  const st = chain.lido?.stETH;
  if (!st) return null;
  const sell = req.sellToken.toLowerCase() === st;
  const buy = req.buyToken.toLowerCase() === st;
  if (sell === buy) return null;
  return sell ? 'in' : 'out';
}

/**
 * The wstETH route with every step's result, which the relayer encoding and the per-path unwrap
 * need; the SOR fallback (`ROUTER_ENGINE=sor`) does not give them.
 */
function withStepResults(inner: SerializedSwapInfo): SerializedSwapInfo {
  if (inner.swaps.every((s) => s.returnAmount !== undefined && /^\d+$/.test(s.returnAmount))) return inner;
  throw new HttpError(
    422,
    "stETH routes are built on every step's result, which only the service's own engine answers (ROUTER_ENGINE=own); no route was quoted",
  );
}

/** Paths of a quoted route: index ranges of its swaps (a non-zero amount starts a path). */
function pathStarts(info: SerializedSwapInfo): number[] {
  return info.swaps.flatMap((s, k) => (BigInt(s.amount) > 0n ? [k] : []));
}

export async function quoteWithLido(
  chain: ChainInfo,
  rates: WstEthRates | undefined,
  req: QuoteRequest,
  quote: Quote,
): Promise<SerializedSwapInfo> {
  const side = lidoSide(chain, req);
  const lido = chain.lido;
  if (!side || !lido) return quote(req);
  if (req.orderKind !== 'sell') {
    throw new HttpError(
      422,
      `stETH ${side === 'in' ? 'in' : 'out'} is wrapped or unwrapped by the batch relayer, and Lido's rounding lets only sells be exact: send orderKind "sell" (or trade wstETH, ${lido.wstETH}) (no transaction was built)`,
      {},
      { field: 'orderKind' },
    );
  }
  if (!rates) {
    throw new HttpError(
      422,
      `stETH orders are routed as wstETH at Lido's live ratio, read from the chain's node, and chain ${chain.id} has no RPC URL configured (RPC_URL_${chain.id}); no route was quoted`,
    );
  }
  const block = await rates.pin();
  const convert = async (view: 'getWstETHByStETH' | 'getStETHByWstETH', amounts: readonly bigint[]) => {
    try {
      return await rates.convert(lido.wstETH, view, amounts, block);
    } catch (e) {
      if (e instanceof WstEthConversionReverted) {
        throw new HttpError(
          422,
          `amount: ${req.amount} is beyond what Lido's wstETH converts (its ${view} reverted); send an amount within the token's supply (no route was quoted)`,
          {},
          { field: 'amount' },
        );
      }
      throw e;
    }
  };
  const none = emptySwapInfo(req.sellToken, req.buyToken);
  return side === 'in'
    ? wrapIn(req, lido.stETH, lido.wstETH, convert, quote, none)
    : unwrapOut(req, lido.stETH, lido.wstETH, convert, quote, none);
}

type Convert = (view: 'getWstETHByStETH' | 'getStETHByWstETH', amounts: readonly bigint[]) => Promise<bigint[]>;

async function wrapIn(
  req: QuoteRequest,
  stETH: string,
  wstETH: string,
  convert: Convert,
  quote: Quote,
  none: SerializedSwapInfo,
): Promise<SerializedSwapInfo> {
  const [wst] = await convert('getWstETHByStETH', [req.amount]);
  if (!wst) return none;
  const wrapStep = (assetIn: number, assetOut: number): SerializedSwap => ({
    poolId: ZERO_POOL_ID,
    assetInIndex: assetIn,
    assetOutIndex: assetOut,
    amount: req.amount.toString(),
    userData: '0x',
    action: 'wrap',
    returnAmount: wst.toString(),
  });
  if (req.buyToken.toLowerCase() === wstETH) {
    return withAmounts(
      { ...none, tokenAddresses: [stETH, wstETH], swaps: [wrapStep(0, 1)], marketSp: ratio(req.amount, wst) },
      req.amount,
      wst,
      wst,
    );
  }
  let quoted = await quote({ ...req, sellToken: wstETH, amount: wst, stepAmounts: true });
  if (!hasRoute(quoted)) return none;
  // One wrap's output can feed one path exactly (a chained reference), so a split wstETH route
  // gives way to the best single path that carries the whole amount.
  if (pathStarts(quoted).length !== 1) {
    quoted = await quote({ ...req, sellToken: wstETH, amount: wst, stepAmounts: true, singlePath: true });
    if (!hasRoute(quoted)) {
      throw new HttpError(
        422,
        `the wstETH route for ${req.amount} stETH needs several paths, no single path carries it, and one relayer wrap can feed only one exactly; sell a smaller amount, or sell wstETH (no transaction was built)`,
      );
    }
  }
  const inner = withStepResults(quoted);
  const assets = [...inner.tokenAddresses, stETH];
  const wstIndex = inner.tokenAddresses.findIndex((a) => a.toLowerCase() === wstETH);
  const swaps = [wrapStep(assets.length - 1, wstIndex), ...inner.swaps.map((s) => ({ ...s, amount: '0' }))];
  return {
    ...inner,
    tokenAddresses: assets,
    swaps,
    tokenIn: req.sellToken,
    tokenInForSwaps: stETH,
    // The wstETH route's price (wstETH per unit out) in stETH: times stETH per wstETH of this wrap.
    marketSp: scaled(inner.marketSp, req.amount, wst),
    swapAmount: req.amount.toString(),
    swapAmountForSwaps: req.amount.toString(),
    relayerRequired: true,
  };
}

async function unwrapOut(
  req: QuoteRequest,
  stETH: string,
  wstETH: string,
  convert: Convert,
  quote: Quote,
  none: SerializedSwapInfo,
): Promise<SerializedSwapInfo> {
  /** What unwrapping w wstETH surely pays the receiver, per path. */
  const surely = async (ws: readonly bigint[]) => {
    const r = await convert('getStETHByWstETH', ws);
    return convert('getStETHByWstETH', await convert('getWstETHByStETH', r));
  };
  const unwrapStep = (assetIn: number, assetOut: number, amount: bigint, out: bigint): SerializedSwap => ({
    poolId: ZERO_POOL_ID,
    assetInIndex: assetIn,
    assetOutIndex: assetOut,
    amount: amount.toString(),
    userData: '0x',
    action: 'unwrap',
    returnAmount: out.toString(),
  });
  if (req.sellToken.toLowerCase() === wstETH) {
    const [out = 0n] = await surely([req.amount]);
    if (out === 0n) return none;
    return withAmounts(
      {
        ...none,
        tokenAddresses: [wstETH, stETH],
        swaps: [unwrapStep(0, 1, req.amount, out)],
        marketSp: ratio(req.amount, out),
      },
      req.amount,
      out,
      out,
    );
  }
  const quoted = await quote({ ...req, buyToken: wstETH, stepAmounts: true });
  if (!hasRoute(quoted)) return none;
  const inner = withStepResults(quoted);
  const starts = pathStarts(inner);
  const ends = starts.map((_, n) => (starts[n + 1] ?? inner.swaps.length) - 1);
  const wsts = ends.map((k) => BigInt(inner.swaps[k]!.returnAmount!));
  const outs = await surely(wsts);
  const assets = [...inner.tokenAddresses, stETH];
  const stIndex = assets.length - 1;
  const wstIndex = inner.tokenAddresses.findIndex((a) => a.toLowerCase() === wstETH);
  const swaps: SerializedSwap[] = [];
  inner.swaps.forEach((s, k) => {
    swaps.push(s);
    const n = ends.indexOf(k);
    if (n >= 0) swaps.push(unwrapStep(wstIndex, stIndex, 0n, outs[n]!));
  });
  const total = outs.reduce((a, b) => a + b, 0n);
  const fees = BigInt(inner.returnAmount) - BigInt(inner.returnAmountConsideringFees);
  return {
    ...inner,
    tokenAddresses: assets,
    swaps,
    tokenOut: req.buyToken,
    tokenOutFromSwaps: stETH,
    // The wstETH route's price (units in per wstETH) per stETH: times wstETH per stETH of the unwraps.
    marketSp: scaled(
      inner.marketSp,
      wsts.reduce((a, b) => a + b, 0n),
      total,
    ),
    returnAmount: total.toString(),
    returnAmountFromSwaps: total.toString(),
    // Gas, priced in wstETH by the inner route, taken as stETH (a display figure).
    returnAmountConsideringFees: (total > fees ? total - fees : 0n).toString(),
    relayerRequired: true,
  };
}

function withAmounts(
  info: SerializedSwapInfo,
  amount: bigint,
  out: bigint,
  consideringFees: bigint,
): SerializedSwapInfo {
  return {
    ...info,
    swapAmount: amount.toString(),
    swapAmountForSwaps: amount.toString(),
    returnAmount: out.toString(),
    returnAmountFromSwaps: out.toString(),
    returnAmountConsideringFees: consideringFees.toString(),
    priceImpact: '0',
    relayerRequired: true,
  };
}

/** a / b as a plain decimal (both in 18-decimal stETH/wstETH units): Lido's ratio at this quote. */
function ratio(a: bigint, b: bigint): string {
  return b === 0n ? '0' : plainDecimal(Number(a) / Number(b));
}

/** A market price times a / b, for the stETH leg; '0' stays '0' (no price known). */
function scaled(marketSp: string, a: bigint, b: bigint): string {
  const sp = Number(marketSp);
  return !Number.isFinite(sp) || sp === 0 || b === 0n ? marketSp : plainDecimal((sp * Number(a)) / Number(b));
}
