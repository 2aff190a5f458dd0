import { getTableColumns, getTableName, is, SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

// SQL pieces for batches: a batch of any size is bound as one array parameter per column and
// spread by unnest(), instead of one parameter per value. The statement's text stays the same
// whatever the batch size, so building it costs the same for 1 row as for 1,000, and PostgreSQL
// parses a short statement instead of a VALUES or IN list thousands of parameters long.

/** The element type of a column's array parameter. */
function elementType(column: PgColumn): string {
  const type = column.getSQLType();
  if (type === 'serial') return 'integer';
  if (type === 'bigserial') return 'bigint';
  return type;
}

function encode(column: PgColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  // Only an object can be an SQL piece (the check walks the prototype chain: not per number).
  // instanceof, not drizzle's is(): this runs for every value of every batched row.
  if (value instanceof SQL) {
    throw new TypeError(`${column.name}: SQL values cannot be batched`);
  }
  return column.mapToDriverValue(value);
}

const NEEDS_ESCAPE = /["\\]/;

/** A string element of an array literal: quoted, its quotes and backslashes escaped. */
function quoted(text: string): string {
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(/(["\\])/g, '\\$1')}"` : `"${text}"`;
}

/**
 * PostgreSQL's text form of a one-dimensional array (`{1,"a",NULL}`), built here rather than by
 * the driver: the driver escapes every element with two regular expressions and formats dates
 * itself, which cost about 5 % of the order path's CPU. Numbers and booleans need no quotes;
 * strings are quoted, and escaped only when the batch holds a quote or a backslash (one test of
 * all its text, not one per element).
 */
export function arrayLiteral(values: readonly unknown[]): string {
  const parts = new Array<string>(values.length);
  const texts: number[] = [];
  for (let i = 0; i < values.length; i += 1) {
    const value = values[i];
    if (value === null || value === undefined) parts[i] = 'NULL';
    else if (typeof value === 'number' || typeof value === 'bigint') parts[i] = String(value);
    else if (typeof value === 'boolean') parts[i] = value ? 't' : 'f';
    else {
      parts[i] =
        typeof value === 'string'
          ? value
          : value instanceof Date
            ? value.toISOString()
            : JSON.stringify(value);
      texts.push(i);
    }
  }
  const isPlain = !NEEDS_ESCAPE.test(texts.map((i) => parts[i]).join(''));
  for (const i of texts) {
    const text = parts[i] as string;
    parts[i] = isPlain ? `"${text}"` : quoted(text);
  }
  return `{${parts.join(',')}}`;
}

const arrayParam = (column: PgColumn, values: readonly unknown[]) =>
  sql`${sql.param(arrayLiteral(values.map((value) => encode(column, value))))}::${sql.raw(elementType(column))}[]`;

/** One array parameter of a plain SQL type (for an `unnest` of values that are no table's column). */
export const arrayOf = (type: 'int4' | 'text', values: readonly unknown[]) =>
  sql`${sql.param(arrayLiteral(values))}::${sql.raw(type)}[]`;

/** `(a, b) in (select * from unnest($1, $2))`: rows whose columns match one of the tuples. */
export function tuplesIn(
  columns: readonly PgColumn[],
  tuples: readonly (readonly unknown[])[],
): SQL {
  const arrays = columns.map((column, i) =>
    arrayParam(
      column,
      tuples.map((tuple) => tuple[i]),
    ),
  );
  return sql`(${sql.join([...columns], sql`, `)}) in (select * from unnest(${sql.join(arrays, sql`, `)}))`;
}

/** `column = any($1)`: rows whose column is one of the values. */
export function anyOf(column: PgColumn, values: readonly unknown[]): SQL {
  return sql`${column} = any(${arrayParam(column, values)})`;
}

const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/;
/** PostgreSQL's limit on a name's length (NAMEDATALEN − 1), past which it shortens the name. */
const MAX_NAME = 63;

/**
 * The sequence a serial column draws from, as a `regclass` literal: `'orders_id_seq'::regclass`.
 * A literal is resolved once, when the statement is planned. `pg_get_serial_sequence(table,
 * column)` (what this wrote before) is looked up again for every row: it tripled the cost of a
 * serial in a 1,000-row insert. The name is the one PostgreSQL gives a serial's sequence; a name
 * it would shorten, or one that needs quoting, is refused rather than guessed.
 */
export function serialSequence(table: PgTable, column: PgColumn): string {
  const name = `${getTableName(table)}_${column.name}_seq`;
  if (!PLAIN_NAME.test(name) || name.length > MAX_NAME) {
    throw new TypeError(`${name}: not a sequence name this can write as a literal`);
  }
  return `'${name}'::regclass`;
}

/**
 * The rows to insert as `select … from unnest(…)`, every column of the table in its order (what
 * `insert(table).select(…)` expects). A column no row gives takes its default: a serial its
 * sequence's next value, any other its constant default, else null.
 */
export function unnestRows(table: PgTable, rows: readonly Record<string, unknown>[]): SQL {
  const selected: SQL[] = [];
  const arrays: SQL[] = [];
  const names: SQL[] = [];
  for (const [key, column] of Object.entries(getTableColumns(table)) as [string, PgColumn][]) {
    // A generated column is computed by the database, as drizzle's own insert leaves it out.
    if (column.generated !== undefined) continue;
    const isGiven = rows.some((row) => row[key] !== undefined);
    if (!isGiven && column.columnType === 'PgSerial') {
      selected.push(sql`nextval(${sql.raw(serialSequence(table, column))})::integer`);
      continue;
    }
    if (is(column.default, SQL))
      throw new TypeError(`${column.name}: SQL defaults cannot be batched`);
    const fallback = column.default ?? null;
    const name = sql.raw(`c${arrays.length}`);
    arrays.push(
      arrayParam(
        column,
        rows.map((row) => (row[key] === undefined ? fallback : row[key])),
      ),
    );
    names.push(name);
    selected.push(sql`u.${name}`);
  }
  return sql`select ${sql.join(selected, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.join(names, sql`, `)})`;
}

/**
 * `update table set c = u.c, … from unnest(…) as u(key, c, …) where table.key = u.key`: each
 * row's `columns` written to the row its `key` names, in one statement, only those columns sent.
 */
export function updateRows<T extends PgTable>(
  table: T,
  key: PgColumn,
  columns: readonly PgColumn[],
  rows: readonly Record<string, unknown>[],
): SQL {
  const all = Object.entries(getTableColumns(table)) as [string, PgColumn][];
  const fieldOf = (column: PgColumn) => {
    const entry = all.find(([, c]) => c === column);
    if (!entry) throw new TypeError(`${column.name} is not a column of ${getTableName(table)}`);
    return entry[0];
  };
  const written = [key, ...columns];
  for (const column of columns) {
    if (column.generated !== undefined) throw new TypeError(`${column.name} is generated`);
  }
  const arrays = written.map((column) => {
    const field = fieldOf(column);
    return arrayParam(
      column,
      rows.map((row) => row[field] ?? null),
    );
  });
  const names = written.map((column) => sql.identifier(column.name));
  const sets = columns.map(
    (column) => sql`${sql.identifier(column.name)} = u.${sql.identifier(column.name)}`,
  );
  return sql`update ${table} set ${sql.join(sets, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.join(names, sql`, `)}) where ${table}.${sql.identifier(key.name)} = u.${sql.identifier(key.name)}`;
}
