/**
 * The stable, machine-readable `reason` every error body carries beside its `error` sentence, the
 * one list of them (docs/api.md, "Errors", explains each). A client matches on `reason`, never on
 * the sentence, which may be reworded. A reason once published is never renamed or reused.
 */
export const REASONS = {
  /** 400: a named field (`field`) is missing or wrong. */
  BAD_FIELD: 'BAD_FIELD',
  /** 400: the request is malformed in a way no single field explains. */
  BAD_REQUEST: 'BAD_REQUEST',
  MALFORMED_JSON: 'MALFORMED_JSON',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CHAIN_NOT_ENABLED: 'CHAIN_NOT_ENABLED',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_ALLOWED',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  EXPECTATION_FAILED: 'EXPECTATION_FAILED',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  /** 422: no path between the tokens carries the order. */
  NO_ROUTE: 'NO_ROUTE',
  /**
   * 422: a quoted amount does not fit a limit of the transaction (int256, Permit2's 160 bits). A guard:
   * the routes keep amounts within the Vaults' balances, so no order is expected to meet it.
   */
  LIMIT_NOT_MET: 'LIMIT_NOT_MET',
  /** 422: the order is well formed but cannot be served as asked (the sentence says why). */
  UNPROCESSABLE: 'UNPROCESSABLE',
  RATE_LIMITED: 'RATE_LIMITED',
  INTERNAL: 'INTERNAL',
  UPSTREAM_FAILED: 'UPSTREAM_FAILED',
  /** 503: the followed state has not reached the block asked for yet. */
  STATE_BEHIND_HEAD: 'STATE_BEHIND_HEAD',
  /** 503: the chain's node is down or stuck, so the state is too old to build on. */
  STALE_STATE: 'STALE_STATE',
  QUOTE_TIMEOUT: 'QUOTE_TIMEOUT',
  /** 503: the chain's pools are not loaded yet (a guard: the service listens only once they are). */
  LOADING: 'LOADING',
  NOT_CONFIGURED: 'NOT_CONFIGURED',
  JOB_RUNNING: 'JOB_RUNNING',
  /** 503: a temporary refusal no other reason names. */
  UNAVAILABLE: 'UNAVAILABLE',
  /** GraphQL: the query text does not parse or validate against the schema. */
  BAD_QUERY: 'BAD_QUERY',
  /** GraphQL: the query is over a size, depth or cost limit. */
  QUERY_TOO_LARGE: 'QUERY_TOO_LARGE',
  /** GraphQL: the answer would be over the response size limit. */
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
} as const;

export type Reason = (typeof REASONS)[keyof typeof REASONS];

/** What an error adds to its sentence: its reason, the field at fault, and facts that help. */
export interface ErrorInfo {
  readonly reason?: Reason;
  readonly field?: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

const BY_STATUS: Readonly<Record<number, Reason>> = {
  400: REASONS.BAD_REQUEST,
  401: REASONS.UNAUTHORIZED,
  403: REASONS.FORBIDDEN,
  404: REASONS.NOT_FOUND,
  405: REASONS.METHOD_NOT_ALLOWED,
  408: REASONS.REQUEST_TIMEOUT,
  413: REASONS.BODY_TOO_LARGE,
  415: REASONS.UNSUPPORTED_MEDIA_TYPE,
  417: REASONS.EXPECTATION_FAILED,
  422: REASONS.UNPROCESSABLE,
  429: REASONS.RATE_LIMITED,
  431: REASONS.HEADERS_TOO_LARGE,
  500: REASONS.INTERNAL,
  502: REASONS.UPSTREAM_FAILED,
  503: REASONS.UNAVAILABLE,
};

/** The reason of an error whose thrower named none: its status's, or `BAD_FIELD` for a field. */
export function defaultReason(status: number, field?: string): Reason {
  if (status === 400 && field !== undefined) return REASONS.BAD_FIELD;
  return BY_STATUS[status] ?? (status < 500 ? REASONS.BAD_REQUEST : REASONS.INTERNAL);
}

/**
 * The field a 400's sentence names: request validation writes `<field>: <what is wrong>`, so a
 * sentence that opens with one identifier (dots and brackets for a nested one) and a colon names it.
 */
export function fieldOf(message: string): string | undefined {
  return /^([A-Za-z_][\w.[\]-]*): /.exec(message)?.[1];
}

/** The `reason`, `field` and `details` members of an error body, without the absent ones. */
export function reasonMembers(
  status: number,
  message: string,
  info: ErrorInfo = {},
): { reason: Reason; field?: string; details?: Readonly<Record<string, unknown>> } {
  const derive = status === 400 && (info.reason ?? REASONS.BAD_FIELD) === REASONS.BAD_FIELD;
  const field = info.field ?? (derive ? fieldOf(message) : undefined);
  return {
    reason: info.reason ?? defaultReason(status, field),
    ...(field !== undefined && { field }),
    ...(info.details !== undefined && { details: info.details }),
  };
}
