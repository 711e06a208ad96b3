/**
 * The simulate answer the service passes back: the call's return data and whether the simulated
 * transaction succeeded. Everything else in the provider's answer (traces, state diffs, logs,
 * account and project details) stays with us.
 */
export interface TrimmedSimulation {
  readonly transaction: {
    readonly status: boolean | null;
    readonly transaction_info: { readonly call_trace: { readonly output: string | null } };
  };
  readonly simulation: { readonly status: boolean | null };
}

const pick = (o: unknown, key: string): unknown =>
  typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined;
const asBool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

export function trimSimulation(answer: unknown): TrimmedSimulation {
  const transaction = pick(answer, 'transaction');
  const output = pick(pick(pick(transaction, 'transaction_info'), 'call_trace'), 'output');
  return {
    transaction: {
      status: asBool(pick(transaction, 'status')),
      transaction_info: { call_trace: { output: typeof output === 'string' ? output : null } },
    },
    simulation: { status: asBool(pick(pick(answer, 'simulation'), 'status')) },
  };
}
