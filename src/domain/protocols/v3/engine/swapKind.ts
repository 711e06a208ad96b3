import type { SwapKind } from '../../../swap/poolModel';
import type { V3SwapKind } from '../poolMath';

/**
 * The engine asks every pool in V2's words (`GIVEN_IN` / `GIVEN_OUT`); the V3 Vault takes its own
 * (`EXACT_IN` / `EXACT_OUT`). The V3 models convert here and nowhere else.
 */
export function v3SwapKindOf(kind: SwapKind): V3SwapKind {
  return kind === 'givenIn' ? 'exactIn' : 'exactOut';
}
