import { getAddress } from 'ethers';
import { z } from 'zod';
import { NATIVE_ASSET_ALIASES } from '../config/chains';
import { parseAddress } from '../domain/address';
import { toPlainDecimal } from '../domain/decimal';
import { UINT256_MAX } from './limits';
import type { OrderKind } from './types';

/**
 * Request validation for `/sor` and `/order`. Every failure names the field and says what to send.
 * Unknown fields are ignored (clients send the same body to both endpoints).
 */

export class RequestError extends Error {
  override readonly name: string = 'RequestError';
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const required = (what: string) => (iss: { input: unknown }) =>
  iss.input === undefined
    ? `is required (${what})`
    : `expected ${what}, got ${typeof iss.input === 'number' ? String(iss.input) : JSON.stringify(iss.input)}`;

const address = z
  .string({ error: required('a 20-byte hex address like 0x6b17...1d0f') })
  .regex(ADDRESS, {
    error: (iss) => `expected a 20-byte hex address (0x + 40 hex digits), got ${JSON.stringify(iss.input)}`,
  })
  // Cannot fail after the regex; gives the lower-case, branded form the routes and stores compare.
  .transform((s) => parseAddress(s));

/**
 * A wallet that signs or receives: mixed case must be a valid EIP-55 checksum (a typo in it would
 * otherwise send the tokens elsewhere), and never the zero address or the native-asset marker,
 * which no one can sign for and where tokens are lost.
 */
const party = z
  .string({ error: required('a 20-byte hex address like 0x7099...79c8') })
  .regex(ADDRESS, {
    error: (iss) => `expected a 20-byte hex address (0x + 40 hex digits), got ${JSON.stringify(iss.input)}`,
  })
  .superRefine((s, ctx) => {
    const digits = s.slice(2);
    if (digits !== digits.toLowerCase() && digits !== digits.toUpperCase()) {
      let valid = false;
      try {
        valid = getAddress(s) === s;
      } catch {
        valid = false;
      }
      if (!valid)
        ctx.addIssue({
          code: 'custom',
          message: `${s} is mixed case but not a valid EIP-55 checksum (a mistyped address?); check it, or send it all lower case`,
        });
    }
    if (NATIVE_ASSET_ALIASES.includes(s.toLowerCase())) {
      ctx.addIssue({
        code: 'custom',
        message: `${s} is the ${/^0x0+$/.test(s) ? 'zero address' : 'native-asset marker'}, not a wallet: tokens sent there are lost; send the wallet's own address`,
      });
    }
  })
  .transform((s) => parseAddress(s));

/** An integer of smallest units: a decimal string, or a JSON integer small enough to be exact. */
function uint256(what: string, positive: boolean) {
  const expected = `${positive ? 'a positive' : 'a non-negative'} integer ${what} as a decimal string (at most 2^256-1)`;
  return z.union([z.string(), z.number()], { error: required(expected) }).transform((v, ctx) => {
    if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) {
        ctx.addIssue({
          code: 'custom',
          message: `expected ${expected}; JSON numbers above 2^53 or with fractions lose precision, send "${v}" as a string of digits`,
        });
        return z.NEVER;
      }
      v = String(v);
    }
    if (!/^\d{1,78}$/.test(v)) {
      ctx.addIssue({ code: 'custom', message: `expected ${expected}, got ${JSON.stringify(v)}` });
      return z.NEVER;
    }
    const n = BigInt(v);
    if (n > UINT256_MAX || (positive && n === 0n)) {
      ctx.addIssue({ code: 'custom', message: `expected ${expected}, got ${v}` });
      return z.NEVER;
    }
    return n;
  });
}

/**
 * The block the client needs the answer to include (its own transaction's, or the newest it has
 * seen): a non-negative whole number, as a JSON number or a decimal string.
 */
const minBlockNumber = z
  .union([z.number(), z.string()], { error: required('a block number, a non-negative whole number like 19000000') })
  .transform((v, ctx) => {
    const n = typeof v === 'string' && /^\d{1,16}$/.test(v.trim()) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a block number (a non-negative whole number like 19000000), got ${typeof v === 'number' ? String(v) : JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    return n;
  });

const orderKind = z.enum(['sell', 'buy'], {
  error: required("'sell' (amount is what you pay) or 'buy' (amount is what you get)"),
});

/** Which Balancer Vault routes the order: 2 or 3, as a JSON number or a string of the digit. */
const protocolVersion = z
  .union([z.number(), z.string()], { error: required('2 (Balancer V2) or 3 (Balancer V3)') })
  .transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v.trim();
    if (text === '2' || text === '3') return Number(text) as 2 | 3;
    ctx.addIssue({
      code: 'custom',
      message: `expected 2 (Balancer V2) or 3 (Balancer V3), got ${JSON.stringify(v)}; leave it out for V2 on /sor and the better of both on /order`,
    });
    return z.NEVER;
  });

