import { SOR, SwapTypes, type SubgraphPoolBase } from '@balancer-labs/sor';
import { BigNumber } from '@ethersproject/bignumber';
import type { Provider } from '@ethersproject/providers';
import { EngineRouter } from '../../../src/routing/v2/engineRouter';
import { sorConfigFor } from '../../../src/routing/v2/sorConfig';
import { exactOfSorRoute, specsOf } from './exactReplay';

/**
 * The engine against `@balancer-labs/sor` on one pool universe: the same request to both, the SOR's
 * answer replayed with the Vault's arithmetic where its pools have models (else its own float
 * estimate), and the relative difference in the trader's favour. Shared by the differential test
 * and `npm run bench -- differential`.
 */

export interface DiffCase {
  readonly name: string;
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: 'sell' | 'buy';
  readonly amount: string;
}

export interface DiffResult {
  readonly c: DiffCase;
  readonly ours: bigint;
  readonly sor: bigint;
  /** True when the SOR's figure is the exact replay of its route. */
  readonly sorExact: boolean;
  /** (ours - sor) / sor for sells, (sor - ours) / sor for buys: > 0 means ours is better. */
  readonly gain: number;
  readonly oursMs: number;
  readonly sorMs: number;
}

const NO_NODE = new Proxy(
  {},
  {
    get: (_t, p) =>
      p === 'then'
        ? undefined
        : () => {
            throw new Error('no node');
          },
  },
) as Provider;

export async function compareWithSor(
  pools: SubgraphPoolBase[],
  chain: { id: number; vault: string; wrappedNative: string },
  cases: readonly DiffCase[],
  timestamp: number,
): Promise<DiffResult[]> {
  const sor = new SOR(
    NO_NODE,
    sorConfigFor(chain),
    { getPools: async () => structuredClone(pools) },
    { getNativeAssetPriceInToken: async () => '0' },
  );
  await sor.fetchPools();
  const engine = new EngineRouter(chain, specsOf(pools));
  engine.engineAt(timestamp);
  const out: DiffResult[] = [];
  for (const c of cases) {
    let t = performance.now();
    const ours = engine.routeNow({ ...c, gasPrice: '0', timestamp });
    const oursMs = performance.now() - t;
    t = performance.now();
    let info;
    try {
      info = await sor.getSwaps(
        c.sellToken,
        c.buyToken,
        c.orderKind === 'sell' ? SwapTypes.SwapExactIn : SwapTypes.SwapExactOut,
        BigNumber.from(c.amount),
        { gasPrice: BigNumber.from(0), timestamp, forceRefresh: false },
      );
    } catch {
      info = undefined;
    }
    const sorMs = performance.now() - t;
    const exact =
      info && info.swaps.length > 0
        ? exactOfSorRoute(c.orderKind, info, pools, chain.wrappedNative, timestamp)
        : undefined;
    const sorAmount =
      info && info.swaps.length > 0 ? (exact !== undefined && exact > 0n ? exact : info.returnAmount.toBigInt()) : 0n;
    const oursAmount = BigInt(ours.info.returnAmount);
    const gain =
      sorAmount === 0n
        ? oursAmount > 0n
          ? Infinity
          : 0
        : (c.orderKind === 'sell' ? 1 : -1) * (Number(oursAmount - sorAmount) / Number(sorAmount));
    out.push({
      c,
      ours: oursAmount,
      sor: sorAmount,
      sorExact: exact !== undefined && exact > 0n,
      gain: c.orderKind === 'buy' && oursAmount === 0n && sorAmount > 0n ? -Infinity : gain,
      oursMs,
      sorMs,
    });
  }
  return out;
}

/**
 * Every ordered pair of `tokens`, both kinds, at one of `ethAmounts` taken in turn (whole units
 * scaled by the token's price), so the sizes spread over the pairs without multiplying the cases.
 * With `kinds: 'alternate'` each ordered pair gets one kind, sell and buy in turn: every pair in
 * both directions and both kinds still appear, at half the cases (the SOR costs most of the time).
 */
export function pairCases(
  tokens: readonly { name: string; address: string; decimals: number; unitsPerEth: number }[],
  ethAmounts: readonly number[],
  { kinds = 'both' }: { kinds?: 'both' | 'alternate' } = {},
): DiffCase[] {
  const cases: DiffCase[] = [];
  let turn = 0;
  for (const a of tokens) {
    for (const b of tokens) {
      if (a === b) continue;
      const k = turn;
      for (const eth of [ethAmounts[turn++ % ethAmounts.length]!]) {
        const orderKinds = kinds === 'both' ? (['sell', 'buy'] as const) : ([k % 2 === 0 ? 'sell' : 'buy'] as const);
        for (const orderKind of orderKinds) {
          const t = orderKind === 'sell' ? a : b;
          const whole = eth * t.unitsPerEth;
          const amount = (BigInt(Math.round(whole * 1e6)) * 10n ** BigInt(t.decimals)) / 1_000_000n;
          if (amount <= 0n) continue;
          cases.push({
            name: `${orderKind} ${whole.toPrecision(3)} ${t.name} (${a.name} -> ${b.name})`,
            sellToken: a.address,
            buyToken: b.address,
            orderKind,
            amount: amount.toString(),
          });
        }
      }
    }
  }
  return cases;
}
