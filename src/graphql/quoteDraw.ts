import { GraphQLError, Kind, type DocumentNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { REASONS } from '../http/errorReasons';
import { quoteBudgetKey } from '../http/quoteBudget';
import type { GraphqlContext } from './requestContext';

const QUOTE_FIELD = 'sorGetSwapPaths';

/**
 * How many route searches the operation asks: its root `sorGetSwapPaths` fields, each alias one,
 * through inline fragments and fragment spreads too.
 */
export function quoteFieldCount(document: DocumentNode, operationName?: string | null): number {
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation || operation.operation !== 'query') return 0;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const spread = new Set<string>();
  const count = (set: SelectionSetNode): number => {
    let n = 0;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) n += s.name.value === QUOTE_FIELD ? 1 : 0;
      else if (s.kind === Kind.INLINE_FRAGMENT) n += count(s.selectionSet);
      else {
        const fragment = fragments.get(s.name.value);
        // A fragment spread twice at the root merges into the same fields: count it once.
        if (!fragment || spread.has(s.name.value)) continue;
        spread.add(s.name.value);
        n += count(fragment.selectionSet);
      }
    }
    return n;
  };
  return count(operation.selectionSet);
}

/**
 * Each `sorGetSwapPaths` draws a quote from the client's quote budget (`http/quoteBudget.ts`),
 * before any is computed; over it, the request is a 429 with `Retry-After` and computes none.
 */
export function useQuoteBudget(): Plugin {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as unknown as GraphqlContext & { req?: { ip?: string } };
      const budget = context.app.state.get(quoteBudgetKey).current;
      if (!budget) return;
      const quotes = quoteFieldCount(args.document, args.operationName);
      if (quotes === 0) return;
      const retryAfter = await budget.draw(context.req?.ip, quotes);
      if (retryAfter === undefined) return;
      setResultAndStopExecution({
        errors: [
          new GraphQLError(
            `too many quote requests from your address (limit ${budget.perMinute} per minute, each ${QUOTE_FIELD} one; this asked ${quotes}); retry after ${retryAfter} s`,
            {
              extensions: {
                code: 'RATE_LIMITED',
                reason: REASONS.RATE_LIMITED,
                details: { limitPerMinute: budget.perMinute, quotesAsked: quotes, retryAfterSeconds: retryAfter },
                http: { status: 429, headers: { 'Retry-After': String(retryAfter) } },
              },
            },
          ),
        ],
      });
    },
  };
}
