import { getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { type PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serialSequence } from '../../src/db/batch-sql.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import * as schema from '../../src/db/schema/index.js';
import { createTestDatabase } from '../helpers/test-database.js';

// Batched inserts name a serial's sequence as a literal (batch-sql.ts). The name is the one
// PostgreSQL gives a serial; this holds every serial of the migrated schema to it, so a renamed
// table or sequence fails here rather than in the first batch that draws an id.
describe('serial sequences of the migrated schema', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('are the sequences the batch inserts name', async () => {
    const serials = (Object.values(schema) as unknown[])
      .filter((value): value is PgTable => is(value, PgTable))
      .flatMap((table) =>
        (Object.values(getTableColumns(table)) as PgColumn[])
          .filter((column) => column.columnType === 'PgSerial')
          .map((column) => ({ table, column })),
      );
    expect(serials.length).toBeGreaterThan(20);
    for (const { table, column } of serials) {
      // Both drivers (pg and PGlite) answer an execute with its rows.
      const result = (await handle.db.execute(
        sql`select pg_get_serial_sequence(${getTableName(table)}, ${column.name})::regclass::text as name`,
      )) as unknown as { rows: { name: string | null }[] };
      const literal = serialSequence(table, column);
      expect(`'${result.rows[0]?.name}'::regclass`, getTableName(table)).toBe(literal);
    }
  });
});
