import { bnum, parseToPoolsDict, type SubgraphPoolBase } from '@balancer-labs/sor';
import type { GyroSpec } from '../../../../src/domain/poolTypes/gyro/gyroParams';
import type { PoolModel, PoolState, SwapKind } from '../../../../src/domain/swap/poolModel';
import { human } from '../../../helpers/snapshotSpecs';

/**
 * Gyro pools as the reference SOR and the engine read them: one subgraph-shaped pool (the SOR's
 * `SubgraphPoolBase`, Gyro parameters spread over it, `tokenRates` for v2) turned into both.
 */

export const GYRO_FIELDS = [
  'alpha',
  'beta',
  'sqrtAlpha',
  'sqrtBeta',
  'root3Alpha',
  'c',
  's',
  'lambda',
  'tauAlphaX',
  'tauAlphaY',
  'tauBetaX',
  'tauBetaY',
  'u',
  'v',
  'w',
  'z',
  'dSq',
] as const;

export interface GyroTestToken {
  readonly address: string;
  readonly balance: string;
  readonly decimals: number;
  /** The v2 pools' rate; v1 pools ignore it. */
  readonly rate?: string;
}

export interface GyroTestPool {
  readonly poolType: 'Gyro2' | 'Gyro3' | 'GyroE';
  readonly version: number;
  readonly swapFee: string;
  readonly tokens: readonly GyroTestToken[];
  readonly params: Readonly<Partial<Record<(typeof GYRO_FIELDS)[number], string>>>;
  readonly swapEnabled?: boolean;
}

const ID = `0x${'6a'.repeat(20)}000200000000000000000abc`;
const ADDRESS = `0x${'6a'.repeat(20)}`;

export function gyroSpec(pool: GyroTestPool): GyroSpec {
  return {
    id: ID,
    address: ADDRESS,
    poolType: pool.poolType,
    poolTypeVersion: pool.version,
    swapFee: pool.swapFee,
    totalShares: '1000',
    swapEnabled: pool.swapEnabled ?? true,
    tokens: pool.tokens.map((t) => ({
      address: t.address,
      balance: t.balance,
      decimals: t.decimals,
      weight: null,
      priceRate: t.rate ?? '1',
    })),
    gyro: { ...pool.params } as Record<string, string>,
  };
}

export interface SorGyroPool {
  parsePoolPairData(a: string, b: string): unknown;
  _exactTokenInForTokenOut(pd: unknown, amount: ReturnType<typeof bnum>): ReturnType<typeof bnum>;
  _tokenInForExactTokenOut(pd: unknown, amount: ReturnType<typeof bnum>): ReturnType<typeof bnum>;
}

export function sorGyroPool(pool: GyroTestPool): SorGyroPool {
  const sub = {
    id: ID,
    address: ADDRESS,
    poolType: pool.poolType,
    poolTypeVersion: pool.version,
    swapFee: pool.swapFee,
    swapEnabled: true,
    totalShares: '1000',
    totalWeight: '0',
    tokens: pool.tokens.map((t) => ({
      address: t.address,
      balance: t.balance,
      decimals: t.decimals,
      weight: null,
      priceRate: '1',
    })),
    tokensList: pool.tokens.map((t) => t.address),
    ...pool.params,
    ...(pool.version === 2 ? { tokenRates: pool.tokens.map((t) => t.rate ?? '1') } : {}),
  };
  const dict = parseToPoolsDict([sub as unknown as SubgraphPoolBase], 0) as unknown as Record<string, SorGyroPool>;
  const parsed = dict[ID];
  if (!parsed) throw new Error(`the SOR refused the test pool ${pool.poolType} v${pool.version}`);
  return parsed;
}

export interface GyroCase {
  readonly i: number;
  readonly j: number;
  readonly kind: SwapKind;
  readonly amount: bigint;
  readonly ours: bigint;
  /** The SOR's answer in raw units of the result token (amounts out floored, amounts in ceiled). */
  readonly sor: bigint | 'revert';
  /** What the documented rounding differences allow (see `caseTolerance`). */
  readonly tolerance: bigint;
}

