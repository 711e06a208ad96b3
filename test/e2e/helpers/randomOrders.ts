import { formatUnits } from 'ethers';
import { DEV_POOLS, DEV_TOKENS, ETH_PRICE_USD, WETH_SYMBOL, WRAPPED_TOKENS } from '../../../src/devnet/universe';
import type { OrderSpec } from './orders';
import { seededRandom } from '../../helpers/seededRandom';

export { seededRandom };

/**
 * Random orders over the devnet universe (universe.ts, what deploy.ts deploys), reproducible from a
 * seed: which pairs lie at which hop distance follows from the pools' token lists, amounts are
 * drawn log-uniformly in USD so one run spans four orders of magnitude and more. Pure, so the
 * orders are known when the suite is declared.
 */

/** Every pool's tokens by symbol, its own BPT included where the pool holds it (linear, composable stable). */
function poolTokenSymbols(): string[][] {
  return DEV_POOLS.map((p) => {
    if (p.kind === 'linear') return [p.symbol, p.main, p.wrapped];
    const tokens = p.tokens.map((t) => t.symbol);
    return p.kind === 'composableStable' ? [p.symbol, ...tokens] : tokens;
  });
}

/**
 * Fewest pools a trade between two symbols must cross (breadth-first over "shares a pool"):
 * 1 = one pool holds both.
 */
export function hopDistances(): Map<string, Map<string, number>> {
  const neighbours = new Map<string, Set<string>>();
  for (const tokens of poolTokenSymbols()) {
    for (const a of tokens) {
      const set = neighbours.get(a) ?? new Set<string>();
      for (const b of tokens) if (a !== b) set.add(b);
      neighbours.set(a, set);
    }
  }
  const out = new Map<string, Map<string, number>>();
  for (const start of neighbours.keys()) {
    const dist = new Map([[start, 0]]);
    const queue = [start];
    while (queue.length > 0) {
      const at = queue.shift()!;
      for (const next of neighbours.get(at) ?? []) {
        if (!dist.has(next)) {
          dist.set(next, dist.get(at)! + 1);
          queue.push(next);
        }
      }
    }
    out.set(start, dist);
  }
  return out;
}

/** Symbols of the pools that hold their own BPT: what trades as a BPT here. */
export function bptSymbols(): string[] {
  return DEV_POOLS.filter((p) => p.kind === 'linear' || p.kind === 'composableStable').map((p) => p.symbol);
}

/** A pool's BPT trades near 1 USD in this universe (USD stable pools); close enough to size orders. */
const BPT_PRICE_USD = 1;

function tokenInfo(symbol: string): { priceUsd: number; decimals: number } {
  if (symbol === WETH_SYMBOL) return { priceUsd: Number(ETH_PRICE_USD), decimals: 18 };
  const token = DEV_TOKENS.find((t) => t.symbol === symbol);
  if (token) return { priceUsd: Number(token.priceUsd), decimals: token.decimals };
  const wrapped = WRAPPED_TOKENS.find((t) => t.symbol === symbol);
  // ERC-4626 shares carry their asset's decimals.
  if (wrapped) return { priceUsd: Number(wrapped.priceUsd), decimals: tokenInfo(wrapped.asset).decimals };
  if (DEV_POOLS.some((p) => p.symbol === symbol)) return { priceUsd: BPT_PRICE_USD, decimals: 18 };
  throw new Error(`universe.ts has no token ${symbol}`);
}

export type OrderClass = '1 hop' | '2 hops' | '3 hops' | 'BPT in' | 'BPT out';
export const ORDER_CLASSES: readonly OrderClass[] = ['1 hop', '2 hops', '3 hops', 'BPT in', 'BPT out'];

export interface RandomOrder {
  readonly name: string;
  readonly spec: OrderSpec;
  readonly orderClass: OrderClass;
  /** Fewest pools between the two tokens. */
  readonly hops: number;
  /** USD size the amount was drawn at (for the amount-span check). */
  readonly usd: number;
}

export interface DrawOptions {
  readonly seed: number;
  readonly count: number;
  /** Symbols orders trade (tokens, vault shares and pool BPT). */
  readonly symbols: readonly string[];
  /** log10 of the smallest and largest USD size. */
  readonly usdExponents: readonly [number, number];
}

/**
 * `count` orders cycling through the classes (one pool, two, three; a pool's BPT sold, bought),
 * each a random pair of its class, a random kind and a log-uniform USD size turned into an amount
 * of the token the kind fixes, cut to that token's decimals.
 */
export function drawOrders(options: DrawOptions): RandomOrder[] {
  const random = seededRandom(options.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const distances = hopDistances();
  const pairs: { sell: string; buy: string; hops: number }[] = [];
  for (const sell of options.symbols) {
    for (const buy of options.symbols)
      if (sell !== buy) pairs.push({ sell, buy, hops: distances.get(sell)?.get(buy) ?? Infinity });
  }
  const bpts = bptSymbols();
  const isBpt = (s: string) => bpts.includes(s);
  const inClass: Record<OrderClass, typeof pairs> = {
    '1 hop': pairs.filter((p) => p.hops === 1 && !isBpt(p.sell) && !isBpt(p.buy)),
    '2 hops': pairs.filter((p) => p.hops === 2 && !isBpt(p.sell) && !isBpt(p.buy)),
    '3 hops': pairs.filter((p) => p.hops === 3),
    'BPT in': pairs.filter((p) => isBpt(p.sell) && p.hops <= 3),
    'BPT out': pairs.filter((p) => isBpt(p.buy) && p.hops <= 3),
  };
  for (const c of ORDER_CLASSES)
    if (inClass[c].length === 0) throw new Error(`universe.ts has no pair for the class ${c}`);

  const orders: RandomOrder[] = [];
  const [low, high] = options.usdExponents;
  for (let n = 0; n < options.count; n++) {
    const orderClass = ORDER_CLASSES[n % ORDER_CLASSES.length]!;
    const pair = pick(inClass[orderClass]);
    const kind = random() < 0.5 ? ('sell' as const) : ('buy' as const);
    const usd = 10 ** (low + random() * (high - low));
    const fixed = kind === 'sell' ? pair.sell : pair.buy;
    const { priceUsd, decimals } = tokenInfo(fixed);
    // Whole smallest units from a float draw (the draw only sizes the order; the amount is exact),
    // with random digits below a double's precision so 18-decimal amounts use all their digits.
    const below = Math.max(0, decimals - 15);
    const raw =
      BigInt(Math.max(1, Math.floor((usd / priceUsd) * 10 ** (decimals - below)))) * 10n ** BigInt(below) +
      BigInt(Math.floor(random() * 10 ** below));
    const amount = formatUnits(raw, decimals);
    const spec: OrderSpec = { sell: pair.sell, buy: pair.buy, kind, amount, slippage: '0' };
    const label =
      kind === 'sell' ? `sell ${amount} ${pair.sell} for ${pair.buy}` : `buy ${amount} ${pair.buy} with ${pair.sell}`;
    orders.push({
      name: `#${String(n + 1).padStart(2, '0')} ${label} (${orderClass}, ${pair.hops} min hops, ~$${usd.toPrecision(3)})`,
      spec,
      orderClass,
      hops: pair.hops,
      usd,
    });
  }
  return orders;
}
