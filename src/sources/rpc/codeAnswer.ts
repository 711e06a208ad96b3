import { UpstreamError } from '../upstream';
import { MalformedAnswerError, RPC_UPSTREAM, type RpcOutcome } from './jsonRpc';

/**
 * The code an `eth_getCode` answer holds (`0x` where no contract is): a failed call is the node's
 * fault, anything but hex bytes a lying answer. One check for every caller that asks whether an
 * address is a contract (Multicall3 itself, a getter's target).
 */
export function codeOf(outcome: RpcOutcome | undefined, address: string, block: string): string {
  if (!outcome?.ok)
    throw new UpstreamError(
      RPC_UPSTREAM,
      `eth_getCode ${address} at block ${block} failed: ${outcome?.error ?? 'no answer'}`,
    );
  if (typeof outcome.result !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(outcome.result))
    throw new MalformedAnswerError(`eth_getCode ${address} at block ${block} answered something other than code`);
  return outcome.result;
}
