import { BadQueryInput } from './badInput';
import { compareNumeric, fromNumber, numericText, type NumericValue } from './numeric';
import type { PoolIndex } from './poolIndex';
import { poolFilterFields, type FieldKind, type FilterFieldName } from './poolFields';

/**
 * `where: TablePoolsFilterInput` -> a predicate over pool positions of a `PoolIndex`. Pure: the
 * filter is compiled once per request, then run over the snapshot's columns.
 *
 * Semantics (the old AppSync/DynamoDB filters): operators of one field and all fields combine
 * with AND; `between: [lo, hi]` is inclusive; on a pool where the field is absent only the negative
 * operators (`ne`, `notContains`, `not_in`) match.
 */

export interface ScalarFilterInput {
  readonly eq?: unknown;
  readonly ne?: unknown;
  readonly lt?: unknown;
  readonly le?: unknown;
  readonly gt?: unknown;
  readonly ge?: unknown;
  readonly between?: readonly unknown[] | null;
  readonly contains?: unknown;
  readonly notContains?: unknown;
  readonly beginsWith?: unknown;
  readonly in?: readonly unknown[] | null;
  readonly not_in?: readonly unknown[] | null;
}

export type PoolsWhere = Partial<Record<FilterFieldName, ScalarFilterInput | null>>;

export type PoolPredicate = (i: number) => boolean;

/** A filter the user must fix; the message names the field and the operator. */
export class FilterError extends BadQueryInput {
  override readonly name: string = 'FilterError';
}

export const OPERATORS_BY_KIND: Readonly<Record<FieldKind, readonly (keyof ScalarFilterInput)[]>> = {
  id: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'between', 'contains', 'notContains', 'beginsWith', 'in', 'not_in'],
  string: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'between', 'contains', 'notContains', 'beginsWith', 'in', 'not_in'],
  decimal: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'between', 'contains', 'notContains', 'beginsWith'],
  int: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'between', 'contains', 'notContains', 'beginsWith'],
  float: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'between', 'contains', 'notContains', 'beginsWith'],
  boolean: ['eq', 'ne'],
  idList: ['contains', 'notContains'],
};

export function compilePoolFilter(where: PoolsWhere | null | undefined, index: PoolIndex): PoolPredicate {
  const tests: PoolPredicate[] = [];
  const fields = poolFilterFields();
  for (const [field, input] of Object.entries(where ?? {}) as [FilterFieldName, ScalarFilterInput | null][]) {
    if (!input) continue;
    const kind: FieldKind | undefined = fields.get(field);
    if (!kind) throw new FilterError(`where.${field} is not a filterable Pool field`);
    for (const op of Object.keys(input) as (keyof ScalarFilterInput)[]) {
      const value = input[op];
      if (value === null || value === undefined) continue;
      if (!OPERATORS_BY_KIND[kind].includes(op)) {
        throw new FilterError(
          `where.${field}.${op} is not supported; ${field} takes ${OPERATORS_BY_KIND[kind].join(', ')}`,
        );
      }
      tests.push(compileOperator(index, field, kind, op, value));
    }
  }
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0] as PoolPredicate;
  return (i) => {
    for (const t of tests) if (!t(i)) return false;
    return true;
  };
}

function compileOperator(
  index: PoolIndex,
  field: FilterFieldName,
  kind: FieldKind,
  op: keyof ScalarFilterInput,
  value: unknown,
): PoolPredicate {
  const where = `where.${field}.${op}`;
  switch (kind) {
    case 'id':
    case 'string':
      return textOperator(index.textColumn(field), op, textArg(value, where, kind === 'id'));
    case 'decimal':
    case 'int':
    case 'float':
      return numericOperator(index.numericColumn(field), op, numericArg(value, where));
    case 'boolean':
      return booleanOperator(index, field, op, value, where);
    case 'idList':
      return listOperator(index.listColumn(field), op, textArg(value, where, true));
  }
}

type TextArg = string | readonly string[];

