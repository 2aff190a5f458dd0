import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { systemClock } from '../common/clock.js';
import { DomainError } from '../common/errors.js';
import {
  type Config,
  databaseLocationFromEnvironment,
  loadConfigFromEnvironment,
} from '../config.js';
import { openDatabase } from '../db/client.js';
import { OWNER_ONLY_UMASK } from '../db/data-dir.js';
import { acquireDataDirLock, readLiveLockHolder } from '../db/lock.js';
import { createInProcessEventBus } from '../events/index.js';
import { createAdminService } from '../modules/admin/admin.service.js';
import { sendAdminCommand } from './admin-socket.js';

const USAGE = `Usage:
  npm run admin -- create-staff --email E --password P
  npm run admin -- grant-vip --email E --days N
  npm run admin -- credit --email E --amount N --reason R [--request-id ID]
    credits N platform coins (a negative N debits; refused below zero) as an adjustment row
  npm run admin -- check-ledger
    verifies every balance against the ledger; prints the users that differ and exits 1
  OLD_SECRET_KEY=<previous key> npm run admin -- rotate-secret-key
    re-encrypts stored secrets (TOTP seeds, exchange API keys) under SECRET_KEY; while the
    server runs on the embedded database, the server's own SECRET_KEY/OLD_SECRET_KEY are used`;

// The CLI's output is its interface: one line on stdout (result) or stderr (error).
const print = (line: string) => process.stdout.write(`${line}\n`);
const fail = (line: string): never => {
  process.stderr.write(`${line}\n`);
  process.exit(1);
};

/** Admin actions go to the admin_actions table; this echoes them on stderr as JSON lines. */
const cliLog = {
  info: (obj: Record<string, unknown>, msg: string) =>
    process.stderr.write(`${JSON.stringify({ level: 'info', msg, ...obj })}\n`),
};

/** `--amount -5` reads as `--amount=-5` (parseArgs takes a leading dash for an option). */
function joinNegativeAmounts(argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    if (arg === '--amount' && next !== undefined && /^-\d/.test(next)) {
      joined.push(`--amount=${next}`);
      i++;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

function parseCommand(argv: string[]): Record<string, unknown> {
  const { positionals, values } = parseArgs({
    args: joinNegativeAmounts(argv),
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      days: { type: 'string' },
      amount: { type: 'string' },
      reason: { type: 'string' },
      'request-id': { type: 'string' },
    },
  });
  const [command] = positionals;
  if (!command) fail(USAGE);
  return { command, ...values };
}

/** Says which database a command works on (stderr: stdout is the result line). */
const tell = (line: string) => process.stderr.write(`${line}\n`);

/** A PostgreSQL URL without its password, for the "which database" line. */
function describePostgres(url: string): string {
  try {
    const parsed = new URL(url);
    return `PostgreSQL ${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname} (DATABASE_URL)`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/** Runs the command in this process on the database (the caller holds the lock for PGlite). */
async function runLocally(config: Config, command: Record<string, unknown>): Promise<string> {
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await createAdminService({
      db: database.db,
      clock: systemClock,
      log: cliLog,
      secretKeys: { current: config.secretKey, old: config.oldSecretKey },
      // A command run here has no server to tell: nobody listens to its own bus.
      events: createInProcessEventBus({ clock: systemClock }),
    }).run(command);
  } finally {
    await database.close();
  }
}

async function main(): Promise<void> {
  let command: Record<string, unknown>;
  try {
    command = parseCommand(process.argv.slice(2));
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  process.umask(OWNER_ONLY_UMASK);
  const location = databaseLocationFromEnvironment();
  const pgdata = path.join(location.dataDir, 'pgdata');
  // Never a new empty database (nor a data dir): a command belongs to the server's database.
  if (!location.databaseUrl && !existsSync(path.join(pgdata, 'PG_VERSION'))) {
    fail(
      `No database at ${pgdata}. Set DATA_DIR to the server's data directory ` +
        '(default ./data at the repository root), or start the server once to create it.',
    );
  }
  const config = loadConfigFromEnvironment();

  if (config.databaseUrl) {
    tell(`Database: ${describePostgres(config.databaseUrl)}`);
    print(await runLocally(config, command)); // PostgreSQL takes concurrent clients
    return;
  }
  // A running server holds the embedded database: hand it the command.
  const holder = readLiveLockHolder(config.dataDir);
  if (holder !== undefined) {
    tell(`Database: embedded (PGlite) at ${pgdata}, through the running server (pid ${holder})`);
    const reply = await sendAdminCommand(config.dataDir, command);
    if (!reply.ok) fail(reply.error);
    else print(reply.message);
    return;
  }
  tell(`Database: embedded (PGlite) at ${pgdata}`);
  const lock = acquireDataDirLock(config.dataDir);
  try {
    print(await runLocally(config, command));
  } finally {
    lock.release();
  }
}

main().catch((error: unknown) => {
  if (error instanceof DomainError) fail(error.message);
  fail(`Admin command failed: ${error instanceof Error ? error.message : String(error)}`);
});
