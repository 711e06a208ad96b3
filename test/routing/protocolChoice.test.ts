import { v3IsBetter } from '../../src/routing/protocolChoice';
import type { SerializedSwapInfo, SerializedV3SwapInfo } from '../../src/routing/types';
import { emptySwapInfo } from '../../src/routing/serialize';
import { emptyV3SwapInfo } from '../../src/routing/v3/v3Answer';

/** `/order` without protocolVersion builds the Vault's route that leaves the user better off after gas. */

const v2 = (afterGas: string): SerializedSwapInfo => ({
  ...emptySwapInfo('0xa', '0xb'),
  returnAmountConsideringFees: afterGas,
});
const v3 = (afterGas: string): SerializedV3SwapInfo => ({
  ...emptyV3SwapInfo('0xa', '0xb'),
  returnAmountConsideringFees: afterGas,
});

test('a sell takes the protocol that pays more after gas, a buy the one that costs less; a tie stays V2', () => {
  expect(v3IsBetter('sell', v3('1001'), v2('1000'))).toBe(true);
  expect(v3IsBetter('sell', v3('999'), v2('1000'))).toBe(false);
  expect(v3IsBetter('buy', v3('999'), v2('1000'))).toBe(true);
  expect(v3IsBetter('buy', v3('1001'), v2('1000'))).toBe(false);
  expect(v3IsBetter('sell', v3('1000'), v2('1000'))).toBe(false);
  expect(v3IsBetter('buy', v3('1000'), v2('1000'))).toBe(false);
});
