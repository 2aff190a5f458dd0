import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { boolean, integer, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { arrayLiteral, serialSequence, unnestRows, updateRows } from './batch-sql.js';

const items = pgTable('batch_items', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  size: numeric('size', { precision: 30, scale: 12 }),
  count: integer('count').notNull().default(0),
  seenAt: timestamp('seen_at', { withTimezone: true }),
});

const client = new PGlite();
const db = drizzle(client);
afterAll(() => client.close());

describe('batch SQL', () => {
  it('updates only the named columns of the rows their keys pick, nothing else', async () => {
    await db.execute(
      sql`create table batch_items (id serial primary key, name text not null, size numeric(30, 12), count integer not null default 0, seen_at timestamptz)`,
    );
    const inserted = await db
      .insert(items)
      .select(
        unnestRows(items, [
          { name: 'a', size: '1.5', count: 1 },
          { name: 'b', size: '2', count: 2 },
          { name: 'c', size: null, count: 3 },
        ]),
      )
      .returning();
    const [a, b, c] = inserted.sort((x, y) => x.id - y.id);
    const at = new Date('2026-11-29T00:00:00Z');
    await db.execute(
      updateRows(
        items,
        items.id,
        [items.size, items.seenAt],
        [
          { id: a?.id, size: '0.000000000001', seenAt: at },
          { id: c?.id, size: '7', seenAt: null },
        ],
      ),
    );
    const rows = (await db.select().from(items)).sort((x, y) => x.id - y.id);
    expect(rows).toEqual([
      { id: a?.id, name: 'a', size: '0.000000000001', count: 1, seenAt: at },
      { id: b?.id, name: 'b', size: '2.000000000000', count: 2, seenAt: null },
      { id: c?.id, name: 'c', size: '7.000000000000', count: 3, seenAt: null },
    ]);
  });

  it('refuses a column of another table', () => {
    const other = pgTable('other', { id: serial('id').primaryKey(), name: text('name') });
    expect(() => updateRows(items, items.id, [other.name], [{ id: 1, name: 'x' }])).toThrow(
      /not a column of batch_items/,
    );
  });

  it('carries any text through its array literal as written', async () => {
    const names = [
      'plain',
      'with "quotes"',
      'back\\slash\\',
      'comma, {braces}',
      'NULL',
      '',
      ' spaced ',
      '新年 🚀',
      '\\"both"\\',
    ];
    const rows = await db
      .insert(items)
      .select(
        unnestRows(
          items,
          names.map((name, i) => ({ name, count: 1 - i, size: `${i}.25` })),
        ),
      )
      .returning();
    expect(rows.map((row) => [row.name, row.count, row.size])).toEqual(
      names.map((name, i) => [name, 1 - i, `${i}.250000000000`]),
    );
  });

  it('writes the driver form of numbers, booleans, dates, objects and nulls', () => {
    const at = new Date('2026-11-29T01:02:03.004Z');
    expect(arrayLiteral([1, -2.5, true, false, null, undefined, at, { a: '"x"' }])).toBe(
      '{1,-2.5,t,f,NULL,NULL,"2026-11-29T01:02:03.004Z","{\\"a\\":\\"\\\\\\"x\\\\\\"\\"}"}',
    );
  });

  it('leaves a generated column to the database, and refuses to write one', async () => {
    const flagged = pgTable('batch_flagged', {
      id: serial('id').primaryKey(),
      status: text('status').notNull(),
      isOpen: boolean('is_open')
        .notNull()
        .generatedAlwaysAs(sql.raw(`status in ('new', 'working')`)),
    });
    await db.execute(
      sql`create table batch_flagged (id serial primary key, status text not null, is_open boolean not null generated always as (status in ('new', 'working')) stored)`,
    );
    const inserted = await db
      .insert(flagged)
      .select(unnestRows(flagged, [{ status: 'new' }, { status: 'done' }]))
      .returning();
    expect(inserted.map((row) => [row.status, row.isOpen])).toEqual([
      ['new', true],
      ['done', false],
    ]);
    expect(() =>
      updateRows(flagged, flagged.id, [flagged.isOpen], [{ id: 1, isOpen: false }]),
    ).toThrow(/is_open is generated/);
  });
  it('draws a serial from its sequence, after ids a row gave', async () => {
    await db.execute(sql`create table batch_counted (id serial primary key, name text not null)`);
    const counted = pgTable('batch_counted', { id: serial('id').primaryKey(), name: text('name') });
    await db.insert(counted).select(unnestRows(counted, [{ id: 1, name: 'a' }]));
    await db.execute(sql`select setval('batch_counted_id_seq', 1)`);
    const inserted = await db
      .insert(counted)
      .select(unnestRows(counted, [{ name: 'b' }, { name: 'c' }]))
      .returning();
    expect(inserted.map((row) => [row.id, row.name])).toEqual([
      [2, 'b'],
      [3, 'c'],
    ]);
  });

  it('refuses a sequence name PostgreSQL would shorten or quote', () => {
    const long = pgTable(`batch_${'x'.repeat(60)}`, { id: serial('id').primaryKey() });
    expect(() => serialSequence(long, long.id)).toThrow(/not a sequence name/);
    const quoted = pgTable('Batch Items', { id: serial('id').primaryKey() });
    expect(() => serialSequence(quoted, quoted.id)).toThrow(/not a sequence name/);
    expect(serialSequence(items, items.id)).toBe("'batch_items_id_seq'::regclass");
  });
});
