import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres } from '../../src/db/client.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { randomSuffix, withDatabase } from './test-database-info.js';

/** A fresh, migrated database of its own for the calling test file; close() drops it. */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const info = inject('testDatabase');
  if (info.kind === 'pglite') {
    const snapshot = new Blob([readFileSync(info.snapshotFile)]);
    const client = await PGlite.create({ loadDataDir: snapshot });
    return openPglite(client, { migrate: false });
  }

  const name = `qs_test_${randomSuffix()}`;
  const runAdmin = async (sql: string) => {
    const admin = new pg.Client({ connectionString: info.serverUrl });
    await admin.connect();
    try {
      await admin.query(sql);
    } finally {
      await admin.end();
    }
  };
  // Parallel clones of one template can briefly collide ("being accessed by other users").
  for (let attempt = 1; ; attempt++) {
    try {
      await runAdmin(`CREATE DATABASE ${name} TEMPLATE ${info.templateName}`);
      break;
    } catch (error) {
      if (attempt >= 10 || !String(error).includes('being accessed')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
  const handle = await openPostgres(withDatabase(info.serverUrl, name), { migrate: false });
  return {
    db: handle.db,
    kind: handle.kind,
    close: async () => {
      await handle.close();
      await runAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