/**
 * How far the contract's answer may sit from the SOR's, in raw units of the result token, once the
 * amounts in are multiples of the fee's denominator (so that the pool's fee, rounded up on raw
 * units, and the SOR's, rounded down on 18-decimal units, are the same number). Given in, the two
 * then agree to the wei. Given out, the SOR divides the amount in by the rate and by 1 - fee
 * rounding down where the pool rounds up: up to 2 raw units. For a 2-CLP swap from token 1 the SOR
 * also rounds 1/sqrt(beta) and 1/sqrt(alpha) where the pool reuses sqrt(alpha) and sqrt(beta):
 * up to 2e-16 relative.
 */
export function caseTolerance(kind: SwapKind, larger: bigint, reciprocal: boolean): bigint {
  const relative = reciprocal ? larger / 5_000_000_000_000_000n : 0n;
  return (kind === 'givenOut' ? 2n : 0n) + relative;
}

/** The smallest 10^k with fee * 10^k whole: amounts in that are multiples of it carry an exact fee. */
export function feeUnit(swapFee: string): bigint {
  const fraction = swapFee.split('.')[1]?.replace(/0+$/, '') ?? '';
  return 10n ** BigInt(fraction.length);
}

/**
 * Every ordered pair, both kinds, at `fractions` of the model's own limit for that swap (so the
 * contract accepts each one; amounts in rounded to whole fee units): the model's raw answer
 * beside the SOR's.
 */
export function compareGyro<S extends PoolState>(
  model: PoolModel<S>,
  sor: SorGyroPool,
  swapFee: string,
  fractions: readonly number[],
): GyroCase[] {
  const out: GyroCase[] = [];
  const state = model.initialState();
  const unit = feeUnit(swapFee);
  const n = model.tokens.length;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const pairData = sor.parsePoolPairData(model.tokens[i]!, model.tokens[j]!);
      for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
        const given = kind === 'givenIn' ? i : j;
        const result = kind === 'givenIn' ? j : i;
        const limit = model.maxAmount(state, kind, i, j);
        for (const fraction of fractions) {
          let amount = (limit * BigInt(Math.round(fraction * 1e12))) / 1_000_000_000_000n;
          if (kind === 'givenIn') amount -= amount % unit;
          if (amount === 0n) continue;
          const ours = model.swap(state, kind, i, j, amount);
          const h = bnum(human(amount, model.decimals[given]!));
          let reference: bigint | 'revert';
          try {
            const value =
              kind === 'givenIn'
                ? sor._exactTokenInForTokenOut(pairData, h)
                : sor._tokenInForExactTokenOut(pairData, h);
            // Amounts out round down, amounts in up, as the Vault does; the SOR answers 0 (or, for
            // GyroE v1, throws) where its arithmetic reverts.
            const raw = value.times(bnum(10).pow(model.decimals[result]!)).integerValue(kind === 'givenIn' ? 1 : 0);
            reference = raw.isZero() && kind === 'givenOut' ? 'revert' : BigInt(raw.toFixed(0));
          } catch {
            reference = 'revert';
          }
          const larger = reference !== 'revert' && reference > ours ? reference : ours;
          out.push({
            i,
            j,
            kind,
            amount,
            ours,
            sor: reference,
            tolerance: caseTolerance(kind, larger, model.poolType === 'Gyro2' && i === 1),
          });
        }
      }
    }
  }
  return out;
}

/** The cases where the model and the SOR disagree beyond the documented rounding. */
export const disagreements = (cases: readonly GyroCase[]): GyroCase[] =>
  cases.filter((c) => c.sor === 'revert' || (c.ours > c.sor ? c.ours - c.sor : c.sor - c.ours) > c.tolerance);
