import { z } from 'zod';

/**
 * What callers may send through to the simulator. Only these fields are forwarded (so the service
 * cannot be used to reach other provider features with our key); any other field is refused by
 * name. Types are checked loosely (the provider validates semantics itself), but every number is
 * checked to be a non-negative integer within uint256, which the provider would refuse otherwise.
 */
const UINT256_MAX = (1n << 256n) - 1n;

/** A non-negative integer within uint256: a JSON number (safe integer), a decimal string or a 0x quantity. */
const uint256 = z.union([z.number(), z.string()]).refine((v) => {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0;
  return /^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/.test(v) && BigInt(v) <= UINT256_MAX;
});
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const plainObject = z.record(z.string(), z.unknown());

const UINT =
  'a non-negative integer within uint256 (a JSON number up to 2^53 - 1, a decimal string or a 0x hex quantity)';

/** What each field must be, as the 400 says it. */
const EXPECTED: Readonly<Record<string, string>> = {
  networkID: 'a chain id (a JSON number, a decimal string or a 0x hex quantity)',
  network_id: 'a chain id (a JSON number, a decimal string or a 0x hex quantity)',
  stateOverrides: 'a JSON object keyed by contract address',
  from: 'a 0x-prefixed 20-byte address (0x followed by 40 hex digits)',
  to: 'a 0x-prefixed 20-byte address (0x followed by 40 hex digits)',
  input: 'a 0x-prefixed hex string (the calldata)',
  gas: UINT,
  gas_price: UINT,
  value: UINT,
  state_objects: 'a JSON object keyed by contract address',
  save: 'true or false',
  save_if_fails: 'true or false',
  simulation_type: '"full", "quick" or "abi"',
  block_number: `null or ${UINT}`,
};

export const ENCODE_STATES_FIELDS = ['networkID', 'stateOverrides'] as const;
export const SIMULATE_FIELDS = [
  'network_id',
  'from',
  'to',
  'input',
  'gas',
  'gas_price',
  'value',
  'state_objects',
  'save',
  'save_if_fails',
  'simulation_type',
  'block_number',
] as const;

export const encodeStatesBody = z.strictObject({
  networkID: uint256,
  stateOverrides: plainObject,
});

export const simulateBody = z.strictObject({
  network_id: uint256,
  from: address,
  to: address,
  input: hex.optional(),
  gas: uint256.optional(),
  gas_price: uint256.optional(),
  value: uint256.optional(),
  state_objects: plainObject.optional(),
  save: z.boolean().optional(),
  save_if_fails: z.boolean().optional(),
  simulation_type: z.enum(['full', 'quick', 'abi']).optional(),
  block_number: z.union([uint256, z.null()]).optional(),
});

export type ParsedBody = { ok: true; body: Record<string, unknown> } | { ok: false; error: string };

/** A sent value as the 400 quotes it: JSON, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Validates a pass-through body: present, a JSON object, allow-listed fields, plausible types. */
export function parsePassThroughBody(
  schema: typeof encodeStatesBody | typeof simulateBody,
  allowed: readonly string[],
  what: string,
  raw: unknown,
): ParsedBody {
  if (
    raw === undefined ||
    raw === null ||
    (typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length === 0)
  ) {
    const got = raw === undefined ? 'no body' : shown(raw);
    return {
      ok: false,
      error: `missing body: send a JSON object with the ${what} fields (${allowed.join(', ')}) and Content-Type: application/json; got ${got}`,
    };
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return {
      ok: false,
      error: `body: expected a JSON object with the ${what} fields (${allowed.join(', ')}), got ${Array.isArray(raw) ? 'an array' : shown(raw)}`,
    };
  }
  // Unknown fields first, so the caller learns every forbidden name before fixing types.
  const unknown = Object.keys(raw).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    return {
      ok: false,
      error: `field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')} not allowed in a ${what} body; allowed: ${allowed.join(', ')}`,
    };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? 'body');
    const expected = EXPECTED[field] ?? 'a valid value';
    const value = (raw as Record<string, unknown>)[field];
    if (value === undefined) return { ok: false, error: `${field}: missing; expected ${expected}` };
    return { ok: false, error: `${field}: expected ${expected}, got ${shown(value)}` };
  }
  return { ok: true, body: parsed.data as Record<string, unknown> };
}
