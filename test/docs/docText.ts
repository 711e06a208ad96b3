import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads the README and docs/*.md as a newcomer meets them: their prose, split into sentences, and
 * their curl commands, with the answer each one says to expect. The doc checks and the demo test
 * share it, so a command the docs show is a command a test sends.
 */
export const ROOT = join(__dirname, '..', '..');

export interface DocFile {
  readonly path: string;
  readonly text: string;
}

export function docFiles(): DocFile[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join('docs', f));
  return ['README.md', ...docs].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

export interface Sentence {
  readonly line: number;
  readonly words: number;
  readonly text: string;
}

/** Lines outside fenced code blocks (and indented ones), with their 1-based numbers. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (/^\s*```/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced || /^( {4}|\t)\S/.test(text)) return;
    out.push({ line: i + 1, text });
  });
  return out;
}

/** A code span counts as one word, whatever it holds; a link counts as its text. */
function plain(text: string): string {
  return text
    .replace(/`[^`]*`/g, 'CODE')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_]{1,2}/g, '');
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/**
 * Sentences end at `.`, `!` or `?` before a space, at a paragraph's or list item's end, at a
 * heading, and at a table cell's edge (each cell is read on its own).
 */
export function sentences(markdown: string): Sentence[] {
  const out: Sentence[] = [];
  let pending: { line: number; text: string } | undefined;
  const flush = () => {
    if (pending) for (const s of split(pending.text)) out.push({ line: pending.line, ...s });
    pending = undefined;
  };
  const split = (text: string) =>
    plain(text)
      .split(/(?<=[.!?])\s+/)
      .map((t) => ({ text: t.trim(), words: wordCount(t) }))
      .filter((s) => s.words > 0);
  for (const { line, text } of proseLines(markdown)) {
    const t = text.trim();
    if (t === '') {
      flush();
      continue;
    }
    if (t.startsWith('|')) {
      flush();
      if (/^\|[\s|:-]+\|$/.test(t)) continue;
      for (const cell of cells(t)) for (const s of split(cell)) out.push({ line, ...s });
      continue;
    }
    if (/^(#{1,6} |[-*] |\d+\. )/.test(t)) flush();
    if (t.startsWith('#')) {
      for (const s of split(t.replace(/^#+ /, ''))) out.push({ line, ...s });
      continue;
    }
    pending = pending
      ? { line: pending.line, text: `${pending.text} ${t}` }
      : { line, text: t.replace(/^([-*]|\d+\.) /, '') };
  }
  flush();
  return out;
}

/** A table row's cells, split as GitHub does: at every `|` not escaped, code spans included. */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/);
}

export interface CurlCommand {
  readonly file: string;
  readonly line: number;
  /** The command as written, continuation lines joined, up to a pipe or redirect. */
  readonly text: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
  /** The status a `# 400`-style comment after the command promises. */
  readonly status: number | undefined;
  /** The JSON a comment line right after the command shows as its answer. */
  readonly example: unknown;
}

/** Shell words of one command line: quotes removed, up to the first unquoted `|`, `>` or `;`. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = undefined;
      else word = (word ?? '') + ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word = word ?? '';
    } else if (ch === '#' && word === undefined) break;
    else if (ch === '|' || ch === '>' || ch === ';' || ch === '&') break;
    else if (/\s/.test(ch)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + ch;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Every `curl` of the docs, with what it sends and what it promises back: each command line of a
 * fenced code block, and each table cell that is a curl in a code span (the row's next JSON code
 * span is its answer).
 */
