import { BadQueryInput } from './badInput';
import { numericText, storedDecimal } from './numeric';
import type { SortDirection, SortPosition } from './poolIndex';
import type { SortFieldName } from './poolFields';

/**
 * `nextToken`: the sort key and id of the last pool of a page, so the next page starts strictly
 * after that position in whatever snapshot is current then. Unlike an offset it stays right when
 * pools are added, removed or re-ranked between pages: an unchanged pool is never skipped or
 * repeated. The token is opaque to clients (base64url of a small JSON array).
 */
export interface PageCursor {
  readonly sortField: SortFieldName;
  readonly direction: SortDirection;
  readonly after: SortPosition;
}

const VERSION = 1;

export class CursorError extends BadQueryInput {
  override readonly name: string = 'CursorError';
}

export function encodeCursor(c: PageCursor): string {
  const key = c.after.key === null ? null : numericText(c.after.key);
  return Buffer.from(JSON.stringify([VERSION, c.sortField, c.direction, key, c.after.id])).toString('base64url');
}

export function decodeCursor(token: string): { sortField: string; direction: SortDirection; after: SortPosition } {
  const invalid = new CursorError(
    'nextToken is not a token this service issued; send the nextToken of the previous page unchanged, or omit it to start from the first page',
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) throw invalid;
  const [version, sortField, direction, key, id] = parsed as unknown[];
  if (
    version !== VERSION ||
    typeof sortField !== 'string' ||
    (direction !== 'asc' && direction !== 'desc') ||
    typeof id !== 'string'
  )
    throw invalid;
  if (key !== null && typeof key !== 'string') throw invalid;
  const value = key === null ? null : storedDecimal(key);
  if (key !== null && value === null) throw invalid;
  return { sortField, direction, after: { key: value, id } };
}
