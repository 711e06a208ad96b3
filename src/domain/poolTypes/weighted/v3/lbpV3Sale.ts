import { Revert } from '../../../swap/math/revert';
import type { V3Hook } from '../../../protocols/v3/hooks/hook';
import type { LbpSaleState } from './lbpV3State';

export class SwapsDisabled extends Revert {
  override readonly name = 'SwapsDisabled';
  constructor() {
    super('the LBP sale is not open at this time (SwapsDisabled)', { code: 'SwapsDisabled' });
  }
}

export class SwapOfProjectTokenIn extends Revert {
  override readonly name = 'SwapOfProjectTokenIn';
  constructor() {
    super('this LBP only sells its project token (SwapOfProjectTokenIn)', { code: 'SwapOfProjectTokenIn' });
  }
}

export class AddingLiquidityNotAllowed extends Revert {
  override readonly name = 'AddingLiquidityNotAllowed';
  constructor() {
    super('an LBP takes liquidity only from its owner before the sale (AddingLiquidityNotAllowed)', {
      code: 'AddingLiquidityNotAllowed',
    });
  }
}

export class RemovingLiquidityNotAllowed extends Revert {
  override readonly name = 'RemovingLiquidityNotAllowed';
  constructor() {
    super('an LBP refuses removes during its sale (RemovingLiquidityNotAllowed)', {
      code: 'RemovingLiquidityNotAllowed',
    });
  }
}

export class RemoveOnlyThroughMigrationRouter extends Revert {
  override readonly name = 'RemoveOnlyThroughMigrationRouter';
  constructor() {
    super('this LBP takes removes only through its migration router (BeforeRemoveLiquidityHookFailed)', {
      code: 'BeforeRemoveLiquidityHookFailed',
    });
  }
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * LBPCommon's rules, at one block's timestamp: swaps only inside the sale window (both ends
 * included), the project token never in when the sale is buy-only. Adds come only from the owner
 * through the trusted router before the sale, which a quote for a user never is, so every add is
 * refused; removes are refused during the sale, and before or after it too when the pool names a
 * migration router (the pool's migration, not a user's remove, goes through it).
 */
export function ensureSwapAllowed(
  state: LbpSaleState,
  timestamp: bigint,
  indexIn: number,
  projectTokenInBlocked: boolean,
): void {
  if (!isSaleOpen(state, timestamp)) throw new SwapsDisabled();
  if (projectTokenInBlocked && indexIn === state.projectTokenIndex) throw new SwapOfProjectTokenIn();
}

/** The pool is its own hooks contract: these are its before-add and before-remove checks. */
export function lbpHook(state: LbpSaleState, timestamp: bigint): V3Hook {
  return {
    enableHookAdjustedAmounts: false,
    beforeAddLiquidity(): undefined {
      throw new AddingLiquidityNotAllowed();
    },
    beforeRemoveLiquidity(): undefined {
      if (isSaleOpen(state, timestamp)) throw new RemovingLiquidityNotAllowed();
      if (state.migrationRouter !== undefined && state.migrationRouter !== ZERO_ADDRESS) {
        throw new RemoveOnlyThroughMigrationRouter();
      }
      return undefined;
    },
  };
}

export function isSaleOpen(state: LbpSaleState, timestamp: bigint): boolean {
  return timestamp >= state.startTime && timestamp <= state.endTime;
}
