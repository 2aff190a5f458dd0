import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { testDatabaseUrlFromEnvironment } from '../../src/config.js';
import { openPglite, openPostgres } from '../../src/db/client.js';
import { randomSuffix, withDatabase } from './test-database-info.js';

/**
 * Runs the migrations once per test run. With TEST_DATABASE_URL: into a template database that
 * each test file clones (CREATE DATABASE … TEMPLATE). Without: into an in-memory PGlite whose
 * data dir is dumped to a file that each test file loads.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const serverUrl = testDatabaseUrlFromEnvironment();
  if (serverUrl) {
    const templateName = `qs_tpl_${randomSuffix()}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${templateName}`);
    await admin.end();
    const handle = await openPostgres(withDatabase(serverUrl, templateName), { migrate: true });
    await handle.close(); // a template must have no connections when it is cloned
    project.provide('testDatabase', { kind: 'postgres', serverUrl, templateName });
    return async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${templateName} WITH (FORCE)`);
      await client.end();
    };
  }

  const client = await PGlite.create();
  const handle = await openPglite(client, { migrate: true });
  const dump = await client.dumpDataDir('none');
  const dir = mkdtempSync(path.join(tmpdir(), 'qs-test-snapshot-'));
  const snapshotFile = path.join(dir, 'pgdata.tar');
  writeFileSync(snapshotFile, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('testDatabase', { kind: 'pglite', snapshotFile });
  return async () => {
    rmSync(dir, { recursive: true, force: true });
  };
}
