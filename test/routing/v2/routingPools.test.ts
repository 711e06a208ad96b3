import type { Address } from '../../../src/domain/address';
import { SOR, SwapTypes } from '@balancer-labs/sor';
import { BigNumber } from '@ethersproject/bignumber';
import type { Provider } from '@ethersproject/providers';
import { chainById } from '../../../src/config/chains';
import type { StoredPool } from '../../../src/domain/pool';
import { ChainRouter } from '../../../src/routing/v2/chainRouter';
import { aboveLiquidityFloor, isRoutable, toRoutingPool, toRoutingPools } from '../../../src/routing/v2/routingPools';
import { toSorPool as sorPoolOf } from '../../../src/routing/v2/sorPools';
import { sorConfigFor } from '../../../src/routing/v2/sorConfig';
import { storedPool } from '../../helpers/poolFixtures';

const A = '0x00000000000000000000000000000000000000a1' as Address;
const B = '0x00000000000000000000000000000000000000b2' as Address;
const MAINNET = chainById(1)!;

/** A stored pool as the SOR adapter hands it to the SOR. */
const toSorPool = (p: StoredPool) => sorPoolOf(toRoutingPool(p));

function pool(id: string, balances: [string, string], over: Partial<StoredPool> = {}): StoredPool {
  return storedPool({
    id: id.padEnd(66, '0'),
    address: id.slice(0, 42).padEnd(42, '0') as Address,
    totalShares: '1000',
    tokens: [
      { address: A, symbol: 'A', name: null, decimals: 6, balance: balances[0], weight: '0.5', priceRate: '1' },
      { address: B, symbol: 'B', name: null, decimals: 18, balance: balances[1], weight: '0.5', priceRate: '1' },
    ],
    ...over,
  });
}

describe('pools handed to the SOR', () => {
  test('empty, disabled or paused pools are not routable', () => {
    expect(isRoutable(pool('0x01', ['1000', '1000']))).toBe(true);
    expect(isRoutable(pool('0x02', ['0.0', '0.0']))).toBe(false);
    expect(isRoutable(pool('0x03', ['1000', '1000'], { swapEnabled: false }))).toBe(false);
    expect(isRoutable(pool('0x04', ['1000', '1000'], { isPaused: true }))).toBe(false);
    expect(toRoutingPools([pool('0x01', ['1', '1']), pool('0x02', ['0', '0.0'])]).map((p) => p.spec.id)).toEqual([
      pool('0x01', ['1', '1']).id,
    ]);
  });

  test('balances reach the SOR as plain decimals with at most the token decimals (it cannot parse anything else)', async () => {
    const messy = pool('0x05', ['1.2345678e3', '5e-7']);
    const asSent = {
      ...toSorPool(messy),
      tokens: toSorPool(messy).tokens.map((t, i) => ({ ...t, balance: messy.tokens[i]!.balance })),
    };
    const direct = new SOR(
      {} as Provider,
      sorConfigFor(MAINNET),
      { getPools: async () => [asSent] },
      { getNativeAssetPriceInToken: async () => '0' },
    );
    await direct.fetchPools();
    await expect(
      direct.getSwaps(A, B, SwapTypes.SwapExactIn, BigNumber.from(1000), { gasPrice: BigNumber.from(0), timestamp: 1 }),
    ).rejects.toThrow();

    const clean = toSorPool(messy);
    expect(clean.tokens.map((t) => t.balance)).toEqual(['1234.5678', '0.0000005']);
    const big = toSorPool(pool('0x06', ['1000000.1234567', '2000.000000000000000000001']));
    expect(big.tokens.map((t) => t.balance)).toEqual(['1000000.123456', '2000']);
    const router = await ChainRouter.create(MAINNET, [toRoutingPool(pool('0x07', ['1000000', '1000000']))]);
    const out = await router.route({
      sellToken: A,
      buyToken: B,
      orderKind: 'sell',
      amount: '1000000',
      gasPrice: '0',
      timestamp: 1,
    });
    expect(BigInt(out.info.returnAmount)).toBeGreaterThan(0n);
  });

  test('the liquidity floor drops pools known to be small and keeps pools not decorated yet', () => {
    const pools = toRoutingPools([
      pool('0x11', ['1', '1'], { totalLiquidity: '99.99' }),
      pool('0x12', ['1', '1'], { totalLiquidity: '100' }),
      pool('0x13', ['1', '1']),
    ]);
    expect(aboveLiquidityFloor(pools, 100).map((p) => p.spec.id.slice(0, 4))).toEqual(['0x12', '0x13']);
    expect(aboveLiquidityFloor(pools, 0)).toHaveLength(3);
  });
});
