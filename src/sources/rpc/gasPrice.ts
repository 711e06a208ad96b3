import { UpstreamError } from '../upstream';
import { callBatch, RPC_UPSTREAM, type JsonRpcOptions } from './jsonRpc';

/**
 * The chain's gas price (`eth_gasPrice`, wei), asked at most once per `ttlMs` and shared by every
 * caller meanwhile: what weighs the gas of a route's swaps where the request names no gas price
 * (GraphQL's `sorGetSwapPaths`, whose choice between the Vaults is after gas).
 */
export class GasPriceReader {
  private last: { readonly at: number; readonly price: Promise<bigint> } | undefined;

  constructor(
    private readonly rpc: JsonRpcOptions,
    private readonly now: () => number,
    private readonly ttlMs = 10_000,
  ) {}

  read(): Promise<bigint> {
    const at = this.now();
    if (this.last && at - this.last.at < this.ttlMs) return this.last.price;
    const price = this.ask();
    this.last = { at, price };
    price.catch(() => {
      if (this.last?.price === price) this.last = undefined;
    });
    return price;
  }

  private async ask(): Promise<bigint> {
    const [answer] = await callBatch(this.rpc, [{ method: 'eth_gasPrice', params: [] }]);
    if (!answer?.ok || typeof answer.result !== 'string' || !/^0x[0-9a-f]+$/i.test(answer.result))
      throw new UpstreamError(
        RPC_UPSTREAM,
        `eth_gasPrice failed: ${answer && !answer.ok ? answer.error : 'no gas price in the answer'}`,
      );
    return BigInt(answer.result);
  }
}
