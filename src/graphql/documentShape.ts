import { GraphQLError, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * How big a parsed document really is once its fragments are spread. A fragment that spreads the
 * previous one twice doubles the document with every level: 24 such fragments fit in 1 KB and
 * expand to 16 million fields, which any rule walking spreads one by one (graphql's own, the depth
 * and cost checks, execution) would visit. Here each fragment is counted once and its count
 * reused, so measuring costs time linear in the document, and a document whose expansion is too
 * big is refused before anything walks it.
 */
export interface DocumentShape {
  /** Fragment spreads written in the document. */
  readonly spreads: number;
  /** Aliased fields written in the document. */
  readonly aliases: number;
  /** Fields of all operations with every fragment spread in full (may be Infinity). */
  readonly expandedFields: number;
  /** `__schema` fields of all operations, fragments spread. */
  readonly schemaFields: number;
  /** Most fields side by side in one selection set, with the fragments spread into it. */
  readonly widestSelection: number;
}

export interface DocumentLimits {
  /** Characters of query text. */
  readonly maxLength: number;
  readonly maxSpreads: number;
  readonly maxAliases: number;
  readonly maxExpandedFields: number;
  /**
   * graphql's OverlappingFieldsCanBeMerged rule compares the fields of one selection set pair by
   * pair (fragments spread into it included): its time grows with the square of this width.
   */
  readonly maxSelectionWidth: number;
  /** The schema is the same for every `__schema`; one per request answers any client. */
  readonly maxSchemaFields: number;
}

/**
 * The old front end's full query is 1.6 KB with about 90 fields (at most 45 side by side), 0
 * spreads and 0 aliases; GraphiQL's introspection query 1.9 KB, about 110 fields once expanded,
 * 12 spreads and one `__schema`. With at most 250 fields side by side, the overlapping-fields rule
 * compares at most ~31,000 pairs per selection (740 of one field fit in 8 KB: ~270,000 pairs,
 * tens of milliseconds on the main thread).
 */
export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  maxLength: 8 * 1024,
  maxSpreads: 200,
  maxAliases: 100,
  maxExpandedFields: 5000,
  maxSelectionWidth: 250,
  maxSchemaFields: 1,
};

interface Count {
  fields: number;
  schemaFields: number;
  /** Fields at the set's own level, those of fragments spread into it included. */
  width: number;
}

export function documentShape(document: DocumentNode): DocumentShape {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const counted = new Map<string, Count>();
  // A cycle is graphql's NoFragmentCyclesRule's to report; here a spread back into a fragment
  // being counted adds nothing, so the count still ends.
  const counting = new Set<string>();
  let spreads = 0;
  let aliases = 0;
  let widestSelection = 0;

  const countFragment = (name: string): Count => {
    const known = counted.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    if (!fragment || counting.has(name)) return { fields: 0, schemaFields: 0, width: 0 };
    counting.add(name);
    const count = countSet(fragment.selectionSet);
    counting.delete(name);
    counted.set(name, count);
    return count;
  };

  const countSet = (set: SelectionSetNode | undefined): Count => {
    const total: Count = { fields: 0, schemaFields: 0, width: 0 };
    if (!set) return total;
    for (const s of set.selections) {
      let part: Count;
      if (s.kind === Kind.FIELD) {
        const inner = countSet(s.selectionSet);
        part = {
          fields: 1 + inner.fields,
          schemaFields: inner.schemaFields + (s.name.value === '__schema' ? 1 : 0),
          width: 1,
        };
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        part = countSet(s.selectionSet);
      } else {
        part = countFragment(s.name.value);
      }
      total.fields += part.fields;
      total.schemaFields += part.schemaFields;
      total.width += part.width;
    }
    widestSelection = Math.max(widestSelection, total.width);
    return total;
  };

  // Written spreads and aliases, counted once each whatever their expansion.
  const tally = (set: SelectionSetNode | undefined): void => {
    if (!set) return;
    for (const s of set.selections) {
      if (s.kind === Kind.FRAGMENT_SPREAD) spreads++;
      else {
        if (s.kind === Kind.FIELD && s.alias) aliases++;
        tally(s.selectionSet);
      }
    }
  };

  let expandedFields = 0;
  let schemaFields = 0;
  for (const d of document.definitions) {
    if (d.kind === Kind.FRAGMENT_DEFINITION) tally(d.selectionSet);
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    tally(d.selectionSet);
    const count = countSet(d.selectionSet);
    // graphql validates every operation of a document, not only the one it runs.
    expandedFields += count.fields;
    schemaFields += count.schemaFields;
  }
  return { spreads, aliases, expandedFields, schemaFields, widestSelection };
}

/**
 * `spec: false`: Yoga answers ordinary validation errors 200 to `application/json` clients, as the
 * GraphQL-over-HTTP spec asks; a refused size is a 400 for every client, so proxies and retry
 * logic see it as the client's mistake.
 */
function refusal(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_LARGE', http: { status: 400, spec: false } } });
}

/** A 400 error for query text longer than the limit, checked before the text is parsed. */
export function tooLongQuery(source: string, limits: DocumentLimits): GraphQLError | undefined {
  if (source.length <= limits.maxLength) return undefined;
  return refusal(
    `query is ${source.length} characters, the limit is ${limits.maxLength}; send a shorter query and pass long values (ids, filters) as variables`,
  );
}

/** The errors for a parsed document over the limits, empty when it is within them. */
export function documentShapeErrors(document: DocumentNode, limits: DocumentLimits): GraphQLError[] {
  const shape = documentShape(document);
  const errors: GraphQLError[] = [];
  if (shape.spreads > limits.maxSpreads)
    errors.push(
      refusal(`query has ${shape.spreads} fragment spreads, the limit is ${limits.maxSpreads}; spread fewer fragments`),
    );
  if (shape.aliases > limits.maxAliases)
    errors.push(
      refusal(
        `query has ${shape.aliases} aliased fields, the limit is ${limits.maxAliases}; ask for fewer fields under other names`,
      ),
    );
  if (shape.expandedFields > limits.maxExpandedFields)
    errors.push(
      refusal(
        `query selects ${Number.isFinite(shape.expandedFields) ? shape.expandedFields : 'more than 10^308'} fields once its fragments are spread, the limit is ${limits.maxExpandedFields}; spread each fragment fewer times`,
      ),
    );
  if (shape.widestSelection > limits.maxSelectionWidth)
    errors.push(
      refusal(
        `query selects ${Number.isFinite(shape.widestSelection) ? shape.widestSelection : 'more than 10^308'} fields side by side in one selection (fragments spread into it counted), the limit is ${limits.maxSelectionWidth}; select fewer fields or spread fewer fragments at one level`,
      ),
    );
  if (shape.schemaFields > limits.maxSchemaFields)
    errors.push(
      refusal(
        `query asks for __schema ${shape.schemaFields} times, the limit is ${limits.maxSchemaFields}; the schema is the same every time, ask for it once`,
      ),
    );
  return errors;
}
