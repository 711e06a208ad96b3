import { GraphQLError } from 'graphql';
import { AddressError } from '../domain/address';
import { DecimalError } from '../domain/decimal';
import { reasonMembers } from '../http/errorReasons';
import { HttpError } from '../http/errors';
import { RequestError } from '../routing/requestSchema';
import { BadQueryInput } from './badInput';

/**
 * The errors the current Balancer API's queries answer with. What the client must fix is a
 * GraphQL error with code BAD_USER_INPUT whose message names the argument (as every other
 * resolver's); the routing paths' own refusals keep their meaning: a 503 (the state is not at
 * the block asked, the router took too long) is a GraphQL error answered with that status and
 * its Retry-After, a 422 (no transaction fits the limits) one with code UNPROCESSABLE. Each carries
 * the HTTP body's `reason` (and `field`, `details`) in its extensions.
 */
export function asGraphqlError(e: unknown): unknown {
  if (e instanceof GraphQLError) return e;
  if (e instanceof BadQueryInput || e instanceof AddressError || e instanceof RequestError || e instanceof DecimalError)
    return new GraphQLError(e.message, { extensions: { code: 'BAD_USER_INPUT' } });
  if (e instanceof HttpError) {
    const reason = reasonMembers(e.status, e.message, e.info);
    if (e.status === 400) return new GraphQLError(e.message, { extensions: { code: 'BAD_USER_INPUT', ...reason } });
    if (e.status === 404) return new GraphQLError(e.message, { extensions: { code: 'NOT_FOUND', ...reason } });
    if (e.status === 422) return new GraphQLError(e.message, { extensions: { code: 'UNPROCESSABLE', ...reason } });
    return new GraphQLError(e.message, {
      extensions: {
        code: e.status === 503 ? 'SERVICE_UNAVAILABLE' : 'INTERNAL_SERVER_ERROR',
        ...reason,
        http: { status: e.status, headers: { ...e.headers } },
      },
    });
  }
  return e;
}

/** Runs `fn`, turning the errors above into GraphQL errors. */
export async function answering<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw asGraphqlError(e);
  }
}
