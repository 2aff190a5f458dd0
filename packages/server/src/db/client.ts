import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { secureDataDir } from './data-dir.js';
import type { DatabaseHandle } from './database.js';
import * as schema from './schema/index.js';

export const MIGRATIONS_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../drizzle',
);

/** Wraps an open PGlite; `migrate` applies the SQL migrations first. */
export async function openPglite(
  client: PGlite,
  options: { migrate: boolean },
): Promise<DatabaseHandle> {
  const db = drizzlePglite({ client, schema });
  if (options.migrate) await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

export async function openPostgres(
  url: string,
  options: { migrate: boolean },
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A pooled connection the server drops while idle (restart, admin kill) is only discarded;
  // the next query opens a new one. Unhandled, that event would end the process.
  pool.on('error', (error) => {
    process.stderr.write(`database: idle connection lost: ${error.message}\n`);
  });
  // pool.end() resolves once the pool has let go of its connections, before they have closed.
  // Closing waits for the last one, so nothing (a DROP DATABASE, a process exit) cuts them off.
  let open = 0;
  let lastClosed: (() => void) | undefined;
  pool.on('connect', () => {
    open += 1;
  });
  pool.on('remove', () => {
    open -= 1;
    if (open === 0) lastClosed?.();
  });
  const close = async () => {
    const allClosed = new Promise<void>((resolve) => {
      lastClosed = resolve;
      if (open === 0) resolve();
    });
    await pool.end();
    await allClosed;
  };
  const db = drizzlePg({ client: pool, schema });
  try {
    if (options.migrate) await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
  } catch (error) {
    await close();
    throw error;
  }
  return { db, kind: 'postgres', close };
}

/** PGlite file-backed under DATA_DIR/pgdata (the caller holds the data-dir lock), or PostgreSQL. */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, { migrate: true });
  const dir = path.join(options.dataDir, 'pgdata');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const client = await PGlite.create({ dataDir: dir });
  try {
    // PGlite unpacks a new database with files open to everybody (0666, whatever the umask):
    // closed to others here; the files PostgreSQL creates later are its usual 0600.
    secureDataDir(options.dataDir);
    return await openPglite(client, { migrate: true });
  } catch (error) {
    await client.close();
    throw error;
  }
}
