import { GraphQLError } from 'graphql';

/**
 * The parser recurses once per nested `{`, `[` or `(`; a query nested a few thousand levels deep
 * overflows its stack. Counting the brackets on the raw text first (outside strings and comments)
 * refuses such a query as the client's mistake before it reaches the parser. Legitimate queries
 * stay far below: the field depth limit is 10, and arguments add a few levels.
 */
export const MAX_QUERY_NESTING = 64;

export function queryNesting(source: string, stopAbove = MAX_QUERY_NESTING): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '#') {
      while (i < source.length && source[i] !== '\n' && source[i] !== '\r') i++;
    } else if (c === '"') {
      if (source.startsWith('"""', i)) {
        const end = source.indexOf('"""', i + 3);
        i = end < 0 ? source.length : end + 2;
      } else {
        for (i++; i < source.length && source[i] !== '"' && source[i] !== '\n'; i++) if (source[i] === '\\') i++;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      depth++;
      if (depth > max) max = depth;
      if (max > stopAbove) return max;
    } else if (c === '}' || c === ']' || c === ')') {
      depth--;
    }
  }
  return max;
}

/** A 400 GraphQL error for a query nested past the limit, or undefined when it is within it. */
export function tooDeeplyNested(source: string): GraphQLError | undefined {
  if (queryNesting(source) <= MAX_QUERY_NESTING) return undefined;
  return new GraphQLError(
    `query is nested more than ${MAX_QUERY_NESTING} levels deep ({, [ or (); queries may nest at most 10 fields, so send a flatter query`,
    { extensions: { code: 'QUERY_TOO_DEEP', http: { status: 400 } } },
  );
}
