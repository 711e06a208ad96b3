import type { FunctionFragment } from 'ethers';
import type { AbiArg, AbiInput, AbiValue, AbiWord, UintAddressBool } from '../../domain/poolTypes/chainReads';

/**
 * A decoder for the return data of the getters the head follower reads, which return only
 * `uint256`, `int256`, `bool`, `address` and dynamic arrays of them (`AbiWord`), maybe in one struct. ethers'
 * general decoder costs about 0.1 ms per answer, and a block that moves 100 pools brings some 700
 * answers at once on the thread that serves requests; reading 32-byte words directly is a small
 * fraction of that. Addresses come out in lower case.
 */

/** `checked`: the caller has checked that `data` is hex in whole bytes (a long answer's check costs microseconds). */
export type WordDecoder = (data: string, checked?: boolean) => AbiValue[] | undefined;

function wordAt(data: string, index: number): string | undefined {
  const start = 2 + index * 64;
  return start + 64 <= data.length ? data.slice(start, start + 64) : undefined;
}

const uint = (hex: string): bigint => BigInt(`0x${hex}`);
/** Two's complement. */
const int = (hex: string): bigint => BigInt.asIntN(256, uint(hex));

const ADDRESS_PAD = '0'.repeat(24);

function address(hex: string): string {
  if (!hex.startsWith(ADDRESS_PAD)) throw new RangeError('not an address');
  return `0x${hex.slice(24)}`.toLowerCase();
}

/** A word that holds an offset or a length, as a number (one past 2^53 is no offset: `Infinity`). */
function small(hex: string): number {
  return hex.startsWith(SMALL_PAD) ? parseInt(hex.slice(51), 16) : Infinity;
}
const SMALL_PAD = '0'.repeat(51);

/**
 * The words of the dynamic array whose offset is in `head`, `width` words per element (a static
 * struct's fields are inline).
 */
function arrayWords(data: string, head: string, width = 1): string[] {
  const offset = small(head);
  if (offset % 32 !== 0) throw new RangeError('misaligned offset');
  const at = offset / 32;
  const lengthWord = wordAt(data, at);
  if (lengthWord === undefined) throw new RangeError('short data');
  const length = small(lengthWord) * width;
  if (2 + (at + 1 + length) * 64 > data.length) throw new RangeError('short data');
  const out = new Array<string>(length);
  for (let j = 0; j < length; j++) out[j] = data.slice(2 + (at + 1 + j) * 64, 2 + (at + 2 + j) * 64);
  return out;
}

function uintAddressBools(data: string, head: string): UintAddressBool[] {
  const words = arrayWords(data, head, 3);
  const out: UintAddressBool[] = [];
  for (let j = 0; j < words.length; j += 3)
    out.push([uint(words[j]!), address(words[j + 1]!), uint(words[j + 2]!) !== 0n]);
  return out;
}

function valueOf(type: AbiWord, data: string, head: string): AbiValue {
  switch (type) {
    case 'uint256':
      return uint(head);
    case 'int256':
      return int(head);
    // As ethers decodes a bool: any non-zero word is true.
    case 'bool':
      return uint(head) !== 0n;
    case 'address':
      return address(head);
    case 'uint256[]':
      return arrayWords(data, head).map(uint);
    case 'int256[]':
      return arrayWords(data, head).map(int);
    case 'address[]':
      return arrayWords(data, head).map(address);
    case '(uint256,address,bool)[]':
      return uintAddressBools(data, head);
  }
}

/**
 * The decoder of an answer made of `types`: undefined for data that is not such an answer. With
 * `struct`, the answer is one struct holding an array: its offset, then the fields `types`, whose
 * own offsets count from the struct's start.
 */
export function wordsDecoder(types: readonly AbiWord[], struct = false): WordDecoder {
  return (data, checked = false) => {
    if ((data.length - 2) % 64 !== 0 || (!checked && !/^0x[0-9a-fA-F]*$/.test(data))) return undefined;
    if (!struct) return decodeFields(types, data);
    const head = wordAt(data, 0);
    if (head === undefined) return undefined;
    const offset = uint(head);
    if (offset % 32n !== 0n || offset * 2n > BigInt(data.length - 2)) return undefined;
    return decodeFields(types, `0x${data.slice(2 + Number(offset) * 2)}`);
  };
}

function decodeFields(types: readonly AbiWord[], data: string): AbiValue[] | undefined {
  if (2 + types.length * 64 > data.length) return undefined;
  const out = new Array<AbiValue>(types.length);
  try {
    for (let i = 0; i < types.length; i++) out[i] = valueOf(types[i]!, data, data.slice(2 + i * 64, 66 + i * 64));
  } catch {
    return undefined;
  }
  return out;
}

const WORDS: ReadonlySet<string> = new Set<AbiWord>(['uint256', 'bool', 'address', 'uint256[]', 'address[]']);
const isWord = (type: string): type is AbiWord => WORDS.has(type);

/** The decoder for `fn`'s outputs, or undefined when they are not all `AbiWord`s. */
export function wordDecoder(fn: FunctionFragment): WordDecoder | undefined {
  const types: AbiWord[] = [];
  for (const out of fn.outputs) {
    if (!isWord(out.type)) return undefined;
    types.push(out.type);
  }
  return wordsDecoder(types);
}

/**
 * Arguments of one-word types (`uint256`, `uint8`, `address`, `bytes32`) encoded directly, or
 * undefined for any other (a `uint256[]`) or a value that does not fit its type: ethers' general
 * encoder then (it checksums every address with a keccak, which a cold start's 100,000 calls pay).
 */
export function encodedWords(inputs: readonly AbiInput[], args: readonly AbiArg[]): string | undefined {
  if (inputs.length !== args.length) return undefined;
  let out = '';
  for (let i = 0; i < inputs.length; i++) {
    const type = inputs[i]!;
    const arg = args[i]!;
    if (type === 'address' || type === 'bytes32') {
      const width = type === 'address' ? 40 : 64;
      if (typeof arg !== 'string' || arg.length !== width + 2 || !/^0x[0-9a-fA-F]*$/.test(arg)) return undefined;
      out += arg.slice(2).toLowerCase().padStart(64, '0');
    } else if (type === 'uint256' || type === 'uint8') {
      if (typeof arg !== 'bigint' && typeof arg !== 'number') return undefined;
      const n = BigInt(arg);
      if (n < 0n || n >= (type === 'uint8' ? 256n : 2n ** 256n)) return undefined;
      out += n.toString(16).padStart(64, '0');
    } else return undefined;
  }
  return out;
}