function textArg(value: unknown, where: string, lower: boolean): TextArg {
  const one = (v: unknown): string => {
    if (typeof v !== 'string') throw new FilterError(`${where} expects text, got ${JSON.stringify(v)}`);
    return lower ? v.toLowerCase() : v;
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

function textOperator(col: readonly (string | null)[], op: keyof ScalarFilterInput, arg: TextArg): PoolPredicate {
  const single = (): string => (typeof arg === 'string' ? arg : (arg[0] ?? ''));
  switch (op) {
    case 'eq': {
      const x = single();
      return (i) => col[i] === x;
    }
    case 'ne': {
      const x = single();
      return (i) => col[i] !== x;
    }
    case 'lt': {
      const x = single();
      return (i) => col[i] != null && (col[i] as string) < x;
    }
    case 'le': {
      const x = single();
      return (i) => col[i] != null && (col[i] as string) <= x;
    }
    case 'gt': {
      const x = single();
      return (i) => col[i] != null && (col[i] as string) > x;
    }
    case 'ge': {
      const x = single();
      return (i) => col[i] != null && (col[i] as string) >= x;
    }
    case 'between': {
      const [lo, hi] = pair(arg as readonly string[]);
      return (i) => col[i] != null && (col[i] as string) >= lo && (col[i] as string) <= hi;
    }
    case 'contains': {
      const x = single();
      return (i) => col[i] != null && (col[i] as string).includes(x);
    }
    case 'notContains': {
      const x = single();
      return (i) => col[i] == null || !(col[i] as string).includes(x);
    }
    case 'beginsWith': {
      const x = single();
      return (i) => col[i] != null && (col[i] as string).startsWith(x);
    }
    case 'in': {
      const set = new Set(arg);
      return (i) => col[i] != null && set.has(col[i] as string);
    }
    case 'not_in': {
      const set = new Set(arg);
      return (i) => col[i] == null || !set.has(col[i] as string);
    }
  }
}

function pair<T>(values: readonly T[]): [T, T] {
  if (values.length !== 2) throw new FilterError(`between takes exactly two values [low, high], got ${values.length}`);
  return [values[0] as T, values[1] as T];
}

type NumericArg = NumericValue | readonly NumericValue[];

function numericArg(value: unknown, where: string): NumericArg {
  const one = (v: unknown): NumericValue => {
    if (typeof v !== 'number' || !Number.isFinite(v))
      throw new FilterError(`${where} expects a number, got ${JSON.stringify(v)}`);
    return fromNumber(v);
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

function numericOperator(
  col: readonly (NumericValue | null)[],
  op: keyof ScalarFilterInput,
  arg: NumericArg,
): PoolPredicate {
  const x = (Array.isArray(arg) ? arg[0] : arg) as NumericValue;
  /** `test` sees the comparison of a present value with x; absent values match only negations. */
  const compared =
    (test: (c: number) => boolean, whenAbsent = false): PoolPredicate =>
    (i) => {
      const v = col[i];
      return v ? test(compareNumeric(v, x)) : whenAbsent;
    };
  switch (op) {
    case 'eq':
      return compared((c) => c === 0);
    case 'ne':
      return compared((c) => c !== 0, true);
    case 'lt':
      return compared((c) => c < 0);
    case 'le':
      return compared((c) => c <= 0);
    case 'gt':
      return compared((c) => c > 0);
    case 'ge':
      return compared((c) => c >= 0);
    case 'between': {
      const [lo, hi] = pair(arg as readonly NumericValue[]);
      return (i) => {
        const v = col[i];
        return v != null && compareNumeric(v, lo) >= 0 && compareNumeric(v, hi) <= 0;
      };
    }
    case 'contains':
    case 'notContains':
    case 'beginsWith': {
      // Text operators on a number look at its decimal text, as DynamoDB did on number strings.
      const text = numericText(x);
      const test = op === 'beginsWith' ? (s: string) => s.startsWith(text) : (s: string) => s.includes(text);
      if (op === 'notContains') return (i) => col[i] == null || !test(numericText(col[i] as NumericValue));
      return (i) => col[i] != null && test(numericText(col[i] as NumericValue));
    }
    default:
      throw new FilterError(`${op} does not apply to numbers`);
  }
}

function booleanOperator(
  index: PoolIndex,
  field: FilterFieldName,
  op: keyof ScalarFilterInput,
  value: unknown,
  where: string,
): PoolPredicate {
  if (typeof value !== 'boolean') throw new FilterError(`${where} expects true or false, got ${JSON.stringify(value)}`);
  const col = index.booleanColumn(field);
  return op === 'eq' ? (i) => col[i] === value : (i) => col[i] !== value;
}

/** `contains`: every listed address is in the pool's list; `notContains`: none of them is. */
function listOperator(col: readonly (readonly string[])[], op: keyof ScalarFilterInput, arg: TextArg): PoolPredicate {
  const wanted = typeof arg === 'string' ? [arg] : arg;
  if (op === 'contains') return (i) => wanted.every((a) => (col[i] as readonly string[]).includes(a));
  return (i) => !wanted.some((a) => (col[i] as readonly string[]).includes(a));
}
