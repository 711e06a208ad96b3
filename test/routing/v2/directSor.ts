import { SOR, SwapTypes, type SubgraphPoolBase, type SwapInfo } from '@balancer-labs/sor';
import { BigNumber } from '@ethersproject/bignumber';
import type { Provider } from '@ethersproject/providers';
import { isZeroDecimal, toPlainDecimal } from '../../../src/domain/decimal';
import { sorConfigFor } from '../../../src/routing/v2/sorConfig';
import { nativePriceInToken } from '../../../src/routing/tokenPrices';
import { chainById } from '../../../src/config/chains';
import type { QuoteCase } from '../../bench/quoteCases';

/**
 * `@balancer-labs/sor` driven directly, the way the deprecated API did per request (`new SOR`,
 * `fetchPools()`, `getSwaps()`), on raw snapshot pools: the reference the service must match.
 */

const MAINNET = chainById(1)!;

/**
 * Raw subgraph pools as the SOR must get them: the snapshot minus pools holding nothing, balances
 * as plain decimals. (SOR 4.1.3 drops a pool whose first balance is the string "0" but keeps one
 * whose first balance is "0.0", e.g. a linear pool with no wrapped tokens.)
 */
export function directPools(raw: unknown[]): SubgraphPoolBase[] {
  return (raw as SubgraphPoolBase[])
    .filter((p) =>
      p.tokens.some((t) => t.address.toLowerCase() !== p.address.toLowerCase() && !isZeroDecimal(String(t.balance))),
    )
    .map((p) => ({
      ...p,
      tokens: p.tokens.map((t) => ({ ...t, balance: toPlainDecimal(String(t.balance), t.decimals) })),
    }));
}

export interface DirectOptions {
  readonly timestamp: number;
  /** Token address -> price of the token in ETH (what the price job stores). */
  readonly pricesInEth?: Readonly<Record<string, string>>;
  /** The real chain id makes the SOR take its RPC-backed special routes (which fail offline). */
  readonly chainId?: number;
  readonly provider?: Provider;
}

export async function directQuote(
  pools: SubgraphPoolBase[],
  c: Pick<QuoteCase, 'sellToken' | 'buyToken' | 'orderKind' | 'amount' | 'gasPrice'>,
  o: DirectOptions,
): Promise<SwapInfo> {
  const config = { ...sorConfigFor(MAINNET), chainId: o.chainId ?? 1 };
  const sor = new SOR(
    o.provider ?? ({} as Provider),
    config,
    { getPools: async () => structuredClone(pools) },
    {
      getNativeAssetPriceInToken: async (t: string) => nativePriceInToken(o.pricesInEth?.[t.toLowerCase()]),
    },
  );
  await sor.fetchPools();
  return sor.getSwaps(
    c.sellToken,
    c.buyToken,
    c.orderKind === 'sell' ? SwapTypes.SwapExactIn : SwapTypes.SwapExactOut,
    BigNumber.from(c.amount),
    { gasPrice: BigNumber.from(c.gasPrice), timestamp: o.timestamp },
  );
}
