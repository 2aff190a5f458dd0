// The strategy square's list under load: GET /api/strategy-square/strategies/ at 50 connections
// from PostgreSQL holding 10,000 public strategies with a year of hourly snapshots each (87.6 M
// balance snapshots, seeded once into the database `qs_bench_square` and reused by later runs),
// the default sort and sharpe_ratio with a search term, against GET /api/health/ in the same
// run. The metrics are computed by the square's own metrics service (timed as well).
import { createRequire } from 'node:module';
import pg from 'pg';
import { systemClock } from '../packages/server/src/common/clock.js';
import { openPostgres } from '../packages/server/src/db/client.js';
import { createInProcessEventBus } from '../packages/server/src/events/index.js';
import { createMetricsRepository } from '../packages/server/src/modules/square/metrics.repository.js';
import { createMetricsService } from '../packages/server/src/modules/square/metrics.service.js';
import { type RunningServer, startServer } from './server-process.js';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  requests?: { path: string }[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const STRATEGIES = 10_000;
const HOURS = 365 * 24;
const CONNECTIONS = 50;
const DURATION_S = 10;
const DATABASE = 'qs_bench_square';
const SERVER_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADJECTIVES = [
  'swift',
  'calm',
  'bold',
  'lucky',
  'steady',
  'silent',
  'golden',
  'brave',
  'quiet',
  'rapid',
  'wise',
  'keen',
  'prime',
  'solid',
  'sharp',
  'noble',
  'bright',
  'cool',
  'deep',
  'wild',
];
const NOUNS = [
  'dragon',
  'tiger',
  'falcon',
  'wolf',
  'bear',
  'whale',
  'fox',
  'eagle',
  'shark',
  'lion',
  'panda',
  'hawk',
  'otter',
  'bull',
  'crane',
  'viper',
  'raven',
  'lynx',
  'orca',
  'bison',
  'heron',
  'cobra',
  'moose',
  'koala',
  'mantis',
];

const databaseUrl = () => {
  const url = new URL(SERVER_URL);
  url.pathname = `/${DATABASE}`;
  return url.toString();
};

async function ensureDatabase(): Promise<void> {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
}

/** Seeds users, accounts, share settings and a year of hourly equity; answers whether it did. */
async function seed(client: pg.Client, log: (line: string) => void): Promise<boolean> {
  const done = await client.query(
    `select (select count(*)::int from strategy_share_settings where is_public) as strategies,
            (select count(*)::int from balance_snapshots where account_id = $1) as hours`,
    [STRATEGIES],
  );
  if (done.rows[0].strategies === STRATEGIES && done.rows[0].hours === HOURS) return false;
  await client.query(
    'truncate users, exchange_accounts, balance_snapshots, strategy_share_settings, strategy_metrics restart identity cascade',
  );
  const now = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  await client.query(
    `insert into users (username, password_hash, invitation_code, nickname, date_joined)
     select 'bench' || i || '@example.com', 'x', 'BENCH' || i, 'trader ' || i, $1::timestamptz - interval '400 days'
     from generate_series(1, $2::int) i`,
    [now.toISOString(), STRATEGIES],
  );
  await client.query(
    `insert into exchange_accounts (user_id, name, exchange, account_type, is_paper, position_mode,
       default_leverage, paper_balance, created_at, updated_at)
     select i, 'account ' || i, case when i % 3 = 0 then 'okx' else 'binance' end, 'classic', true, 'net',
       5, 10000, $1::timestamptz - interval '366 days', $1::timestamptz
     from generate_series(1, $2::int) i`,
    [now.toISOString(), STRATEGIES],
  );
  await client.query(
    `insert into strategy_share_settings (account_id, user_id, name, is_public, copiers_count,
       published_at, created_at, updated_at)
     select i, i, ($3::text[])[1 + i % 20] || ' ' || ($4::text[])[1 + (i / 20) % 25] || ' ' || i, true,
       (i * 37) % 200, $1::timestamptz - (i % 365) * interval '1 day', $1::timestamptz, $1::timestamptz
     from generate_series(1, $2::int) i`,
    [now.toISOString(), STRATEGIES, ADJECTIVES, NOUNS],
  );
  // A year of hourly equity per account: a drift of its own plus two waves (so returns, drawdowns
  // and Sharpe ratios differ from one strategy to the next). The unique index is built once after.
  await client.query('drop index if exists balance_snapshots_account_taken_idx');
  await client.query('set synchronous_commit = off');
  const chunk = 500;
  const started = Date.now();
  for (let lo = 1; lo <= STRATEGIES; lo += chunk) {
    await client.query(
      `insert into balance_snapshots (account_id, taken_at, equity, daily_pnl)
       select a, $1::timestamptz - h * interval '1 hour',
         round((10000 * exp(((a * 7919) % 21 - 10) * 0.000004 * ($4::int - h)
           + 0.03 * sin(h / (20.0 + a % 37)) + 0.01 * sin(h / (3.0 + a % 5))))::numeric, 4), 0
       from generate_series($2::int, $3::int) a cross join generate_series(0, $4::int - 1) h`,
      [now.toISOString(), lo, Math.min(lo + chunk - 1, STRATEGIES), HOURS],
    );
    if ((lo - 1) % 1_000 === 0) {
      log(
        `  seeding snapshots: ${lo - 1 + chunk} / ${STRATEGIES} accounts (${Math.round((Date.now() - started) / 1000)} s)`,
      );
    }
  }
  log('  building the snapshots index');
  await client.query("set maintenance_work_mem = '512MB'");
  await client.query(
    'create unique index balance_snapshots_account_taken_idx on balance_snapshots (account_id, taken_at)',
  );
  await client.query('analyze');
  return true;
}

/** Every strategy's figures through the metrics service, 4 at a time; answers the seconds. */
async function computeMetrics(): Promise<number> {
  const handle = await openPostgres(databaseUrl(), { migrate: false });
  const bus = createInProcessEventBus({ clock: systemClock });
  try {
    const repo = createMetricsRepository(handle.db);
    const service = createMetricsService({ repo, clock: systemClock, events: bus });
    const ids = await repo.publicAccountIds();
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < ids.length) {
          const id = ids[next++];
          if (id !== undefined) await service.refreshAccount(id);
        }
      }),
    );
    return (Date.now() - started) / 1000;
  } finally {
    await bus.close();
    await handle.close();
  }
}

