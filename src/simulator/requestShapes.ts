import { z } from 'zod';

/**
 * What callers may send through to the simulator. Only these fields are forwarded (so the service
 * cannot be used to reach other provider features with our key); any other field is refused by
 * name. Types are checked loosely: the provider validates semantics itself.
 */
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'expected a 0x-prefixed hex string');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected an address (0x followed by 40 hex digits)');
const integerish = z.union([z.number().int().nonnegative(), z.string().regex(/^(0x[0-9a-fA-F]+|\d+)$/, 'expected an integer or a 0x hex quantity')]);
const plainObject = z.record(z.string(), z.unknown());

export const ENCODE_STATES_FIELDS = ['networkID', 'stateOverrides'] as const;
export const SIMULATE_FIELDS = [
  'network_id', 'from', 'to', 'input', 'gas', 'gas_price', 'value', 'state_objects', 'save', 'save_if_fails', 'simulation_type', 'block_number',
] as const;

export const encodeStatesBody = z.strictObject({
  networkID: integerish,
  stateOverrides: plainObject,
});

export const simulateBody = z.strictObject({
  network_id: integerish,
  from: address,
  to: address,
  input: hex.optional(),
  gas: integerish.optional(),
  gas_price: integerish.optional(),
  value: integerish.optional(),
  state_objects: plainObject.optional(),
  save: z.boolean().optional(),
  save_if_fails: z.boolean().optional(),
  simulation_type: z.enum(['full', 'quick', 'abi']).optional(),
  block_number: z.union([integerish, z.null()]).optional(),
});

export type ParsedBody = { ok: true; body: Record<string, unknown> } | { ok: false; error: string };

/** Validates a pass-through body: present, a JSON object, allow-listed fields, plausible types. */
export function parsePassThroughBody(
  schema: typeof encodeStatesBody | typeof simulateBody,
  allowed: readonly string[],
  what: string,
  raw: unknown,
): ParsedBody {
  if (raw === undefined || raw === null || (typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).length === 0)) {
    return { ok: false, error: `missing body: send a JSON object with the ${what} fields (${allowed.join(', ')}) and Content-Type: application/json` };
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, error: `body: expected a JSON object with the ${what} fields (${allowed.join(', ')})` };
  // Unknown fields first, so the caller learns every forbidden name before fixing types.
  const unknown = Object.keys(raw).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    return { ok: false, error: `field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')} not allowed in a ${what} body; allowed: ${allowed.join(', ')}` };
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.length ? issue.path.join('.') : 'body';
    return { ok: false, error: `${field}: ${issue?.code === 'invalid_type' && issue.input === undefined ? 'missing' : issue?.message ?? 'invalid'}` };
  }
  return { ok: true, body: parsed.data as Record<string, unknown> };
}
