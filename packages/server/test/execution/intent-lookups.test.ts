// An owner's intents are found by key (a repeated submit) and by key prefix (a copy pass's orders
// of one leader change) through an index, however long the owner's history: the plans of the
// repository's own statements are checked on a table of 20,000 orders.
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, DatabaseHandle } from '../../src/db/database.js';
import * as schema from '../../src/db/schema/index.js';
import { createExecutionRepository } from '../../src/execution/execution.repository.js';
import { createTestDatabase } from '../helpers/test-database.js';

const ORDERS = 20_000;
const OWNERS = 10;
const at = new Date(Date.UTC(2026, 10, 1));

let database: DatabaseHandle;
let client: { query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }> };
/** The statements the repository sent through `logged`, in order. */
const sent: { sql: string; params: unknown[] }[] = [];
let logged: Database;
let accountId: number;

beforeAll(async () => {
  database = await createTestDatabase();
  const logger = {
    logQuery(sql: string, params: unknown[]) {
      sent.push({ sql, params });
    },
  };
  if (database.kind === 'pglite') {
    const raw = (database.db as unknown as { $client: PGlite }).$client;
    client = raw;
    logged = drizzlePglite({ client: raw, schema, logger }) as unknown as Database;
  } else {
    const raw = (database.db as unknown as { $client: pg.Pool }).$client;
    client = raw;
    logged = drizzlePg({ client: raw, schema, logger }) as unknown as Database;
  }
  // One user with one paper account (only its id matters here).
  const { rows } = await client.query(
    `with owner as (
       insert into users (username, password_hash, invitation_code, date_joined)
       values ('lookups@example.com', 'x', 'LOOK01', $1) returning id)
     insert into exchange_accounts (user_id, name, exchange, account_type, is_paper,
       position_mode, default_leverage, paper_balance, created_at, updated_at)
     select id, 'Paper', 'binance', 'classic', true, 'net', 1, 2500, $1, $1 from owner
     returning id`,
    [at.toISOString()],
  );
  accountId = (rows[0] as { id: number }).id;
  // Ten copy relations with 2,000 orders each, keyed as copy keys are: change|symbol.
  await client.query(
    `insert into execution_orders (account_id, symbol, owner_kind, owner_id, idempotency_key,
       client_order_id, action, side, type, amount, status, created_at, updated_at)
     select $1, 'ETH/USDT:USDT', 'copy', g % ${OWNERS} + 1, 'c' || g || '|ETH', 'q' || g, 'open',
       'buy', 'market', 1, 'filled', $2, $2
     from generate_series(1, ${ORDERS}) g`,
    [accountId, at.toISOString()],
  );
  await client.query('analyze execution_orders');
});
afterAll(async () => {
  await database.close();
});

/** The plan of the last statement sent on execution_orders, as one line per node. */
async function planOfLast(): Promise<string> {
  const last = sent.findLast((s) => s.sql.includes('from "execution_orders"'));
  if (!last) throw new Error('no statement on execution_orders was sent');
  const { rows } = await client.query(`explain ${last.sql}`, last.params);
  return rows.map((row) => Object.values(row as Record<string, string>)[0]).join('\n');
}

describe('intent lookups on a long history', () => {
  it('finds intents by key through the owner-key index', async () => {
    const repo = createExecutionRepository(logged);
    const found = await repo.intentsByKeys([
      { accountId, owner: { kind: 'copy', id: 3 }, key: 'c2|ETH' },
      { accountId, owner: { kind: 'copy', id: 4 }, key: 'c13|ETH' },
    ]);
    expect(found.map((row) => row.idempotencyKey)).toEqual(['c2|ETH', 'c13|ETH']);
    const plan = await planOfLast();
    expect(plan).toContain('execution_orders_owner_key_idx');
    expect(plan).not.toContain('Seq Scan on execution_orders');
  });

  it("finds an owner's intents by key prefix as a range of that index", async () => {
    const repo = createExecutionRepository(logged);
    const found = await repo.intentsOf({ kind: 'copy', id: 8 }, 'c17|');
    expect(found.map((row) => row.idempotencyKey)).toEqual(['c17|ETH']);
    const plan = await planOfLast();
    expect(plan).toContain('execution_orders_owner_key_idx');
    expect(plan).not.toContain('Seq Scan on execution_orders');
  });
});
