import {
  add,
  divDown,
  divDownLargeU,
  divDownU,
  divUp,
  divUpU,
  mulDown,
  mulDownLargeSmallU,
  mulDownU,
  mulUp,
  mulUpU,
  ONE,
  sqrt,
  sub,
} from './gyroFixedPoint';
import { Revert } from '../../swap/math/revert';

/**
 * Gyro3CLPMath (the symmetric 3-CLP: price bounds [alpha, 1/alpha] for every pair, parameter
 * root3Alpha = alpha^(1/3)) in bigint, rounding as the contract does. The invariant L is the
 * largest root of a cubic, found by the contract's Newton iteration with its own stopping rules;
 * every swap uses one virtual offset L * root3Alpha for all three tokens. Balances are upscaled.
 */

const MAX_BALANCES = 10n ** 29n;
export const MIN_ROOT_3_ALPHA = 158740105196819970n;
export const MAX_ROOT_3_ALPHA = 999966665555493800n;
const L_THRESHOLD_SIMPLE_NUMERICS = 2n * 10n ** 31n;
const L_MAX = 10n ** 34n;
const L_VS_LPLUS_MIN = 1_300_000_000_000_000_000n;
const INVARIANT_SHRINKING_FACTOR_PER_STEP = 8n;
const INVARIANT_MIN_ITERATIONS = 5;

/**
 * The invariant for balances in the order the pool passes them: in a swap, the token in, the
 * token out, then the third. The cubic's last coefficient rounds its two products in that order,
 * so the order can change the last digits.
 */
export function calculateInvariant(balances: readonly [bigint, bigint, bigint], root3Alpha: bigint): bigint {
  const [b0, b1, b2] = balances;
  if (b0 > MAX_BALANCES || b1 > MAX_BALANCES || b2 > MAX_BALANCES) throw new Revert('balances too large (GYR#362)');
  const a = ONE - mulDownU(mulDownU(root3Alpha, root3Alpha), root3Alpha);
  const mb = mulDownU(mulDownU(b0 + b1 + b2, root3Alpha), root3Alpha);
  const mc = mulDownU(mulDownU(b0, b1) + mulDownU(b1, b2) + mulDownU(b2, b0), root3Alpha);
  const md = mulDownU(mulDownU(b0, b1), b2);
  // Starting point right of the cubic's local minimum (upper local extremum lplus, times 1.5 or 2).
  const radic = mulUpU(mb, mb) + mulUpU(a, mc * 3n);
  const lplus = divUpU(mb + sqrt(radic, 5n), a * 3n);
  const alpha = ONE - a;
  let root = mulUpU(lplus, alpha >= ONE / 2n ? 1_500_000_000_000_000_000n : 2n * ONE);
  const lLower = mulUpU(lplus, L_VS_LPLUS_MIN);
  root = runNewton(mb, mc, md, root3Alpha, lLower, root);
  if (root > L_MAX) throw new Revert('invariant too large (GYR#361)');
  return root;
}

function runNewton(mb: bigint, mc: bigint, md: bigint, root3Alpha: bigint, lLower: bigint, root: bigint): bigint {
  let deltaAbsPrev = 0n;
  for (let iteration = 0; iteration < 255; iteration++) {
    const [deltaAbs, deltaIsPos] = newtonDelta(mb, mc, md, root3Alpha, lLower, root);
    if (deltaAbs <= 1n) return root;
    if (iteration >= INVARIANT_MIN_ITERATIONS && deltaIsPos) return root;
    if (iteration >= INVARIANT_MIN_ITERATIONS && deltaAbs >= deltaAbsPrev / INVARIANT_SHRINKING_FACTOR_PER_STEP)
      return root;
    deltaAbsPrev = deltaAbs;
    root = deltaIsPos ? add(root, deltaAbs) : sub(root, deltaAbs);
  }
  throw new Revert('invariant did not converge (GYR#352)');
}

/** The Newton step -f(l)/f'(l) as (magnitude, sign), with the contract's two numeric regimes. */
function newtonDelta(
  mb: bigint,
  mc: bigint,
  md: bigint,
  root3Alpha: bigint,
  lLower: bigint,
  root: bigint,
): [bigint, boolean] {
  if (root > L_MAX) throw new Revert('invariant too large (GYR#361)');
  if (root < lLower) throw new Revert('invariant underflow (GYR#363)');
  const root2 = mulDownU(root, root);
  let df = mulDown(root * 3n, root);
  df = df - mulDownU(mulDownU(mulDownU(df, root3Alpha), root3Alpha), root3Alpha);
  df = df - 2n * mulDownU(root, mb) - mc;
  let deltaMinus: bigint;
  let deltaPlus: bigint;
  if (root <= L_THRESHOLD_SIMPLE_NUMERICS) {
    deltaMinus = mulDownU(root2, root);
    deltaMinus = deltaMinus - mulDownU(mulDownU(mulDownU(deltaMinus, root3Alpha), root3Alpha), root3Alpha);
    deltaMinus = divDownU(deltaMinus, df);
    deltaPlus = mulDownU(root2, mb);
    deltaPlus = divDownU(deltaPlus + mulDownU(root, mc), df);
    deltaPlus = deltaPlus + divDownU(md, df);
  } else {
    deltaMinus = mulDownLargeSmallU(root2, root);
    deltaMinus =
      deltaMinus -
      mulDownLargeSmallU(mulDownLargeSmallU(mulDownLargeSmallU(deltaMinus, root3Alpha), root3Alpha), root3Alpha);
    deltaMinus = divDownLargeU(deltaMinus, df);
    deltaPlus = mulDownLargeSmallU(root2, mb);
    deltaPlus = deltaPlus + mulDownU(mc, root);
    deltaPlus = divDownLargeU(deltaPlus, df, 10n ** 12n, 10n ** 6n);
    deltaPlus = deltaPlus + divDownU(md, df);
  }
  const deltaIsPos = deltaPlus >= deltaMinus;
  return [deltaIsPos ? deltaPlus - deltaMinus : deltaMinus - deltaPlus, deltaIsPos];
}

/** The one virtual offset of every token: L * root3Alpha. */
export const virtualOffset = (invariant: bigint, root3Alpha: bigint): bigint => mulDown(invariant, root3Alpha);

/** Amount out for `amountIn` (fee already off), with the contract's 3e-18 safety margin on the offset. */
export function calcOutGivenIn(balanceIn: bigint, balanceOut: bigint, amountIn: bigint, offset: bigint): bigint {
  const virtInOver = balanceIn + mulUpU(offset, ONE + 2n);
  const virtOutUnder = balanceOut + mulDownU(offset, ONE - 1n);
  const amountOut = divDown(mulDown(virtOutUnder, amountIn), add(virtInOver, amountIn));
  if (amountOut > balanceOut) throw new Revert('asset bounds exceeded (GYR#357)');
  return amountOut;
}

/** Amount in (before the fee) for `amountOut`. */
export function calcInGivenOut(balanceIn: bigint, balanceOut: bigint, amountOut: bigint, offset: bigint): bigint {
  if (amountOut > balanceOut) throw new Revert('asset bounds exceeded (GYR#357)');
  const virtInOver = balanceIn + mulUpU(offset, ONE + 2n);
  const virtOutUnder = balanceOut + mulDownU(offset, ONE - 1n);
  return divUp(mulUp(virtInOver, amountOut), sub(virtOutUnder, amountOut));
}
