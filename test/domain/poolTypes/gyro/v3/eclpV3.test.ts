import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import { eclpVectorPool } from '../../../../helpers/v3EclpVector';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

/**
 * The V3 E-CLP beyond the vectors' cases. The Sepolia pool still holds the balances it was
 * initialised with (1e18 of each), and the Vault mints the invariant rounded down at
 * initialisation: its supply tells the rounding direction the chain used.
 */

const vector = loadV3Vector('11155111-7748718-GyroECLP.json');
const pool = eclpVectorPool(vector.pool);
const balances = pool.state.balancesLiveScaled18;
const [token0, token1] = vector.pool.tokens;

test('the invariant rounded down is the supply the Vault minted at initialisation; rounded up, above it', () => {
  expect(pool.math.computeInvariant(balances, 'down')).toBe(pool.state.totalSupply);
  expect(pool.math.computeInvariant(balances, 'up')).toBeGreaterThan(pool.state.totalSupply);
});

test('a swap past the end of the price range reverts instead of being quoted', () => {
  // 1e18 of each token and a range within 0.02% of 1: 3e18 in would push the curve past its edge.
  const request = { kind: 'exactIn' as const, tokenIn: token0!, tokenOut: token1!, amountGivenRaw: 3n * 10n ** 18n };
  expect(() => vaultSwap(pool, request)).toThrow(/asset bounds/);
  const exactOut = { kind: 'exactOut' as const, tokenIn: token0!, tokenOut: token1!, amountGivenRaw: 10n ** 18n };
  expect(() => vaultSwap(pool, exactOut)).toThrow(/asset bounds/);
});

test('the balance for an invariant ratio lies on the curve: the invariant there is the ratio times today', () => {
  const ratio = 12n * 10n ** 17n;
  const balance1 = pool.math.computeBalance(balances, 1, ratio);
  const scaled = pool.math.computeInvariant([balances[0]!, balance1], 'down');
  const target = (pool.math.computeInvariant(balances, 'down') * ratio) / 10n ** 18n;
  const diff = scaled > target ? scaled - target : target - scaled;
  expect(diff * 10n ** 12n).toBeLessThan(target);
});
