import { createSchema, createYoga, type Plugin, type YogaInitialContext, type YogaLogger } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import type { AppContext } from '../appContext';
import type { Logger } from '../log/logger';
import { maxDepthRule } from './depthLimit';
import { DEFAULT_DOCUMENT_LIMITS, documentShapeErrors, tooLongQuery, type DocumentLimits } from './documentShape';
import { tooDeeplyNested } from './queryNesting';
import { estimateQueryCost } from './queryCost';
import { useQuoteBudget } from './quoteDraw';
import { useReasonExtensions } from './reasonExtensions';
import { createRequestContext, type GraphqlContext } from './requestContext';
import { resolvers } from './resolvers';
import { currentApiSdl } from './currentApiSdl';
import { schemaSdl } from './schemaSdl';

export const GRAPHQL_PATH = '/graphql';

export interface GraphqlLimits {
  /** Deepest field nesting (the old front end's query is 7 deep). */
  readonly maxDepth: number;
  /** Most values one request may return, as estimated by queryCost.ts. */
  readonly maxCost: number;
  /** Longest answer, in bytes of JSON. */
  readonly maxResponseBytes: number;
  /** Size of the query text and of the document once its fragments are spread (documentShape.ts). */
  readonly document: DocumentLimits;
}

/**
 * The old front end's full query (every Pool field, tokens with token.pool.tokens) at `first: 1000`
 * costs about 570,000 and fits; asking for it twice under aliases, or nesting pools another level
 * deeper at that page size, does not.
 */
export const DEFAULT_LIMITS: GraphqlLimits = {
  maxDepth: 10,
  maxCost: 1_500_000,
  maxResponseBytes: 32 * 1024 * 1024,
  document: DEFAULT_DOCUMENT_LIMITS,
};

/**
 * A refused size or depth is a 400 for every client: Yoga would answer an ordinary validation
 * error 200 to `application/json` clients, as the GraphQL-over-HTTP spec asks (`spec: false`
 * opts out), so that proxies and retry logic see it as the client's mistake.
 */
const REFUSED = { status: 400, spec: false } as const;

function useDepthLimit(maxDepth: number): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(maxDepthRule(maxDepth));
    },
  };
}

/**
 * Before parsing: the parser itself would overflow its stack on thousands of nested brackets, and
 * its time grows with the text. Before validating: every rule (graphql's own, depth, cost) walks
 * the document with its fragments spread, so a document whose spread size is over the limit is
 * refused first, by a count that takes time linear in the document.
 */
function useDocumentLimits(limits: DocumentLimits): Plugin {
  return {
    onValidate({ params, setResult }) {
      const errors = documentShapeErrors(params.documentAST, limits);
      if (errors.length > 0) setResult(errors);
    },
    onParse({ params }) {
      const source: unknown = params.source;
      const text =
        typeof source === 'string'
          ? source
          : typeof (source as { body?: unknown })?.body === 'string'
            ? (source as { body: string }).body
            : '';
      const error = tooDeeplyNested(text) ?? tooLongQuery(text, limits);
      if (error) throw error;
    },
  };
}

/**
 * The cost is checked at execution because `first` may come from a variable. The answer's size is
 * checked once it is computed: the cost counts values, not their length, and a few fields (APR
 * breakdowns) are JSON of any size.
 */
function useResultLimits(maxCost: number, maxResponseBytes: number): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const cost = estimateQueryCost(
        args.schema,
        args.document,
        args.operationName,
        args.variableValues as Record<string, unknown> | undefined,
      );
      if (cost > maxCost) {
        setResultAndStopExecution({
          errors: [
            new GraphQLError(
              `query cost ${cost} exceeds the limit of ${maxCost} (every returned value counts; a page counts \`first\` pools, a pool 8 tokens); lower first or select fewer fields`,
              { extensions: { code: 'QUERY_TOO_COSTLY', cost, maxCost, http: { ...REFUSED } } },
            ),
          ],
        });
        return undefined;
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          // Characters, not bytes: the answer is almost all ASCII, and this needs no second encoding.
          const size = JSON.stringify(result).length;
          if (size <= maxResponseBytes) return;
          setResult({
            errors: [
              new GraphQLError(
                `the answer would be ${size} bytes, over the limit of ${maxResponseBytes}; lower first or select fewer fields`,
                { extensions: { code: 'RESPONSE_TOO_LARGE', size, maxResponseBytes, http: { ...REFUSED } } },
              ),
            ],
          });
        },
      };
    },
  };
}

function yogaLogger(logger: Logger): YogaLogger {
  const fmt = (args: unknown[]) => ({
    details: args.map((a) => (a instanceof Error ? { message: a.message, stack: a.stack } : a)),
  });
  return {
    debug: (...args) => logger.debug(fmt(args), 'graphql'),
    info: (...args) => logger.info(fmt(args), 'graphql'),
    warn: (...args) => logger.warn(fmt(args), 'graphql'),
    error: (...args) => logger.error(fmt(args), 'graphql'),
  };
}

/** The Yoga server over the read model. GraphiQL is served separately (graphiqlPage.ts). */
export function createGraphqlServer(app: AppContext, limits: GraphqlLimits = DEFAULT_LIMITS) {
  return createYoga<object, GraphqlContext>({
    schema: createSchema<GraphqlContext & YogaInitialContext>({
      typeDefs: [schemaSdl(), currentApiSdl()],
      resolvers,
    }),
    graphqlEndpoint: GRAPHQL_PATH,
    graphiql: false,
    landingPage: false,
    // The app's own CORS middleware answers for every route.
    cors: false,
    batching: false,
    // Unexpected errors reach clients as "Unexpected error." only; never a stack trace.
    maskedErrors: { isDev: false },
    logging: yogaLogger(app.logger),
    context: ({ request }) => createRequestContext(app, request.headers),
    plugins: [
      useReasonExtensions(),
      useDocumentLimits(limits.document),
      useDepthLimit(limits.maxDepth),
      useResultLimits(limits.maxCost, limits.maxResponseBytes),
      useQuoteBudget(),
    ],
  });
}
