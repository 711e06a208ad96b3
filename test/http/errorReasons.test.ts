import { errorBody, HttpError, NotConfigured } from '../../src/http/errors';
import { defaultReason, fieldOf, REASONS } from '../../src/http/errorReasons';
import { graphqlReason } from '../../src/graphql/reasonExtensions';

describe('error reasons', () => {
  test.each([
    [400, undefined, 'BAD_REQUEST'],
    [400, 'amount', 'BAD_FIELD'],
    [401, undefined, 'UNAUTHORIZED'],
    [404, undefined, 'NOT_FOUND'],
    [413, undefined, 'BODY_TOO_LARGE'],
    [422, undefined, 'UNPROCESSABLE'],
    [429, undefined, 'RATE_LIMITED'],
    [418, undefined, 'BAD_REQUEST'],
    [500, undefined, 'INTERNAL'],
    [502, undefined, 'UPSTREAM_FAILED'],
    [503, undefined, 'UNAVAILABLE'],
    [504, undefined, 'INTERNAL'],
  ])('status %i (field %s) defaults to %s', (status, field, reason) => {
    expect(defaultReason(status, field)).toBe(reason);
  });

  test('a 400 opening with `<field>: ` names that field; other sentences and statuses name none', () => {
    expect(errorBody(400, 'sellToken: is required (a 20-byte hex address)')).toEqual({
      error: 'sellToken: is required (a 20-byte hex address)',
      code: 400,
      reason: 'BAD_FIELD',
      field: 'sellToken',
    });
    expect(fieldOf('swapOptions.deadline: expected unix seconds')).toBe('swapOptions.deadline');
    expect(errorBody(400, 'malformed JSON body: Unexpected token', { reason: REASONS.MALFORMED_JSON })).toEqual({
      error: 'malformed JSON body: Unexpected token',
      code: 400,
      reason: 'MALFORMED_JSON',
    });
    expect(errorBody(503, 'x-current-block-hash: unknown block').field).toBeUndefined();
  });

  test('a thrower’s reason wins over the status; NotConfigured is NOT_CONFIGURED', () => {
    const noRoute = new HttpError(422, 'no route from A to B', {}, { reason: REASONS.NO_ROUTE });
    expect(errorBody(noRoute.status, noRoute.message, noRoute.info).reason).toBe('NO_ROUTE');
    const off = new NotConfigured('set SERVICE_URL');
    expect(errorBody(off.status, off.message, off.info)).toEqual({
      error: 'set SERVICE_URL',
      code: 503,
      reason: 'NOT_CONFIGURED',
    });
  });

  test.each([
    ['GRAPHQL_PARSE_FAILED', 'Syntax Error: Expected Name', { reason: 'BAD_QUERY' }],
    ['BAD_USER_INPUT', 'first: must be between 1 and 1000', { reason: 'BAD_FIELD', field: 'first' }],
    ['BAD_USER_INPUT', 'first must be between 1 and 1000', { reason: 'BAD_REQUEST' }],
    ['NOT_READY', 'pools of chain 1 are still loading', { reason: 'LOADING' }],
    ['QUERY_TOO_COSTLY', 'query cost 2 exceeds the limit of 1', { reason: 'QUERY_TOO_LARGE' }],
    [undefined, 'Unexpected error.', { reason: 'INTERNAL' }],
  ])('GraphQL code %s gives %j', (code, message, members) => {
    expect(graphqlReason(code, message)).toEqual(members);
  });
});
