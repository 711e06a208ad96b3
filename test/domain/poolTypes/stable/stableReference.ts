import { bnum, parseToPoolsDict, type SubgraphPoolBase } from '@balancer-labs/sor';
import type { PoolModel, PoolState, SwapKind } from '../../../../src/domain/swap/poolModel';
import { human, type SnapshotPool } from '../../../helpers/snapshotSpecs';

/**
 * A stable-family model and the reference SOR's own pool class side by side, over every ordered
 * pair of a pool, both kinds, at fractions of what each swap draws on.
 */
export interface Comparison {
  readonly i: number;
  readonly j: number;
  readonly kind: SwapKind;
  readonly fraction: number;
  readonly amount: bigint;
  /** The model's answer in raw units, or 'revert'. */
  readonly ours: bigint | 'revert';
  /** The SOR's answer in raw units (it answers 0 where its own arithmetic throws). */
  readonly sor: bigint;
}

interface SorPool {
  parsePoolPairData(a: string, b: string): unknown;
  _exactTokenInForTokenOut(pd: unknown, amount: ReturnType<typeof bnum>): ReturnType<typeof bnum>;
  _tokenInForExactTokenOut(pd: unknown, amount: ReturnType<typeof bnum>): ReturnType<typeof bnum>;
}

export function sorPools(pools: readonly SnapshotPool[]): Record<string, SorPool> {
  return parseToPoolsDict(structuredClone(pools) as unknown as SubgraphPoolBase[], 0) as unknown as Record<
    string,
    SorPool
  >;
}

export const FRACTIONS = [1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.5, 0.9];

export function compareWithSor<S extends PoolState>(
  model: PoolModel<S>,
  sor: SorPool,
  state: S,
  reference: (k: number) => bigint,
  fractions: readonly number[] = FRACTIONS,
): Comparison[] {
  const out: Comparison[] = [];
  const n = model.tokens.length;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const pairData = sor.parsePoolPairData(model.tokens[i]!, model.tokens[j]!);
      for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
        const given = kind === 'givenIn' ? i : j;
        const result = kind === 'givenIn' ? j : i;
        for (const fraction of fractions) {
          const amount = (reference(given) * BigInt(Math.round(fraction * 1e9))) / 1_000_000_000n;
          if (amount === 0n) continue;
          let ours: bigint | 'revert';
          try {
            ours = model.swap(state, kind, i, j, amount);
          } catch {
            ours = 'revert';
          }
          const h = bnum(human(amount, model.decimals[given]!));
          const ref =
            kind === 'givenIn' ? sor._exactTokenInForTokenOut(pairData, h) : sor._tokenInForExactTokenOut(pairData, h);
          // Amounts out round down, amounts in up, as the Vault does.
          const raw = ref.times(bnum(10).pow(model.decimals[result]!)).integerValue(kind === 'givenIn' ? 1 : 0);
          out.push({ i, j, kind, fraction, amount, ours, sor: BigInt(raw.toFixed(0)) });
        }
      }
    }
  }
  return out;
}

/** Model minus SOR, signed so that a positive value means the model favours the pool. */
export function poolFavour(c: Comparison): bigint {
  if (c.ours === 'revert') throw new Error(`model reverted on ${c.i}->${c.j} ${c.kind} x${c.fraction}`);
  return c.kind === 'givenIn' ? c.sor - c.ours : c.ours - c.sor;
}
