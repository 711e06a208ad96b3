/**
 * A query argument the client must fix. Pure modules throw it; the resolvers turn it into a
 * GraphQL error with code BAD_USER_INPUT whose message names the argument and the fix.
 */
export class BadQueryInput extends Error {
  override readonly name: string = 'BadQueryInput';
}
