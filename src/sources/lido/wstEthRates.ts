import { getAddress, Interface } from 'ethers';
import { UpstreamError } from '../upstream';
import { callBatch, RPC_UPSTREAM, type JsonRpcOptions } from '../rpc/jsonRpc';

/**
 * Lido's live stETH <-> wstETH conversion, read from the chain per quote. The wstETH contract's own
 * views are asked for the exact amounts (`getWstETHByStETH`, `getStETHByWstETH`), so the answer is
 * the contract's arithmetic, whatever Lido's share-rate internals are; a rounded rate such as
 * `stEthPerToken()` would not reproduce every floor. All reads of one quote are pinned to one block
 * (`pin`), so they see one ratio even if a rebase lands between them.
 *
 * No cache: amounts differ per quote, and a ratio kept across a rebase would make the quote and
 * the transaction disagree; the quote service's own cache already answers repeated requests.
 */
export type WstEthView = 'getWstETHByStETH' | 'getStETHByWstETH';

/** The wstETH contract reverted on the amount (an overflow past any real supply): the request's fault, not the node's. */
export class WstEthConversionReverted extends Error {
  override readonly name: string = 'WstEthConversionReverted';
}

export interface WstEthRates {
  /** The block every later `convert` of this quote reads at. */
  pin(): Promise<string>;
  /** `wstETH.<view>(amount)` for each amount, at `block`. */
  convert(wstETH: string, view: WstEthView, amounts: readonly bigint[], block: string): Promise<bigint[]>;
}

const WSTETH = new Interface([
  'function getWstETHByStETH(uint256 stETHAmount) view returns (uint256)',
  'function getStETHByWstETH(uint256 wstETHAmount) view returns (uint256)',
]);

export class RpcWstEthRates implements WstEthRates {
  constructor(private readonly rpc: JsonRpcOptions) {}

  async pin(): Promise<string> {
    const [answer] = await callBatch(this.rpc, [{ method: 'eth_blockNumber', params: [] }]);
    if (!answer?.ok || typeof answer.result !== 'string' || !/^0x[0-9a-f]+$/i.test(answer.result)) {
      throw new UpstreamError(
        RPC_UPSTREAM,
        `eth_blockNumber failed: ${answer && !answer.ok ? answer.error : 'no block number'}`,
      );
    }
    return answer.result;
  }

  async convert(wstETH: string, view: WstEthView, amounts: readonly bigint[], block: string): Promise<bigint[]> {
    if (amounts.length === 0) return [];
    const to = getAddress(wstETH);
    const outcomes = await callBatch(
      this.rpc,
      amounts.map((a) => ({ method: 'eth_call', params: [{ to, data: WSTETH.encodeFunctionData(view, [a]) }, block] })),
    );
    return outcomes.map((o, k) => {
      if (!o.ok && /revert/i.test(o.error))
        throw new WstEthConversionReverted(`wstETH.${view}(${amounts[k]}) reverted: ${o.error}`);
      if (!o.ok || typeof o.result !== 'string' || o.result === '0x') {
        throw new UpstreamError(
          RPC_UPSTREAM,
          `wstETH ${wstETH}.${view}(${amounts[k]}) failed: ${o.ok ? 'empty answer' : o.error}`,
        );
      }
      return WSTETH.decodeFunctionResult(view, o.result)[0] as bigint;
    });
  }
}
