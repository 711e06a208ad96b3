import type { FunctionFragment } from 'ethers';

/**
 * A decoder for the return data of the getters the head follower reads, which return only
 * `uint256`, `bool`, `address` and arrays of them. ethers' general decoder costs about 0.1 ms per
 * answer, and a block that moves 100 pools brings some 700 answers at once on the thread that
 * serves requests; reading 32-byte words directly is a small fraction of that. Other return types
 * (strings, bytes, tuples, fixed arrays) get no decoder: the caller keeps ethers for them.
 */
type Word = 'uint' | 'bool' | 'address';
type Slot = { readonly word: Word; readonly array: boolean };

export type WordDecoder = (data: string) => unknown[] | undefined;

const WORDS: Readonly<Record<string, Word>> = { uint256: 'uint', bool: 'bool', address: 'address' };

function wordAt(data: string, index: number): string | undefined {
  const start = 2 + index * 64;
  return start + 64 <= data.length ? data.slice(start, start + 64) : undefined;
}

function value(word: Word, hex: string): unknown {
  if (word === 'uint') return BigInt(`0x${hex}`);
  // As ethers decodes a bool: any non-zero word is true.
  if (word === 'bool') return BigInt(`0x${hex}`) !== 0n;
  if (!/^0{24}/.test(hex)) throw new RangeError('not an address');
  return `0x${hex.slice(24)}`;
}

/** The decoder for `fn`'s outputs, or undefined when they are not all (arrays of) words. */
export function wordDecoder(fn: FunctionFragment): WordDecoder | undefined {
  const slots: Slot[] = [];
  for (const out of fn.outputs) {
    const array = out.baseType === 'array' && out.arrayLength === -1;
    const word = WORDS[array ? out.arrayChildren!.type : out.type];
    if (
      !word ||
      (out.baseType !== 'array' && out.baseType !== out.type) ||
      (array && out.arrayChildren!.baseType === 'array')
    )
      return undefined;
    slots.push({ word, array });
  }
  return (data) => {
    if (!/^0x[0-9a-fA-F]*$/.test(data) || (data.length - 2) % 64 !== 0) return undefined;
    try {
      return slots.map((slot, i) => {
        const head = wordAt(data, i);
        if (head === undefined) throw new RangeError('short data');
        if (!slot.array) return value(slot.word, head);
        const offset = Number(BigInt(`0x${head}`));
        if (offset % 32 !== 0) throw new RangeError('misaligned offset');
        const at = offset / 32;
        const lengthWord = wordAt(data, at);
        if (lengthWord === undefined) throw new RangeError('short data');
        const length = Number(BigInt(`0x${lengthWord}`));
        if (2 + (at + 1 + length) * 64 > data.length) throw new RangeError('short data');
        return Array.from({ length }, (_, j) => value(slot.word, wordAt(data, at + 1 + j)!));
      });
    } catch {
      return undefined;
    }
  };
}
