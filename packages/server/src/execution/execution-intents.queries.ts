import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { LeaseFence } from '../common/leases.js';
import { anyOf, arrayOf, tuplesIn, unnestRows, updateRows } from '../db/batch-sql.js';
import type { Database } from '../db/database.js';
import {
  type ExecutionOrderRow,
  executionOrders,
  isLiveOrder,
  type NewExecutionOrderRow,
  workerLeases,
} from '../db/schema/index.js';
import type { OrderOwner } from '../events/event-bus.types.js';
import type { IntentKey } from './execution.repository.js';
import type { PositionRef } from './execution.types.js';
import { positionTuple } from './execution-positions.queries.js';
import { transition } from './order-states.js';

// The execution core's queries on intents (execution_orders): keys, claims, misses, saves.

/** Intents by key, written, and their state changed. */
function intentWrites(db: Database) {
  return {
    /** Intents already written for these (account, owner, key), every leg. */
    async intentsByKeys(keys: readonly IntentKey[]): Promise<ExecutionOrderRow[]> {
      if (keys.length === 0) return [];
      return db
        .select()
        .from(executionOrders)
        .where(
          tuplesIn(
            [
              executionOrders.accountId,
              executionOrders.ownerKind,
              executionOrders.ownerId,
              executionOrders.idempotencyKey,
            ],
            keys.map((k) => [k.accountId, k.owner.kind, k.owner.id, k.key]),
          ),
        )
        .orderBy(asc(executionOrders.id));
    },

    /** Writes intents; one whose client order id exists already answers the stored row. */
    async insertIntents(rows: readonly NewExecutionOrderRow[]): Promise<ExecutionOrderRow[]> {
      if (rows.length === 0) return [];
      const inserted = await db
        .insert(executionOrders)
        .select(unnestRows(executionOrders, rows))
        .onConflictDoNothing({ target: [executionOrders.accountId, executionOrders.clientOrderId] })
        .returning();
      if (inserted.length === rows.length) return inserted;
      const written = new Set(inserted.map((i) => `${i.accountId}|${i.clientOrderId}`));
      const missing = rows.filter((row) => !written.has(`${row.accountId}|${row.clientOrderId}`));
      const existing = await db
        .select()
        .from(executionOrders)
        .where(
          tuplesIn(
            [executionOrders.accountId, executionOrders.clientOrderId],
            missing.map((m) => [m.accountId, m.clientOrderId]),
          ),
        );
      return [...inserted, ...existing];
    },

    async updateIntent(
      id: number,
      fields: Partial<Pick<ExecutionOrderRow, 'status' | 'error'>>,
      now: Date,
    ): Promise<void> {
      await db
        .update(executionOrders)
        .set({ ...fields, updatedAt: now })
        .where(eq(executionOrders.id, id));
    },
  };
}

/** The send's fenced claim, withdrawals, and lookups that missed. */
function intentClaims(db: Database) {
  return {
    /**
     * Claims created intents for sending (state `sending`, with the moment the venue must refuse
     * their requests after) and answers the ids that were still created: an intent another
     * process decided meanwhile is not claimed, and must not be sent.
     */
    async claimForSending(
      claims: readonly { readonly id: number; readonly fence?: LeaseFence | undefined }[],
      now: Date,
      sendExpiresAt: Date,
    ): Promise<number[]> {
      if (claims.length === 0) return [];
      const fenced = claims.filter((c) => c.fence !== undefined);
      // An order whose driver's lease (holder and epoch) is no longer current is not claimed.
      const fencesHold =
        fenced.length === 0
          ? sql`true`
          : sql`not exists (
              select 1 from unnest(
                ${arrayOf(
                  'int4',
                  fenced.map((c) => c.id),
                )},
                ${arrayOf(
                  'text',
                  fenced.map((c) => c.fence?.resource),
                )},
                ${arrayOf(
                  'text',
                  fenced.map((c) => c.fence?.holder),
                )},
                ${arrayOf(
                  'int4',
                  fenced.map((c) => c.fence?.epoch),
                )}
              ) as f(id, resource, holder, epoch)
              where f.id = ${executionOrders.id} and not exists (
                select 1 from ${workerLeases} l
                where l.resource = f.resource and l.holder = f.holder and l.epoch = f.epoch
                  and l.expires_at > now()))`;
      const rows = await db
        .update(executionOrders)
        .set({ status: 'sending', sendExpiresAt, updatedAt: now })
        .where(
          and(
            anyOf(
              executionOrders.id,
              claims.map((c) => c.id),
            ),
            eq(executionOrders.status, 'created'),
            fencesHold,
          ),
        )
        .returning({ id: executionOrders.id });
      return rows.map((row) => row.id);
    },

    /**
     * Cancels an intent that is still created (never claimed, so never sent); false when a
     * process claimed or decided it meanwhile.
     */
    async withdrawCreated(id: number, error: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(executionOrders)
        .set({ status: transition('created', { kind: 'withdrawn' }), error, updatedAt: now })
        .where(and(eq(executionOrders.id, id), eq(executionOrders.status, 'created')))
        .returning({ id: executionOrders.id });
      return rows.length > 0;
    },

    /** A lookup by client order id found nothing: counted, with the first miss's time. */
    async recordMiss(
      id: number,
      status: ExecutionOrderRow['status'],
      now: Date,
    ): Promise<ExecutionOrderRow | undefined> {
      const [row] = await db
        .update(executionOrders)
        .set({
          status,
          lookupMisses: sql`${executionOrders.lookupMisses} + 1`,
          firstMissAt: sql`coalesce(${executionOrders.firstMissAt}, ${now})`,
          updatedAt: now,
        })
        .where(and(eq(executionOrders.id, id), isLiveOrder()))
        .returning();
      return row;
    },
  };
}

