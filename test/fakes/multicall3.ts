import { Interface } from 'ethers';
import { MULTICALL3_ADDRESS } from '../../src/config/chains';

/**
 * Multicall3 as the fakes speak it: an `eth_call` of `aggregate3` to the canonical address is
 * opened into its inner calls, each answered as a plain `eth_call` would be, and the answers
 * encoded back; `getBlockNumber()` answers the block the fake answered from. Written apart from
 * the service's codec (`src/sources/rpc/multicall.ts`): the calldata is read by following its
 * offsets, as the contract does, not by assuming the layout (ethers' general coder checks both in
 * test/sources/rpc/multicall.test.ts; it takes seconds for a thousand calls, too slow for a fake node).
 */
export const MULTICALL3 = MULTICALL3_ADDRESS;
export const MULTICALL3_ABI = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
  'function getBlockNumber() view returns (uint256 blockNumber)',
]);
const AGGREGATE3 = MULTICALL3_ABI.getFunction('aggregate3')!.selector;
const GET_BLOCK_NUMBER = MULTICALL3_ABI.getFunction('getBlockNumber')!.selector;
const ERROR_STRING = new Interface(['function Error(string)']);

export interface InnerCall {
  readonly to: string;
  readonly data: string;
}

/** The inner calls of an `eth_call` of `aggregate3` to Multicall3, or undefined for any other call. */
export function innerCalls(call: { to?: unknown; data?: unknown }): InnerCall[] | undefined {
  if (typeof call.to !== 'string' || call.to.toLowerCase() !== MULTICALL3) return undefined;
  if (typeof call.data !== 'string' || !call.data.startsWith(AGGREGATE3)) return undefined;
  const hex = call.data.slice(10);
  const at = (byte: number) => wordAt(hex, byte);
  const array = at(0);
  const n = at(array);
  const base = array + 32;
  return Array.from({ length: n }, (_, i) => {
    const tuple = base + at(base + i * 32);
    const bytes = tuple + at(tuple + 64);
    const length = at(bytes);
    return {
      to: `0x${hex.slice(tuple * 2 + 24, tuple * 2 + 64)}`.toLowerCase(),
      data: `0x${hex.slice((bytes + 32) * 2, (bytes + 32 + length) * 2)}`,
    };
  });
}

const HIGH_ZEROS = '0'.repeat(48);

/**
 * The word at `byte` as a number: an offset or a length, which the contract would not follow past
 * 2^64 (a word with its high bytes set is out of range, as `Infinity` then says).
 */
function wordAt(hex: string, byte: number): number {
  if (!hex.startsWith(HIGH_ZEROS, byte * 2)) return Infinity;
  return parseInt(hex.slice(byte * 2 + 48, byte * 2 + 64), 16);
}

/** `aggregate3`'s return data read back, by following its offsets. */
export function decodeResults(result: string): [boolean, string][] {
  const hex = result.slice(2);
  const at = (byte: number) => Number(BigInt(`0x${hex.slice(byte * 2, byte * 2 + 64)}`));
  const array = at(0);
  const base = array + 32;
  return Array.from({ length: at(array) }, (_, i): [boolean, string] => {
    const tuple = base + at(base + i * 32);
    const bytes = tuple + at(tuple + 32);
    return [at(tuple) !== 0, `0x${hex.slice((bytes + 32) * 2, (bytes + 32 + at(bytes)) * 2)}`];
  });
}

const word = (n: number) => n.toString(16).padStart(64, '0');

/** `aggregate3`'s return data: `(bool success, bytes returnData)[]`, ABI-encoded. */
export function encodeResults(results: readonly (readonly [boolean, string])[]): string {
  const heads = new Array<string>(results.length);
  const tails = new Array<string>(results.length);
  let offset = results.length * 32;
  for (let i = 0; i < results.length; i++) {
    const [success, data] = results[i]!;
    heads[i] = word(offset);
    const chars = data.length - 2;
    const pad = (64 - (chars % 64)) % 64;
    tails[i] = (success ? WORD_1 : WORD_0) + WORD_64 + word(chars / 2) + data.slice(2) + ZEROS.slice(0, pad);
    offset += 96 + (chars + pad) / 2;
  }
  return `0x${word(32)}${word(results.length)}${heads.join('')}${tails.join('')}`;
}
const ZEROS = '0'.repeat(64);
const WORD_0 = word(0);
const WORD_1 = word(1);
const WORD_64 = word(64);

export const isGetBlockNumber = (c: InnerCall) => c.to === MULTICALL3 && c.data === GET_BLOCK_NUMBER;

export const encodeBlockNumber = (n: number) => MULTICALL3_ABI.encodeFunctionResult('getBlockNumber', [n]);

/** A JSON-RPC answer to one call, as a fake node gives it. */
export type FakeAnswer = { result: unknown } | { error: { code: number; message: string; data?: string } };

/**
 * `aggregate3`'s answer from each inner call's own (already answered, in order; undefined: left
 * out of the answer by a lying node): a result is a success with that return data, a revert
 * (code 3) a failure with its revert data (a reason in the message becomes `Error(string)`). Any
 * other error, or a result that is not hex data (null), is the whole aggregate's answer, as a
 * node's failure or a lie about the call as a whole.
 */
export function aggregateAnswer(answers: readonly (FakeAnswer | undefined)[]): FakeAnswer {
  const results: [boolean, string][] = [];
  for (const a of answers) {
    if (a === undefined) continue;
    if ('error' in a) {
      if (a.error.code !== 3) return a;
      const reason = /revert(?:ed)?:\s*(.+)$/.exec(a.error.message)?.[1];
      results.push([false, a.error.data ?? (reason ? ERROR_STRING.encodeFunctionData('Error', [reason]) : '0x')]);
      continue;
    }
    if (typeof a.result !== 'string' || a.result.length % 2 !== 0 || !/^0x[0-9a-fA-F]*$/.test(a.result)) return a;
    results.push([true, a.result]);
  }
  return { result: encodeResults(results) };
}

/** Each of `list` under its neighbour's place: every call answered with the one before it's. */
export function rotated<T>(list: readonly T[]): T[] {
  return list.length > 1 ? list.map((_a, k) => list[(k + list.length - 1) % list.length]!) : [...list];
}
