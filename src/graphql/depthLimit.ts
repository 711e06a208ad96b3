import { GraphQLError, Kind, type FragmentDefinitionNode, type SelectionSetNode, type ValidationRule } from 'graphql';

/**
 * Rejects operations nested deeper than `maxDepth` fields (fragments followed, introspection
 * fields left to graphql's own introspection-depth rule). Pool -> token -> pool -> ... can nest
 * without end; this keeps one request from fanning out through it.
 */
export function maxDepthRule(maxDepth: number): ValidationRule {
  return (context) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions)
      if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    // Shared by every operation of the document: each fragment is measured once.
    const fragmentDepths = new Map<string, number>();
    return {
      OperationDefinition(op) {
        const depth = selectionDepth(op.selectionSet, fragments, new Set(), fragmentDepths);
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(
              `query depth ${depth} exceeds the limit of ${maxDepth}; ask for fewer nested levels (e.g. stop at tokens { token { pool { id } } })`,
              { nodes: [op], extensions: { code: 'QUERY_TOO_DEEP', http: { status: 400, spec: false } } },
            ),
          );
        }
      },
    };
  };
}

/**
 * A fragment's depth does not depend on where it is spread, so it is measured once and kept in
 * `fragmentDepths`: walking every spread anew would take time exponential in the document when
 * fragments spread each other more than once.
 */
export function selectionDepth(
  set: SelectionSetNode | undefined,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  visiting: Set<string>,
  fragmentDepths: Map<string, number> = new Map(),
): number {
  if (!set) return 0;
  let max = 0;
  for (const s of set.selections) {
    let d = 0;
    if (s.kind === Kind.FIELD) {
      if (s.name.value.startsWith('__')) continue;
      d = 1 + selectionDepth(s.selectionSet, fragments, visiting, fragmentDepths);
    } else if (s.kind === Kind.INLINE_FRAGMENT) {
      d = selectionDepth(s.selectionSet, fragments, visiting, fragmentDepths);
    } else {
      const name = s.name.value;
      const known = fragmentDepths.get(name);
      if (known !== undefined) {
        d = known;
      } else {
        const fragment = fragments.get(name);
        // Unknown and cyclic fragments are reported by graphql's standard rules.
        if (!fragment || visiting.has(name)) continue;
        visiting.add(name);
        d = selectionDepth(fragment.selectionSet, fragments, visiting, fragmentDepths);
        visiting.delete(name);
        fragmentDepths.set(name, d);
      }
    }
    if (d > max) max = d;
  }
  return max;
}
