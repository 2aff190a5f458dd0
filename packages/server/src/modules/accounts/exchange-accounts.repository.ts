import type { ExchangeApiBot, ExchangeErrorKindCode } from '@quantsquare/contracts';
import { type AnyColumn, and, asc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { retryOnConflict } from '../../db/pg-errors.js';
import {
  bots,
  copyRelations,
  type ExchangeAccountRow,
  exchangeAccounts,
  executionOrders,
  executionPositions,
  isLiveOrder,
  type NewExchangeAccountRow,
  webhookConfigs,
} from '../../db/schema/index.js';
import type { PaperBalanceChange } from '../../exchange/paper/paper-balances.js';

/** A bot's open position in the execution core's book (owner `bot`, size not zero). */
const botHolds = and(
  eq(executionPositions.ownerKind, 'bot'),
  eq(executionPositions.ownerId, bots.id),
  eq(executionPositions.accountId, bots.exchangeAccountId),
  ne(executionPositions.size, '0'),
);

/**
 * Rows (positions or orders) whose owner the account's deletion closes and still exists: its
 * bots, webhook configurations and copies. A configuration deleted earlier left its positions
 * on the account, as its deletion says; they are not this deletion's to hold up.
 */
const ownerLives = (kind: AnyColumn, ownerId: AnyColumn): SQL =>
  or(
    eq(kind, 'bot'),
    and(
      eq(kind, 'webhook'),
      sql`exists (select 1 from ${webhookConfigs} where ${webhookConfigs.id} = ${ownerId})`,
    ),
    and(
      eq(kind, 'copy'),
      sql`exists (select 1 from ${copyRelations} where ${copyRelations.id} = ${ownerId})`,
    ),
  ) as SQL;

/** The outcome of one check of an account against its exchange. */
export type AccountCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly kind: ExchangeErrorKindCode; readonly message: string };

export interface AccountBot extends ExchangeApiBot {
  readonly accountId: number;
}

/** What deleting an account took along, or why it did not. */
export type AccountDeletion =
  | { readonly outcome: 'deleted'; readonly bots: readonly { id: number; symbol: string }[] }
  | { readonly outcome: 'missing' }
  | { readonly outcome: 'running'; readonly bots: readonly { id: number; symbol: string }[] }
  | {
      readonly outcome: 'open_positions';
      /** The symbols with a position or an order in flight of its bots, webhooks or copies. */
      readonly symbols: readonly string[];
    };

export type ExchangeAccountChanges = Partial<
  Omit<NewExchangeAccountRow, 'id' | 'userId' | 'createdAt'>
>;

/** The user's own account `id`. */
const owned = (userId: number, id: number) =>
  and(eq(exchangeAccounts.userId, userId), eq(exchangeAccounts.id, id));

/** The user's accounts: listed, created, changed and deleted. */
function accountRows(db: Database) {
  return {
    async listForUser(userId: number): Promise<ExchangeAccountRow[]> {
      return db
        .select()
        .from(exchangeAccounts)
        .where(eq(exchangeAccounts.userId, userId))
        .orderBy(asc(exchangeAccounts.id));
    },
    /** The account if `userId` owns it; another user's account reads as missing. */
    async findOwned(userId: number, id: number): Promise<ExchangeAccountRow | undefined> {
      const [row] = await db.select().from(exchangeAccounts).where(owned(userId, id));
      return row;
    },
    async listActive(): Promise<ExchangeAccountRow[]> {
      return db
        .select()
        .from(exchangeAccounts)
        .where(eq(exchangeAccounts.isActive, true))
        .orderBy(asc(exchangeAccounts.id));
    },
    async insert(values: NewExchangeAccountRow): Promise<ExchangeAccountRow> {
      const [row] = await db.insert(exchangeAccounts).values(values).returning();
      if (!row) throw new Error('Inserting an exchange account returned no row');
      return row;
    },
    async updateOwned(
      userId: number,
      id: number,
      changes: ExchangeAccountChanges,
    ): Promise<ExchangeAccountRow | undefined> {
      const [row] = await db
        .update(exchangeAccounts)
        .set(changes)
        .where(owned(userId, id))
        .returning();
      return row;
    },
    async deleteOwned(userId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(exchangeAccounts)
        .where(owned(userId, id))
        .returning({ id: exchangeAccounts.id });
      return rows.length > 0;
    },
  };
}