/** Intents the follower and the lanes look at: by id, live ones, symbols in flight. */
function intentReads(db: Database) {
  return {
    /** Intents by id (the follower's current view of the orders it drives). */
    async intentsByIds(ids: readonly number[]): Promise<ExecutionOrderRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(executionOrders).where(anyOf(executionOrders.id, ids));
    },

    /** Live (not final) intents of owners on (account, symbol): an order still on its way. */
    async liveIntentsOn(refs: readonly PositionRef[]): Promise<ExecutionOrderRow[]> {
      if (refs.length === 0) return [];
      return db
        .select()
        .from(executionOrders)
        .where(
          and(
            tuplesIn(
              [
                executionOrders.accountId,
                executionOrders.symbol,
                executionOrders.ownerKind,
                executionOrders.ownerId,
              ],
              refs.map(positionTuple),
            ),
            isLiveOrder(),
            // Resting protective orders wait for the market; they are not "on the way".
            inArray(executionOrders.type, ['market', 'limit']),
          ),
        );
    },

    /** Symbols of an account with an order of any owner still on its way (sent, not final). */
    async symbolsInFlight(accountId: number): Promise<string[]> {
      const rows = await db
        .selectDistinct({ symbol: executionOrders.symbol })
        .from(executionOrders)
        .where(
          and(
            eq(executionOrders.accountId, accountId),
            isLiveOrder(),
            ne(executionOrders.status, 'created'),
            inArray(executionOrders.type, ['market', 'limit']),
          ),
        );
      return rows.map((row) => row.symbol);
    },
  };
}

/** A settlement's intents: locked, then saved. */
function intentSettlement(db: Database) {
  return {
    /** Intents locked for a settlement (FOR UPDATE): a settled one is never applied twice. */
    async lockIntents(ids: readonly number[]): Promise<ExecutionOrderRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(executionOrders).where(anyOf(executionOrders.id, ids)).for('update');
    },

    /** Writes what settling changed of intents (the id picks the row). */
    async saveIntents(rows: readonly ExecutionOrderRow[]): Promise<void> {
      if (rows.length === 0) return;
      // Only what a settlement changes is sent: the rows exist (they are locked by the caller).
      await db.execute(
        updateRows(
          executionOrders,
          executionOrders.id,
          [
            executionOrders.status,
            executionOrders.exchangeOrderId,
            executionOrders.filledAmount,
            executionOrders.averagePrice,
            executionOrders.fee,
            executionOrders.realizedPnl,
            executionOrders.error,
            executionOrders.lookupMisses,
            executionOrders.firstMissAt,
            executionOrders.updatedAt,
          ],
          rows,
        ),
      );
    },
  };
}

/** An owner's intents: unsettled ones, by venue id, by key prefix. */
function ownerIntents(db: Database) {
  return {
    /** Pending or unknown intents of an owner (after a restart: look them up, never resend). */
    async unsettledIntentsOf(owner: OrderOwner): Promise<ExecutionOrderRow[]> {
      return db
        .select()
        .from(executionOrders)
        .where(
          and(
            eq(executionOrders.ownerKind, owner.kind),
            eq(executionOrders.ownerId, owner.id),
            isLiveOrder(),
          ),
        )
        .orderBy(asc(executionOrders.id));
    },

    /** Which of these owners have pending or unknown intents (one query for all). */
    async ownersWithUnsettledIntents(owners: readonly OrderOwner[]): Promise<OrderOwner[]> {
      if (owners.length === 0) return [];
      return db
        .selectDistinct({ kind: executionOrders.ownerKind, id: executionOrders.ownerId })
        .from(executionOrders)
        .where(
          and(
            tuplesIn(
              [executionOrders.ownerKind, executionOrders.ownerId],
              owners.map((o) => [o.kind, o.id]),
            ),
            isLiveOrder(),
          ),
        );
    },

    async intentByExchangeOrderId(
      accountId: number,
      exchangeOrderId: string,
    ): Promise<ExecutionOrderRow | undefined> {
      const [row] = await db
        .select()
        .from(executionOrders)
        .where(
          and(
            eq(executionOrders.accountId, accountId),
            eq(executionOrders.exchangeOrderId, exchangeOrderId),
          ),
        );
      return row;
    },

    /** An owner's intents (those whose key starts with `keyPrefix`, when given), oldest first. */
    async intentsOf(owner: OrderOwner, keyPrefix?: string): Promise<ExecutionOrderRow[]> {
      return db
        .select()
        .from(executionOrders)
        .where(
          and(
            eq(executionOrders.ownerKind, owner.kind),
            eq(executionOrders.ownerId, owner.id),
            keyPrefix === undefined
              ? undefined
              : sql`starts_with(${executionOrders.idempotencyKey}, ${keyPrefix})`,
          ),
        )
        .orderBy(asc(executionOrders.id));
    },
  };
}

export function intentQueries(db: Database) {
  return {
    ...intentWrites(db),
    ...intentClaims(db),
    ...intentReads(db),
    ...intentSettlement(db),
    ...ownerIntents(db),
  };
}