export function curlCommands(file: DocFile): CurlCommand[] {
  const out: CurlCommand[] = [];
  const lines = file.text.split('\n');
  let fenced = false;
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*```/.test(lines[i]!)) fenced = !fenced;
    if (!fenced && lines[i]!.startsWith('|')) {
      const row = cells(lines[i]!).map((c) => /^\s*`([^`]*)`\s*$/.exec(c)?.[1]);
      row.forEach((code, k) => {
        if (!code?.startsWith('curl ')) return;
        const answer = row.slice(k + 1).find((c) => c !== undefined && /^[[{]/.test(c));
        out.push({
          file: file.path,
          line: i + 1,
          text: code,
          ...parseCurl(code),
          status: undefined,
          example: answer === undefined ? undefined : (JSON.parse(answer) as unknown),
        });
      });
      continue;
    }
    if (!fenced || !/^\s*curl /.test(lines[i]!)) continue;
    const start = i;
    let text = lines[i]!.trim();
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
    const comment = /\s#\s*(.*)$/.exec(text.replace(/'[^']*'/g, "''"))?.[1];
    const next = lines[i + 1]?.trim() ?? '';
    const exampleText = /^#\s*([[{].*)$/.exec(next)?.[1];
    out.push({
      file: file.path,
      line: start + 1,
      text,
      ...parseCurl(text),
      status: comment && /^\d{3}\b/.test(comment) ? Number(comment.slice(0, 3)) : undefined,
      example: exampleText === undefined ? undefined : (JSON.parse(exampleText) as unknown),
    });
  }
  return out;
}

function parseCurl(text: string): Pick<CurlCommand, 'method' | 'url' | 'headers' | 'body'> {
  const words = shellWords(text).slice(1);
  const headers: Record<string, string> = {};
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const query: string[] = [];
  let asQuery = false;
  for (let k = 0; k < words.length; k++) {
    const w = words[k]!;
    if (w === '-X') method = words[++k];
    else if (w === '-H') {
      const [name, ...value] = words[++k]!.split(':');
      headers[name!.trim().toLowerCase()] = value.join(':').trim();
    } else if (w === '-d' || w === '--data') body = words[++k];
    else if (w === '--data-urlencode') {
      const [name, ...value] = words[++k]!.split('=');
      query.push(`${name}=${encodeURIComponent(value.join('='))}`);
    } else if (w === '-G') asQuery = true;
    else if (w === '-o' || w === '-w') k++;
    else if (w.startsWith('-')) continue;
    else url = w;
  }
  if (!url) throw new Error(`curl without a URL: ${text}`);
  if (!/^https?:\/\//.test(url)) url = `http://${url}`;
  if (asQuery || (query.length > 0 && body === undefined)) {
    url = `${url}${url.includes('?') ? '&' : '?'}${query.join('&')}`;
    return { method: method ?? 'GET', url, headers, body: undefined };
  }
  return { method: method ?? (body === undefined ? 'GET' : 'POST'), url, headers, body };
}

/** The demo's API as the docs write it; a running demo may listen elsewhere (tests use port 0). */
export const DEMO_ORIGINS = ['http://127.0.0.1:8090', 'http://localhost:8090'];

/** A command meant for a real deployment names its host as a `<placeholder>`. */
export function isDemoCommand(c: CurlCommand): boolean {
  return DEMO_ORIGINS.some((o) => c.url === o || c.url.startsWith(`${o}/`) || c.url.startsWith(`${o}?`));
}

/**
 * Whether an answer has the example's shape: every member the example shows, with the same JSON
 * type, and an array's first element shaped as the example's first. Values are not compared.
 */
export function shapeMismatch(example: unknown, actual: unknown, path = '$'): string | undefined {
  if (example === null) return undefined;
  if (Array.isArray(example)) {
    if (!Array.isArray(actual)) return `${path}: expected an array`;
    if (example.length === 0) return undefined;
    if (actual.length === 0) return `${path}: expected a non-empty array`;
    return shapeMismatch(example[0], actual[0], `${path}[0]`);
  }
  if (typeof example === 'object') {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return `${path}: expected an object`;
    for (const [k, v] of Object.entries(example)) {
      if (!(k in actual)) return `${path}.${k}: missing`;
      const m = shapeMismatch(v, (actual as Record<string, unknown>)[k], `${path}.${k}`);
      if (m) return m;
    }
    return undefined;
  }
  return typeof example === typeof actual ? undefined : `${path}: expected a ${typeof example}`;
}

/** The status a command expects: its comment's, its example's `code`, `201` for a job, else `200`. */
export function expectedStatus(c: CurlCommand): number {
  if (c.status !== undefined) return c.status;
  const code = (c.example as { code?: unknown } | undefined)?.code;
  if (typeof code === 'number') return code;
  return /\/update\/?$/.test(new URL(c.url).pathname) ? 201 : 200;
}

/**
 * Sends a demo command to a running API at `origin` and says what differs from what the docs
 * promise (its status, its example's shape), or undefined when nothing does.
 */
export async function runAgainst(origin: string, c: CurlCommand): Promise<string | undefined> {
  const demo = DEMO_ORIGINS.find((o) => c.url.startsWith(o))!;
  const url = `${origin}${c.url.slice(demo.length)}`;
  const res = await fetch(url, { method: c.method, headers: c.headers, body: c.body });
  const text = await res.text();
  const where = `${c.file}:${c.line} ${c.method} ${new URL(url).pathname}`;
  if (res.status !== expectedStatus(c))
    return `${where}: status ${res.status}, expected ${expectedStatus(c)}: ${text.slice(0, 300)}`;
  if (c.example === undefined) return undefined;
  let actual: unknown;
  try {
    actual = JSON.parse(text);
  } catch {
    return `${where}: not JSON: ${text.slice(0, 200)}`;
  }
  const mismatch = shapeMismatch(c.example, actual);
  return mismatch && `${where}: ${mismatch}: ${text.slice(0, 300)}`;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const m = /^#{1,6} (.*)$/.exec(text);
    if (!m) continue;
    const base = m[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The relative links of a doc's prose: `[text](path#anchor)`, with the line they are on. */
export function relativeLinks(file: DocFile): { line: number; target: string }[] {
  return proseLines(file.text).flatMap(({ line, text }) =>
    [...text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1]!)
      .filter((t) => !/^[a-z]+:/.test(t))
      .map((target) => ({ line, target })),
  );
}

/** Table rows whose cell count differs from their table's header, which GitHub renders broken. */
export function raggedRows(markdown: string): { line: number; cells: number; header: number }[] {
  const out: { line: number; cells: number; header: number }[] = [];
  let header: number | undefined;
  for (const { line, text } of proseLines(markdown)) {
    const t = text.trim();
    if (!t.startsWith('|')) {
      header = undefined;
      continue;
    }
    const n = cells(t).length;
    if (header === undefined) header = n;
    else if (n !== header) out.push({ line, cells: n, header });
  }
  return out;
}
