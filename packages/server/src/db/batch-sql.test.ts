import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { boolean, integer, numeric, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { arrayLiteral, unnestRows, updateRows } from './batch-sql.js';

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
});