export const sorBodySchema = z.object(
  {
    sellToken: address,
    buyToken: address,
    orderKind,
    amount: uint256('amount in the smallest unit of the token', true),
    gasPrice: uint256('gas price in wei', false),
    protocolVersion: protocolVersion.optional(),
    minBlockNumber: minBlockNumber.optional(),
  },
  { error: 'expected a JSON object body with sellToken, buyToken, orderKind, amount, gasPrice' },
);

const slippage = z
  .union([z.number(), z.string()], {
    error: required('a number from 0 (inclusive) to 1 (exclusive), e.g. 0.01 for 1%'),
  })
  .transform((v, ctx) => {
    const text = typeof v === 'number' ? String(v) : v.trim();
    let plain: string;
    try {
      plain = toPlainDecimal(text);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `expected a number from 0 to below 1, got ${typeof v === 'number' ? String(v) : JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    if (plain.startsWith('-') || !/^0(\.\d+)?$/.test(plain)) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a number from 0 (inclusive) to 1 (exclusive), e.g. 0.01 for 1%, got ${JSON.stringify(v)}`,
      });
      return z.NEVER;
    }
    return plain;
  });

/** Unix seconds of the year 5138: any deadline from here on is a millisecond value sent by mistake. */
const MAX_DEADLINE = 100_000_000_000;

const deadline = z.union([z.number(), z.string()], { error: required('unix seconds') }).transform((v, ctx) => {
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a unix timestamp in seconds (a positive whole number below ${MAX_DEADLINE}), got ${typeof v === 'number' ? String(v) : JSON.stringify(v)}`,
    });
    return z.NEVER;
  }
  // Milliseconds would make an order that never expires: refuse rather than guess.
  if (n >= MAX_DEADLINE) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a unix timestamp in seconds, got ${n}, which looks like milliseconds (it is at or past ${MAX_DEADLINE}, the year 5138); send Math.floor(ms / 1000)`,
    });
    return z.NEVER;
  }
  return n;
});

export const orderBodySchema = sorBodySchema.extend({
  sender: party,
  receiver: party.optional(),
  recipient: party.optional(),
  slippagePercentage: slippage.optional(),
  deadline: deadline.optional(),
});

export interface SorBody {
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: OrderKind;
  readonly amount: bigint;
  readonly gasPrice: bigint;
  /** The Vault asked for; absent: V2 for `/sor`, the better of both for `/order`. */
  readonly protocolVersion?: 2 | 3;
  /** Answer from a state at this block or later (wait for it, or refuse). */
  readonly minBlockNumber?: number;
}

export interface OrderBody extends SorBody {
  readonly sender: string;
  readonly receiver: string;
  readonly slippage: string;
  readonly deadline: number | undefined;
}

export const DEFAULT_SLIPPAGE = '0.01';

function parseWith<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.');
    throw new RequestError(field ? `${field}: ${issue.message}` : issue.message);
  }
  return parsed.data;
}

function checkPair(b: { sellToken: string; buyToken: string }): void {
  if (b.sellToken === b.buyToken)
    throw new RequestError(`buyToken: must differ from sellToken (both are ${b.sellToken})`);
}

export function parseSorBody(body: unknown): SorBody {
  const { protocolVersion, ...b } = parseWith(sorBodySchema, body);
  checkPair(b);
  return protocolVersion !== undefined ? { ...b, protocolVersion } : b;
}

export function parseOrderBody(body: unknown): OrderBody {
  const b = parseWith(orderBodySchema, body);
  checkPair(b);
  if (b.receiver !== undefined && b.recipient !== undefined && b.receiver !== b.recipient) {
    throw new RequestError('receiver: differs from recipient (its alias); send one of them');
  }
  return {
    sellToken: b.sellToken,
    buyToken: b.buyToken,
    orderKind: b.orderKind,
    amount: b.amount,
    gasPrice: b.gasPrice,
    ...(b.protocolVersion !== undefined ? { protocolVersion: b.protocolVersion } : {}),
    ...(b.minBlockNumber !== undefined ? { minBlockNumber: b.minBlockNumber } : {}),
    sender: b.sender,
    receiver: b.receiver ?? b.recipient ?? b.sender,
    slippage: b.slippagePercentage ?? DEFAULT_SLIPPAGE,
    deadline: b.deadline,
  };
}

/** `?minLiquidity=` (USD): a non-negative number; absent -> the configured default. */
export function parseMinLiquidity(raw: unknown, fallback: number): number {
  if (raw === undefined) return fallback;
  const text = typeof raw === 'string' ? raw.trim() : '';
  const n = Number(text);
  if (text === '' || !/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(n)) {
    throw new RequestError(
      `minLiquidity: expected a non-negative number of USD (e.g. 100), got ${JSON.stringify(raw)}`,
    );
  }
  return n;
}