/** Paper balances, stored keys and connection checks. */
function accountRecords(db: Database) {
  return {
    /** Sets paper accounts' balances (the paper desk's fills, in their transaction). */
    async setPaperBalances(changes: readonly PaperBalanceChange[]): Promise<void> {
      if (changes.length === 0) return;
      await db
        .update(exchangeAccounts)
        .set({ paperBalance: sql`u.balance`, updatedAt: sql`u.at` })
        .from(
          sql`unnest(${sql.param(changes.map((c) => c.accountId))}::integer[], ${sql.param(
            changes.map((c) => c.paperBalance),
          )}::numeric[], ${sql.param(
            changes.map((c) => c.at.toISOString()),
          )}::timestamptz[]) as u(id, balance, at)`,
        )
        .where(sql`${exchangeAccounts.id} = u.id`);
    },
    /** Replaces an account's stored key with its new stored form (the secret-key rotation). */
    async setStoredKey(
      id: number,
      field: 'apiKeyEncrypted' | 'apiSecretEncrypted' | 'apiPasswordEncrypted',
      stored: string,
    ): Promise<void> {
      await db
        .update(exchangeAccounts)
        .set({ [field]: stored })
        .where(eq(exchangeAccounts.id, id));
    },
    /** Stores the result of a check: the account's status follows its last check. */
    async recordCheck(id: number, check: AccountCheck, now: Date): Promise<void> {
      await db
        .update(exchangeAccounts)
        .set(
          check.ok
            ? { lastCheckOk: true, lastCheckedAt: now, lastError: null, lastErrorKind: null }
            : {
                lastCheckOk: false,
                lastCheckedAt: now,
                lastError: check.message,
                lastErrorKind: check.kind,
              },
        )
        .where(eq(exchangeAccounts.id, id));
    },
  };
}

/** The bots on accounts, and deleting an account with its bots. */
function accountBots(db: Database) {
  return {
    /** The bots of these accounts (oldest first) and whether each holds a position. */
    async botsOf(accountIds: readonly number[]): Promise<AccountBot[]> {
      if (accountIds.length === 0) return [];
      const rows = await db
        .select({
          id: bots.id,
          accountId: bots.exchangeAccountId,
          symbol: bots.symbol,
          status: bots.status,
          positionId: executionPositions.id,
        })
        .from(bots)
        .leftJoin(executionPositions, botHolds)
        .where(inArray(bots.exchangeAccountId, [...accountIds]))
        .orderBy(asc(bots.id));
      return rows.map((row) => ({
        id: row.id,
        accountId: row.accountId,
        symbol: row.symbol,
        status: row.status,
        has_open_position: row.positionId !== null,
      }));
    },
    /**
     * Deletes the account with its bots in one statement of one transaction, under row locks: refused while one
     * of its bots runs or still holds a position (a bot started in between). `alsoInTransaction`
     * writes what belongs with the delete (the log entries) on the same transaction.
     */
    async deleteOwnedWithBots(
      userId: number,
      id: number,
      alsoInTransaction: (
        tx: Database,
        deleted: readonly { id: number; symbol: string }[],
      ) => Promise<void>,
    ): Promise<AccountDeletion> {
      // The cascade locks rows of many tables; a writer that locked one of them first and then
      // waits for the account makes a deadlock, which PostgreSQL ends by rolling one back.
      return retryOnConflict(() =>
        db.transaction(async (tx) => {
          const [account] = await tx
            .select({ id: exchangeAccounts.id })
            .from(exchangeAccounts)
            .where(owned(userId, id))
            .for('update');
          if (!account) return { outcome: 'missing' } as const;
          const locked = await tx
            .select({ id: bots.id, symbol: bots.symbol, status: bots.status })
            .from(bots)
            .where(eq(bots.exchangeAccountId, id))
            .orderBy(asc(bots.id))
            .for('update');
          const running = locked.filter((bot) => bot.status === 'running');
          const list = (rows: typeof locked) =>
            rows.map((bot) => ({ id: bot.id, symbol: bot.symbol }));
          if (running.length > 0) return { outcome: 'running', bots: list(running) } as const;
          // Nothing may go with the account while one of the owners closed above (bots, webhook
          // configurations, copies) holds a position or has an order in flight on it: a signal or
          // a copy that traded after its owner's positions were closed would otherwise leave a
          // position at the exchange that nothing here knows of.
          const open = await tx
            .selectDistinct({ symbol: executionPositions.symbol })
            .from(executionPositions)
            .where(
              and(
                eq(executionPositions.accountId, id),
                ownerLives(executionPositions.ownerKind, executionPositions.ownerId),
                ne(executionPositions.size, '0'),
              ),
            );
          const inFlight = await tx
            .selectDistinct({ symbol: executionOrders.symbol })
            .from(executionOrders)
            .where(
              and(
                eq(executionOrders.accountId, id),
                ownerLives(executionOrders.ownerKind, executionOrders.ownerId),
                isLiveOrder(),
              ),
            );
          if (open.length > 0 || inFlight.length > 0) {
            return {
              outcome: 'open_positions',
              symbols: [...new Set([...open, ...inFlight].map((row) => row.symbol))].sort(),
            } as const;
          }
          await alsoInTransaction(tx, list(locked));
          // The account's bots (and their orders and trades) go with it: foreign keys cascade.
          await tx.delete(exchangeAccounts).where(owned(userId, id));
          return { outcome: 'deleted', bots: list(locked) } as const;
        }),
      );
    },
  };
}

/** What the platform keeps on an account: paper balances, stored keys, checks, bots. */
function accountState(db: Database) {
  return {
    ...accountRecords(db),
    ...accountBots(db),
  };
}

export function createExchangeAccountsRepository(db: Database) {
  return {
    ...accountRows(db),
    ...accountState(db),
  };
}
export type ExchangeAccountsRepository = ReturnType<typeof createExchangeAccountsRepository>;
