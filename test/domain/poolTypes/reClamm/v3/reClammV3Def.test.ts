import type { Address } from '../../../../../src/domain/address';
import { unitsToDecimal } from '../../../../../src/domain/decimal';
import type { StoredPool } from '../../../../../src/domain/pool';
import { v3PoolOf } from '../../../../../src/domain/poolTypes/v3PoolOf';
import { UnmodelledHookError } from '../../../../../src/domain/protocols/v3/stored/v3HookOf';
import type { V3HookFlags } from '../../../../../src/domain/protocols/v3/stored/storedV3';
import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import { storedPool } from '../../../../helpers/poolFixtures';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

/**
 * A stored ReClamm pool as the registry's ReClamm type runs it: its parameters from the stored
 * fields, its virtual balances moved to the quote's timestamp, and the pool as its own hooks
 * contract priced with no hook unless the flags show a hook it forwards to.
 */
const vector = loadV3Vector('8453-31094381-ReClamm-WETH-USDC-Out-Of-Range.json');
const p = vector.pool;
const ADDRESS = p.poolAddress.toLowerCase();
const NO_FLAGS: V3HookFlags = {
  enableHookAdjustedAmounts: false,
  shouldCallComputeDynamicSwapFee: false,
  shouldCallBeforeSwap: false,
  shouldCallAfterSwap: false,
  shouldCallBeforeAddLiquidity: false,
  shouldCallAfterAddLiquidity: false,
  shouldCallBeforeRemoveLiquidity: false,
  shouldCallAfterRemoveLiquidity: false,
};
const OWN = { ...NO_FLAGS, shouldCallBeforeAddLiquidity: true, shouldCallBeforeRemoveLiquidity: true };

function stored(hook: { address: string; flags: V3HookFlags } | null): StoredPool {
  const factors = p.bigs('scalingFactors');
  const live = p.bigs('balancesLiveScaled18');
  const [a, b] = p.bigs('lastVirtualBalances');
  return storedPool({
    id: ADDRESS,
    address: ADDRESS as Address,
    poolType: 'ReClamm',
    poolTypeVersion: 1,
    protocolVersion: 3,
    swapFee: unitsToDecimal(p.big('swapFee'), 18),
    totalShares: unitsToDecimal(p.big('totalSupply'), 18),
    tokens: p.tokens.map((address, i) => {
      const decimals = 18 - (factors[i]!.toString().length - 1);
      return {
        address: address.toLowerCase() as Address,
        symbol: null,
        name: null,
        decimals,
        balance: unitsToDecimal(live[i]! / factors[i]!, decimals),
        weight: null,
        priceRate: '1',
      };
    }),
    lastTimestamp: Number(p.big('lastTimestamp')),
    lastVirtualBalances: [a!.toString(), b!.toString()],
    dailyPriceShiftBase: p.big('dailyPriceShiftBase').toString(),
    centerednessMargin: p.big('centerednessMargin').toString(),
    startFourthRootPriceRatio: p.big('startFourthRootPriceRatio').toString(),
    endFourthRootPriceRatio: p.big('endFourthRootPriceRatio').toString(),
    priceRatioUpdateStartTime: Number(p.big('priceRatioUpdateStartTime')),
    priceRatioUpdateEndTime: Number(p.big('priceRatioUpdateEndTime')),
    v3: {
      aggregateSwapFee: unitsToDecimal(p.big('aggregateSwapFee'), 18),
      aggregateYieldFee: '0',
      paysYieldFees: [false, false],
      lastLiveBalances: null,
      supportsUnbalancedLiquidity: false,
      hook: hook === null ? null : { ...hook, kind: null, params: {} },
    },
  });
}

const swap = vector.swaps[0]!;
const request = {
  kind: swap.kind,
  tokenIn: swap.tokenIn.toLowerCase(),
  tokenOut: swap.tokenOut.toLowerCase(),
  amountGivenRaw: swap.amountRaw,
};

test('the pool as its own hooks contract is priced as the chain did at the vector timestamp', () => {
  const pool = v3PoolOf(stored({ address: ADDRESS, flags: OWN }), p.big('currentTimestamp'))!;
  expect(pool.hook).toBeUndefined();
  expect(vaultSwap(pool, request).amountCalculatedRaw).toBe(swap.outputRaw);
});

test('a quote timestamp before the pool last wrote its virtual balances is priced at that write', () => {
  const before = v3PoolOf(stored(null), p.big('lastTimestamp') - 3_600n)!;
  const atWrite = v3PoolOf(stored(null), p.big('lastTimestamp'))!;
  expect(vaultSwap(before, request).amountCalculatedRaw).toBe(vaultSwap(atWrite, request).amountCalculatedRaw);
});

test.each([
  ['forwarding a swap fee hook', { address: ADDRESS, flags: { ...OWN, shouldCallComputeDynamicSwapFee: true } }],
  ['with a hook at another address', { address: `0x${'4b'.repeat(20)}`, flags: OWN }],
])('a ReClamm pool %s is not quoted', (_what, hook) => {
  expect(() => v3PoolOf(stored(hook), p.big('currentTimestamp'))).toThrow(UnmodelledHookError);
});
