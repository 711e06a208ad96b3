import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { fieldOf, REASONS, type Reason } from '../http/errorReasons';

/**
 * Every GraphQL error carries the HTTP bodies' stable `reason` in its extensions (and `field` when
 * an argument is at fault), derived here from its `code` when the thrower set none, so that the
 * parser's, the validators' and each resolver's errors need no edit of their own.
 */
const BY_CODE: Readonly<Record<string, Reason>> = {
  GRAPHQL_PARSE_FAILED: REASONS.BAD_QUERY,
  GRAPHQL_VALIDATION_FAILED: REASONS.BAD_QUERY,
  BAD_REQUEST: REASONS.BAD_REQUEST,
  CHAIN_NOT_ENABLED: REASONS.CHAIN_NOT_ENABLED,
  NOT_READY: REASONS.LOADING,
  NOT_FOUND: REASONS.NOT_FOUND,
  UNPROCESSABLE: REASONS.UNPROCESSABLE,
  QUERY_TOO_DEEP: REASONS.QUERY_TOO_LARGE,
  QUERY_TOO_LARGE: REASONS.QUERY_TOO_LARGE,
  QUERY_TOO_COSTLY: REASONS.QUERY_TOO_LARGE,
  RESPONSE_TOO_LARGE: REASONS.RESPONSE_TOO_LARGE,
  SERVICE_UNAVAILABLE: REASONS.UNAVAILABLE,
};

/** The reason members for an error whose extensions name none. */
export function graphqlReason(code: unknown, message: string): { reason: Reason; field?: string } {
  if (code === 'BAD_USER_INPUT' || code === 'CHAIN_NOT_ENABLED') {
    const field = fieldOf(message);
    const reason =
      code === 'CHAIN_NOT_ENABLED' ? REASONS.CHAIN_NOT_ENABLED : field ? REASONS.BAD_FIELD : REASONS.BAD_REQUEST;
    return { reason, ...(field !== undefined && { field }) };
  }
  return { reason: (typeof code === 'string' && BY_CODE[code]) || REASONS.INTERNAL };
}

function withReason(error: GraphQLError): GraphQLError {
  if (!(error instanceof GraphQLError) || error.extensions['reason'] !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes ?? null,
    source: error.source ?? null,
    positions: error.positions ?? null,
    path: error.path ?? null,
    originalError: error.originalError ?? null,
    extensions: { ...error.extensions, ...graphqlReason(error.extensions['code'], error.message) },
  });
}

export function useReasonExtensions(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Symbol.asyncIterator in result) return;
      const results = Array.isArray(result) ? result : [result];
      const next = results.map((r) =>
        r.errors ? { ...r, errors: r.errors.map((e) => withReason(e as GraphQLError)) } : r,
      );
      setResult(Array.isArray(result) ? next : next[0]!);
    },
  };
}
