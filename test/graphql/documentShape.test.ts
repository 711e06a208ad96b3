import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { selectionDepth } from '../../src/graphql/depthLimit';
import { DEFAULT_DOCUMENT_LIMITS, documentShape, documentShapeErrors } from '../../src/graphql/documentShape';
import { estimateQueryCost } from '../../src/graphql/queryCost';
import { schemaSdl } from '../../src/graphql/schemaSdl';

function fanOut(levels: number, leaf: string): string {
  const fragments = [`fragment F0 on Query { ${leaf} }`];
  for (let i = 1; i <= levels; i++) fragments.push(`fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }`);
  return `{ ...F${levels} } ${fragments.join(' ')}`;
}

describe('documentShape', () => {
  it('counts fields with fragments spread, and written spreads and aliases once each', () => {
    const shape = documentShape(
      parse(`{ a: pools(chainId: 1) { pools { ...P ...P } } __schema { types { name } } }
        fragment P on Pool { id b: address tokens { ...T } }
        fragment T on PoolToken { address balance }`),
    );
    // pools, pools, 2 x (id, address, tokens, address, balance), __schema, types, name
    // The widest selection: pools' own, with P spread into it twice (2 x 3 fields).
    expect(shape).toEqual({ spreads: 3, aliases: 2, expandedFields: 15, schemaFields: 1, widestSelection: 6 });
  });

  it('counts 2^n fields for n levels of double spreads without walking them', () => {
    const shape = documentShape(parse(fanOut(200, '__typename')));
    expect(shape.expandedFields).toBe(2 ** 200);
    expect(shape.spreads).toBe(401);
  });

  it('ends on fragment cycles (graphql reports them) and sums every operation', () => {
    const shape = documentShape(
      parse(
        `query A { ...X } query B { ...X __typename } fragment X on Query { __typename ...Y } fragment Y on Query { ...X }`,
      ),
    );
    expect(shape.expandedFields).toBe(3);
  });

  it('names each limit passed', () => {
    const errors = documentShapeErrors(
      parse(`{ a: __schema { x: __typename } b: __schema { __typename } c: __typename }`),
      {
        ...DEFAULT_DOCUMENT_LIMITS,
        maxAliases: 2,
        maxSelectionWidth: 2,
      },
    );
    expect(errors.map((e) => e.message)).toEqual([
      'query has 4 aliased fields, the limit is 2; ask for fewer fields under other names',
      'query selects 3 fields side by side in one selection (fragments spread into it counted), the limit is 2; select fewer fields or spread fewer fragments at one level',
      'query asks for __schema 2 times, the limit is 1; the schema is the same every time, ask for it once',
    ]);
    expect(errors.every((e) => e.extensions['code'] === 'QUERY_TOO_LARGE')).toBe(true);
  });
});

describe('depth and cost of fragments spread many times', () => {
  // Walking every spread would take 2^50 steps; each fragment is measured once instead.
  const doc = parse(fanOut(50, 'poolsCount(chainId: 1) tokens(chainId: 1) { address }'));

  it('depth: measured once per fragment', () => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
    expect(selectionDepth(op.selectionSet, fragments, new Set())).toBe(2);
  });

  it('cost: measured once per fragment, type and page size', () => {
    const schema = createSchema({ typeDefs: schemaSdl() });
    // Each F0: poolsCount 1 + tokens (1 + 1,000 listed tokens x 1 field).
    expect(estimateQueryCost(schema, doc, null, {})).toBe(2 ** 50 * 1002);
  });
});
