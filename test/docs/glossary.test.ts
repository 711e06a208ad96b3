import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './docText';

/**
 * The glossary of docs/ARCHITECTURE.md lists every term the code's type names use. A type name is
 * covered when a glossary term appears in it as a run of whole words (the last one may take a
 * plural `s`; a code name a row shows in backticks counts as a term too, so `WorkerExecutor`
 * covers `WorkerExecutorOptions`), when it is a contract's revert (a class derived from `Revert`,
 * which the 'revert' row names), or when every word of it is an ordinary one in PLAIN below. A version tag (V2, V3)
 * qualifies a name and covers nothing by itself: `V3SwapRequest` needs a term other than `V3`, and
 * `swap` covers it; a code name `V3Pool` covers `V3PoolMath` but not `PoolIndex`.
 */

/**
 * Words a newcomer needs no definition for (`Config`, `ClientError`, `ErrorBody` are made of them
 * alone). A domain word (gauge, subgraph, cache, queue...) does not belong here: it belongs in the
 * glossary, with what it means in this code.
 */
const PLAIN: ReadonlySet<string> = new Set(['body', 'client', 'config', 'error', 'info', 'request']);

/** The base class of every contract revert the models throw (`domain/swap/math/revert.ts`). */
const REVERT_BASE = 'Revert';

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:abstract\s+)?(?:const\s+)?(class|enum|type|interface)\s+(\w+)(?:<[^{=]*?>)?(?:\s+extends\s+(\w+))?/gm;

interface TypeName {
  readonly name: string;
  readonly file: string;
  /** The class it extends, for a class. */
  readonly base: string | undefined;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** Every exported type, interface, class and enum declared under src/. */
function typeNames(): TypeName[] {
  return sourceFiles(join(ROOT, 'src')).flatMap((path) =>
    [...readFileSync(path, 'utf8').matchAll(DECLARATION)].map((m) => ({
      name: m[2]!,
      file: relative(ROOT, path),
      base: m[1] === 'class' ? m[3] : undefined,
    })),
  );
}

/**
 * A name's words, lower case: PascalCase and camelCase split, an acronym kept whole (`HTTPError` is
 * http, error), digits kept with the word before them (`V3`, `Erc4626`, `Gyro2Clp` is gyro2, clp).
 */
function nameWords(name: string): string[] {
  return [...name.matchAll(/[A-Z]{2,}(?![a-z])\d*|[A-Z]?[a-z]+\d*|[A-Z]\d*|\d+/g)].map((m) => m[0].toLowerCase());
}

const isVersionTag = (word: string) => /^v\d+$/.test(word);

/** A glossary row's cells: its term column and its meaning. */
function glossaryRows(markdown: string): { term: string; meaning: string }[] {
  const section = markdown.split(/^## Glossary$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) => l.split(/(?<!\\)\|/).map((c) => c.trim()))
    .map(([, term, meaning]) => ({ term: term!, meaning: meaning ?? '' }))
    .filter((r) => r.term !== 'term');
}

/**
 * The glossary's terms, each as its words. A term cell may list several ("base, delta, bridge");
 * the 'pool type names' row lists the names in its meaning, as code spans, in their code spelling.
 * A row's code names (`PoolGraph`, not `graph.ts` or `Vault.batchSwap`) are terms of that row.
 */
function glossaryTerms(markdown: string): string[][] {
  return glossaryRows(markdown)
    .flatMap((r) => [
      ...r.term.replace(/`/g, '').split(','),
      ...[...r.meaning.matchAll(/`([A-Z][A-Za-z0-9]*)`/g)].map((m) => m[1]!),
    ])
    .map((term) => term.split(/[^A-Za-z0-9]+/).flatMap(nameWords))
    .filter((words) => words.length > 0 && !words.every(isVersionTag));
}

/** Whether `term` is a run of `words`, the last term word allowed a plural ending. */
function contains(words: readonly string[], term: readonly string[]): boolean {
  const last = term.length - 1;
  for (let i = 0; i + term.length <= words.length; i++)
    if (
      term.every((t, k) => {
        const w = words[i + k]!;
        return w === t || (k === last && (w === `${t}s` || w === `${t}es`));
      })
    )
      return true;
  return false;
}

/** Classes derived from `Revert`, directly or through another class of src/. */
function reverts(types: readonly TypeName[]): Set<string> {
  const base = new Map(types.filter((t) => t.base).map((t) => [t.name, t.base!]));
  const isRevert = (name: string, seen = 0): boolean => {
    const b = base.get(name);
    return b === REVERT_BASE || (b !== undefined && seen < 10 && isRevert(b, seen + 1));
  };
  return new Set(types.filter((t) => isRevert(t.name)).map((t) => t.name));
}

function uncovered(types: readonly TypeName[], terms: readonly string[][]): string[] {
  const revertClasses = reverts(types);
  return types
    .filter((t) => {
      if (revertClasses.has(t.name)) return false;
      const words = nameWords(t.name);
      const unversioned = words.filter((w) => !isVersionTag(w));
      if (unversioned.every((w) => PLAIN.has(w))) return false;
      return !terms.some((term) => contains(words, term) || contains(unversioned, term));
    })
    .map((t) => `${t.name} (${t.file})`)
    .sort();
}

const ARCHITECTURE = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');

test('the glossary lists every term the type names of src/ use', () => {
  const types = typeNames();
  expect(types.length).toBeGreaterThan(500);
  // A name printed here needs a glossary row for one of its terms, in the table's style: the term,
  // a short meaning, the types or file that hold it in brackets.
  expect(uncovered(types, glossaryTerms(ARCHITECTURE))).toEqual([]);
});

test("the glossary has the 'revert' row that covers the contract errors", () => {
  expect(glossaryTerms(ARCHITECTURE)).toContainEqual(['revert']);
  expect(reverts(typeNames()).size).toBeGreaterThan(10);
});

describe('the glossary reader itself', () => {
  test('names split into words, acronyms and version tags whole', () => {
    expect(nameWords('V3SwapRequest')).toEqual(['v3', 'swap', 'request']);
    expect(nameWords('HTTPError')).toEqual(['http', 'error']);
    expect(nameWords('Erc4626Token')).toEqual(['erc4626', 'token']);
    expect(nameWords('Gyro2ClpParams')).toEqual(['gyro2', 'clp', 'params']);
    expect(nameWords('reClammV3Math')).toEqual(['re', 'clamm', 'v3', 'math']);
  });

  test('a term covers a name as a run of whole words, plural allowed', () => {
    expect(contains(nameWords('PoolGraph'), ['pool', 'graph'])).toBe(true);
    expect(contains(nameWords('GaugePools'), ['pool'])).toBe(true);
    expect(contains(nameWords('Spooler'), ['pool'])).toBe(false);
    expect(contains(nameWords('PoolChainState'), ['pool', 'state'])).toBe(false);
  });

  test('a name no term covers is reported, with its file', () => {
    const md = [
      '## Glossary',
      '',
      '| term | meaning |',
      '|---|---|',
      '| swap kind | x |',
      '| pool type names | `Eclp` |',
      '| engine | the router (`SwapEngine`, `V3Pool`, `Vault.batchSwap`, `domain/x.ts`) |',
      '| V2, V3 | the protocols |',
      '',
      '## Next',
      '| cache | not the glossary |',
    ].join('\n');
    const types = [
      { name: 'V3SwapKind', file: 'a.ts', base: undefined },
      { name: 'EclpParams', file: 'b.ts', base: undefined },
      { name: 'ClientRequest', file: 'c.ts', base: undefined },
      { name: 'QuoteCache', file: 'd.ts', base: undefined },
      { name: 'PoolFull', file: 'e.ts', base: 'Revert' },
      { name: 'V3Thing', file: 'f.ts', base: undefined },
      { name: 'SwapEngineOptions', file: 'g.ts', base: undefined },
      { name: 'VaultBatch', file: 'h.ts', base: undefined },
      { name: 'V3PoolMath', file: 'i.ts', base: undefined },
      { name: 'PoolIndex', file: 'j.ts', base: undefined },
    ];
    expect(uncovered(types, glossaryTerms(md))).toEqual([
      'PoolIndex (j.ts)',
      'QuoteCache (d.ts)',
      'V3Thing (f.ts)',
      'VaultBatch (h.ts)',
    ]);
  });
});