export async function benchSquare(port: number, log: (line: string) => void): Promise<string[]> {
  await ensureDatabase();
  // Migrations first (the server would apply them too), then the data.
  await (await openPostgres(databaseUrl(), { migrate: true })).close();
  const client = new pg.Client({ connectionString: databaseUrl() });
  await client.connect();
  const lines: string[] = [];
  try {
    const seeded = await seed(client, log);
    const sparklines = await client.query(
      `select (select count(*)::int from strategy_sparklines) as sparklines,
              (select count(*)::int from strategy_metrics) as metrics`,
    );
    const { sparklines: sparklineRows, metrics: metricRows } = sparklines.rows[0];
    if (seeded || sparklineRows < STRATEGIES || metricRows < STRATEGIES * 4) {
      const seconds = await computeMetrics();
      // As a fresh install's table would be (recomputing every row twice leaves it bloated).
      await client.query('vacuum full analyze strategy_metrics');
      lines.push(
        `metrics of ${STRATEGIES.toLocaleString('en')} strategies × ${HOURS.toLocaleString('en')} hourly snapshots: ${seconds.toFixed(0)} s (${((seconds * 1000) / STRATEGIES).toFixed(1)} ms each, 4 at a time)`,
      );
    } else {
      lines.push(`reused the seeded database ${DATABASE}`);
    }
    const sizes = await client.query(
      `select (select count(*) from strategy_share_settings where is_public)::int as strategies,
              pg_size_pretty(pg_total_relation_size('balance_snapshots')) as snapshots_size,
              (select reltuples::bigint from pg_class where relname = 'balance_snapshots') as snapshots`,
    );
    const s = sizes.rows[0];
    lines.push(
      `${s.strategies.toLocaleString('en')} public strategies, ~${Number(s.snapshots).toLocaleString('en')} balance snapshots (${s.snapshots_size})`,
    );
  } finally {
    await client.end();
  }

  const server: RunningServer = await startServer(
    port,
    { DATABASE_URL: databaseUrl() },
    { apiOnly: true },
  );
  try {
    const list = `${server.baseUrl}/api/strategy-square/strategies/`;
    const probe = await fetch(`${list}?sort=sharpe_ratio&search=dragon`);
    const body = (await probe.json()) as { results?: unknown[]; count?: number };
    if (!probe.ok || body.results?.length !== 12) {
      return [
        ...lines,
        `the square answered ${probe.status} with ${body.results?.length ?? 0} cards: skipped`,
      ];
    }
    lines.push(
      `autocannon, ${CONNECTIONS} connections, ${DURATION_S} s each ('dragon' matches ${body.count} names)`,
    );
    const terms = ADJECTIVES.flatMap((a) => NOUNS.map((n) => `${a}%20${n}`));
    const rows: [string, string, { path: string }[] | undefined][] = [
      ['GET /api/health/', `${server.baseUrl}/api/health/`, undefined],
      ['square, default (copiers, monthly)', list, undefined],
      [
        'square, sort=sharpe_ratio&search=dragon',
        `${list}?sort=sharpe_ratio&search=dragon`,
        undefined,
      ],
      [
        `square, sharpe_ratio, ${terms.length} rotating searches`,
        list,
        terms.map((term) => ({
          path: `/api/strategy-square/strategies/?sort=sharpe_ratio&search=${term}`,
        })),
      ],
      [
        'square, sort=pnl&period=weekly&page=50',
        `${list}?sort=pnl&period=weekly&page=50`,
        undefined,
      ],
    ];
    const results: AutocannonResult[] = [];
    for (const [name, url, requests] of rows) {
      const result = await autocannon({
        url,
        connections: CONNECTIONS,
        duration: DURATION_S,
        ...(requests ? { requests } : {}),
      });
      results.push(result);
      lines.push(
        `  ${name.padEnd(48)} ${Math.round(result.requests.average).toLocaleString('en').padStart(7)} req/s  p50 ${result.latency.p50} ms  p99 ${result.latency.p99} ms  non-2xx ${result.non2xx}  errors ${result.errors}`,
      );
    }
    const health = results[0]?.requests.average ?? 0;
    if (health > 0) {
      lines.push(
        `  throughput / health: ${results
          .slice(1)
          .map((r) => (r.requests.average / health).toFixed(2))
          .join(', ')} (goal: ≥ 2,000 req/s, p99 ≤ 50 ms)`,
      );
    }
    return lines;
  } finally {
    await server.stop();
  }
}
