import type { Address } from '../../../../../src/domain/address';
import { unitsToDecimal } from '../../../../../src/domain/decimal';
import type { StoredPool } from '../../../../../src/domain/pool';
import { v3PoolOf } from '../../../../../src/domain/poolTypes/v3PoolOf';
import { bufferStateOf, erc4626Of } from '../../../../../src/domain/protocols/v3/stored/buffers';
import type { StoredBuffer, StoredV3VaultState } from '../../../../../src/domain/protocols/v3/stored/storedV3';
import { UnmodelledHookError } from '../../../../../src/domain/protocols/v3/stored/v3HookOf';
import { v3PoolStateOf } from '../../../../../src/domain/protocols/v3/stored/v3PoolState';
import { bufferWrapOrUnwrap } from '../../../../../src/domain/protocols/v3/buffer/wrapOrUnwrap';
import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import { storedPool } from '../../../../helpers/poolFixtures';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

const VAULT_STATE: StoredV3VaultState = {
  aggregateSwapFee: '0',
  aggregateYieldFee: '0',
  paysYieldFees: [false, false],
  lastLiveBalances: null,
  supportsUnbalancedLiquidity: true,
  hook: null,
};

/** The Weighted vector's pool as the catalogue and follower store it: raw balances in token decimals. */
function storedWeightedFromVector(): { pool: StoredPool; vector: ReturnType<typeof loadV3Vector> } {
  const vector = loadV3Vector('11155111-7439300-Weighted-USDC-DAI.json');
  const p = vector.pool;
  const factors = p.bigs('scalingFactors');
  const live = p.bigs('balancesLiveScaled18');
  const weights = p.bigs('weights');
  const pool = storedPool({
    id: p.poolAddress.toLowerCase(),
    address: p.poolAddress.toLowerCase() as Address,
    poolType: 'Weighted',
    protocolVersion: 3,
    swapFee: unitsToDecimal(p.big('swapFee'), 18),
    totalShares: unitsToDecimal(p.big('totalSupply'), 18),
    tokens: p.tokens.map((address, i) => {
      const decimals = 18 - (factors[i]!.toString().length - 1);
      // Rates are 1e18 and the balances whole units of each token: raw = live / factor exactly.
      return {
        address: address.toLowerCase() as Address,
        symbol: null,
        name: null,
        decimals,
        balance: unitsToDecimal(live[i]! / factors[i]!, decimals),
        weight: unitsToDecimal(weights[i]!, 18),
        priceRate: '1',
      };
    }),
    v3: { ...VAULT_STATE, aggregateSwapFee: unitsToDecimal(p.big('aggregateSwapFee'), 18) },
  });
  return { pool, vector };
}

describe('a stored V3 pool as the V3 math takes it', () => {
  const { pool, vector } = storedWeightedFromVector();

  test("its Vault state is the vector's, integer for integer", () => {
    const state = v3PoolStateOf(pool)!;
    expect(state.scalingFactors).toEqual(vector.pool.bigs('scalingFactors'));
    expect(state.tokenRates).toEqual(vector.pool.bigs('tokenRates'));
    expect(state.balancesLiveScaled18).toEqual(vector.pool.bigs('balancesLiveScaled18'));
    expect(state.staticSwapFee).toBe(vector.pool.big('swapFee'));
    expect(state.totalSupply).toBe(vector.pool.big('totalSupply'));
  });

  test.each(vector.swaps.map((s) => [`${s.kind} ${s.amountRaw}`, s] as const))(
    'swap %s through v3PoolOf: the chain query exactly',
    (_t, swap) => {
      const v3 = v3PoolOf(pool, 0n)!;
      const result = vaultSwap(v3, {
        kind: swap.kind,
        tokenIn: swap.tokenIn.toLowerCase(),
        tokenOut: swap.tokenOut.toLowerCase(),
        amountGivenRaw: swap.amountRaw,
      });
      expect(result.amountCalculatedRaw).toBe(swap.outputRaw);
    },
  );

  test('a V2 pool, or a V3 pool without its V3 Vault state, has no V3 state', () => {
    expect(v3PoolStateOf({ ...pool, protocolVersion: 2 })).toBeUndefined();
    const { v3: _v3, ...bare } = pool;
    expect(v3PoolOf(bare, 0n)).toBeUndefined();
  });

  test('the V2 Weighted type is not the V3 one: a V3 pool of an unknown V3 type has no math', () => {
    expect(v3PoolOf({ ...pool, poolType: 'LiquidityBootstrapping' }, 0n)).toBeUndefined();
  });

  test('the yield fee is charged on the growth since the last live balances, as the Vault loads the pool', () => {
    const last = vector.pool.bigs('balancesLiveScaled18');
    const grown: StoredPool = {
      ...pool,
      tokens: pool.tokens.map((t, i) => (i === 1 ? { ...t, balance: unitsToDecimal(last[1]! + 10n ** 18n, 18) } : t)),
      v3: {
        ...pool.v3!,
        aggregateYieldFee: '0.1',
        paysYieldFees: [false, true],
        lastLiveBalances: last.map((b) => unitsToDecimal(b, 18)),
      },
    };
    const state = v3PoolStateOf(grown)!;
    // 1 DAI of growth, 10 % of it to fees: the live balance grows by 0.9 DAI.
    expect(state.balancesLiveScaled18[1]).toBe(last[1]! + 9n * 10n ** 17n);
    expect(state.balancesLiveScaled18[0]).toBe(last[0]);
  });

  test('a hook the service does not model makes the pool unquotable by name', () => {
    const hooked: StoredPool = {
      ...pool,
      v3: {
        ...pool.v3!,
        hook: {
          address: '0x00000000000000000000000000000000000000aa',
          kind: null,
          flags: {
            enableHookAdjustedAmounts: false,
            shouldCallComputeDynamicSwapFee: true,
            shouldCallBeforeSwap: false,
            shouldCallAfterSwap: false,
            shouldCallBeforeAddLiquidity: false,
            shouldCallAfterAddLiquidity: false,
            shouldCallBeforeRemoveLiquidity: false,
            shouldCallAfterRemoveLiquidity: false,
          },
          params: {},
        },
      },
    };
    expect(() => v3PoolOf(hooked, 0n)).toThrow(UnmodelledHookError);
  });
});

describe('a stored buffer', () => {
  test('wraps through its token as stored, from the buffer while it holds enough', () => {
    const buffer: StoredBuffer = {
      wrappedToken: '0x00000000000000000000000000000000000000b1',
      underlyingToken: '0x00000000000000000000000000000000000000c1',
      underlyingBalance: '1000000',
      wrappedBalance: '2000000',
      buffersPaused: false,
      token: {
        conversion: 'rate',
        rate: '1100000000000000000',
        maxDeposit: (2n ** 256n - 1n).toString(),
        maxMint: (2n ** 256n - 1n).toString(),
        maxRedeem: '0',
        maxWithdraw: '0',
      },
    };
    const result = bufferWrapOrUnwrap(bufferStateOf(buffer), erc4626Of(buffer.token), {
      kind: 'exactIn',
      tokenIn: buffer.underlyingToken,
      amountGivenRaw: 1_100_001n,
    });
    expect(result.fromBuffer).toBe(true);
    // previewDeposit(in - 1) - 1 with 1.1 assets a share.
    expect(result.amountCalculatedRaw).toBe(999_999n);
  });
});
