import type {
  WebhookLogEvent,
  WebhookLogLevel,
  WebhookSignalStatus,
  WebhookStep,
} from '@quantsquare/contracts';
import { and, asc, count, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  exchangeAccounts,
  type NewWebhookSignalRow,
  type WebhookConfigRow,
  type WebhookExecutionRow,
  type WebhookSignalRow,
  type WebhookStepRecord,
  webhookConfigs,
  webhookExecutions,
  webhookLogs,
  webhookSignals,
} from '../../db/schema/index.js';
import { trailQueries } from './webhook-trail.queries.js';

export const PENDING_SIGNAL_STATUSES: readonly WebhookSignalStatus[] = [
  'received',
  'validated',
  'intent',
  'placed',
];

export interface ConfigWithAccount {
  readonly config: WebhookConfigRow;
  readonly account: {
    readonly id: number;
    readonly name: string;
    readonly exchange: 'binance' | 'okx';
    readonly isTestnet: boolean;
    readonly isActive: boolean;
  };
}

const accountColumns = {
  id: exchangeAccounts.id,
  name: exchangeAccounts.name,
  exchange: exchangeAccounts.exchange,
  isTestnet: exchangeAccounts.isTestnet,
  isActive: exchangeAccounts.isActive,
};

const stepJson = (step: WebhookStepRecord) => sql`${JSON.stringify([step])}::jsonb`;

/** The configurations, and the accounts they trade on. */
function configQueries(db: Database) {
  return {
    async findOwnedAccount(userId: number, accountId: number) {
      const [row] = await db
        .select(accountColumns)
        .from(exchangeAccounts)
        .where(and(eq(exchangeAccounts.id, accountId), eq(exchangeAccounts.userId, userId)));
      return row;
    },

    async insertConfig(values: typeof webhookConfigs.$inferInsert): Promise<WebhookConfigRow> {
      const [row] = await db.insert(webhookConfigs).values(values).returning();
      return row as WebhookConfigRow;
    },

    async updateConfig(
      userId: number,
      id: number,
      values: Partial<typeof webhookConfigs.$inferInsert>,
    ): Promise<WebhookConfigRow | undefined> {
      const [row] = await db
        .update(webhookConfigs)
        .set(values)
        .where(and(eq(webhookConfigs.id, id), eq(webhookConfigs.userId, userId)))
        .returning();
      return row;
    },

    async updateConfigs(userId: number, ids: readonly number[], values: Partial<WebhookConfigRow>) {
      if (ids.length === 0) return [];
      return db
        .update(webhookConfigs)
        .set(values)
        .where(and(inArray(webhookConfigs.id, [...ids]), eq(webhookConfigs.userId, userId)))
        .returning({ id: webhookConfigs.id, name: webhookConfigs.name });
    },

    async deleteConfigs(userId: number, ids: readonly number[]) {
      if (ids.length === 0) return [];
      return db
        .delete(webhookConfigs)
        .where(and(inArray(webhookConfigs.id, [...ids]), eq(webhookConfigs.userId, userId)))
        .returning({ id: webhookConfigs.id, name: webhookConfigs.name });
    },

    async countConfigs(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(webhookConfigs)
        .where(eq(webhookConfigs.userId, userId));
      return Number(row?.n ?? 0);
    },

    async ownedConfigs(userId: number, id?: number): Promise<ConfigWithAccount[]> {
      const where =
        id === undefined
          ? eq(webhookConfigs.userId, userId)
          : and(eq(webhookConfigs.userId, userId), eq(webhookConfigs.id, id));
      return db
        .select({ config: webhookConfigs, account: accountColumns })
        .from(webhookConfigs)
        .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, webhookConfigs.exchangeAccountId))
        .where(where)
        .orderBy(desc(webhookConfigs.id));
    },

    async configByKeyHash(keyHash: string): Promise<ConfigWithAccount | undefined> {
      const [row] = await db
        .select({ config: webhookConfigs, account: accountColumns })
        .from(webhookConfigs)
        .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, webhookConfigs.exchangeAccountId))
        .where(eq(webhookConfigs.keyHash, keyHash));
      return row;
    },

    /** The configurations of several key hashes at once, in the order asked (undefined: none). */
    async configsByKeyHashes(
      keyHashes: readonly string[],
    ): Promise<(ConfigWithAccount | undefined)[]> {
      const rows = await db
        .select({ config: webhookConfigs, account: accountColumns })
        .from(webhookConfigs)
        .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, webhookConfigs.exchangeAccountId))
        .where(inArray(webhookConfigs.keyHash, [...new Set(keyHashes)]));
      const byHash = new Map(rows.map((row) => [row.config.keyHash, row]));
      return keyHashes.map((hash) => byHash.get(hash));
    },

    async configById(id: number): Promise<ConfigWithAccount | undefined> {
      const [row] = await db
        .select({ config: webhookConfigs, account: accountColumns })
        .from(webhookConfigs)
        .innerJoin(exchangeAccounts, eq(exchangeAccounts.id, webhookConfigs.exchangeAccountId))
        .where(eq(webhookConfigs.id, id));
      return row;
    },

    async disableOnAccount(accountId: number, now: Date): Promise<void> {
      await db
        .update(webhookConfigs)
        .set({ enabled: false, updatedAt: now })
        .where(eq(webhookConfigs.exchangeAccountId, accountId));
    },

    async configIdsOnAccount(accountId: number): Promise<number[]> {
      const rows = await db
        .select({ id: webhookConfigs.id })
        .from(webhookConfigs)
        .where(eq(webhookConfigs.exchangeAccountId, accountId));
      return rows.map((r) => r.id);
    },
  };
}

/** Signals as they arrive: refused ones, and accepted ones kept once per repeat. */
function signalInserts(db: Database) {
  return {
    /** A refused (or otherwise not deduplicated) signal. */
    async insertSignal(values: NewWebhookSignalRow): Promise<WebhookSignalRow> {
      const [row] = await db.insert(webhookSignals).values(values).returning();
      return row as WebhookSignalRow;
    },

    /**
     * An accepted signal with an id: the unique (config, dedupe key) index lets one of any
     * number of concurrent repeats insert; the others answer the first one's id.
     */
    async insertUnlessRepeated(
      values: NewWebhookSignalRow & { dedupeKey: string },
    ): Promise<{ row: WebhookSignalRow; duplicate: boolean }> {
      const [row] = await db
        .insert(webhookSignals)
        .values(values)
        .onConflictDoNothing({ target: [webhookSignals.configId, webhookSignals.dedupeKey] })
        .returning();
      if (row) return { row, duplicate: false };
      const [first] = await db
        .select()
        .from(webhookSignals)
        .where(
          and(
            eq(webhookSignals.configId, values.configId),
            eq(webhookSignals.dedupeKey, values.dedupeKey),
          ),
        );
      if (!first) throw new Error('dedupe conflict without a first signal');
      return { row: first, duplicate: true };
    },

    /**
     * `insertUnlessRepeated` for several signals in one statement: each is new (the first of its
     * (configuration, dedupe key) in the database and in the list) or a repeat of the one stored.
     */
    async insertManyUnlessRepeated(
      values: readonly (NewWebhookSignalRow & { dedupeKey: string })[],
    ): Promise<{ row: WebhookSignalRow; duplicate: boolean }[]> {
      const inserted = await db
        .insert(webhookSignals)
        .values([...values])
        .onConflictDoNothing({ target: [webhookSignals.configId, webhookSignals.dedupeKey] })
        .returning();
      const keyOf = (configId: number, dedupeKey: string | null) => `${configId}\n${dedupeKey}`;
      const fresh = new Map(inserted.map((row) => [keyOf(row.configId, row.dedupeKey), row]));
      const missing = values.filter((v) => !fresh.has(keyOf(v.configId, v.dedupeKey)));
      const firsts = new Map<string, WebhookSignalRow>();
      if (missing.length > 0) {
        const found = await db
          .select()
          .from(webhookSignals)
          .where(
            and(
              inArray(webhookSignals.configId, [...new Set(missing.map((v) => v.configId))]),
              inArray(webhookSignals.dedupeKey, [...new Set(missing.map((v) => v.dedupeKey))]),
            ),
          );
        for (const row of found) firsts.set(keyOf(row.configId, row.dedupeKey), row);
      }
      const taken = new Set<string>();
      return values.map((v) => {
        const key = keyOf(v.configId, v.dedupeKey);
        const row = fresh.get(key);
        // The first of a key in the list is the one inserted; later ones repeat it.
        if (row && !taken.has(key)) {
          taken.add(key);
          return { row, duplicate: false };
        }
        const first = row ?? firsts.get(key);
        if (!first) throw new Error('dedupe conflict without a first signal');
        return { row: first, duplicate: true };
      });
    },

    /**
     * An accepted signal without an id: the same body on the configuration within `windowMs`
     * is the same signal. Serialised per (configuration, body) by a transaction lock, so
     * concurrent repeats see each other.
     */
    async insertUnlessSameBody(
      values: NewWebhookSignalRow,
      windowMs: number,
    ): Promise<{ row: WebhookSignalRow; duplicate: boolean }> {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(${values.configId}::int, hashtext(${values.bodyHash}))`,
        );
        const since = new Date(values.receivedAt.getTime() - windowMs);
        const [first] = await tx
          .select()
          .from(webhookSignals)
          .where(
            and(
              eq(webhookSignals.configId, values.configId),
              eq(webhookSignals.bodyHash, values.bodyHash),
              isNotNull(webhookSignals.dedupeKey),
              gte(webhookSignals.receivedAt, since),
            ),
          )
          .orderBy(asc(webhookSignals.id))
          .limit(1);
        if (first) return { row: first, duplicate: true };
        const [row] = await tx.insert(webhookSignals).values(values).returning();
        return { row: row as WebhookSignalRow, duplicate: false };
      });
    },
  };
}

/** Signals as the executor takes them: its queue, their steps, and the lists' summaries. */
function signalQueue(db: Database) {
  return {
    /** Signal counts and the latest signal per configuration. */
    async signalSummaries(configIds: readonly number[]) {
      if (configIds.length === 0)
        return new Map<
          number,
          { n: number; lastAt: Date | null; lastStatus: WebhookSignalStatus | null }
        >();
      const counts = await db
        .select({
          configId: webhookSignals.configId,
          n: count(),
          lastId: sql<number>`max(${webhookSignals.id})`,
        })
        .from(webhookSignals)
        .where(inArray(webhookSignals.configId, [...configIds]))
        .groupBy(webhookSignals.configId);
      const lastIds = counts.map((c) => Number(c.lastId));
      const lasts = lastIds.length
        ? await db
            .select({
              id: webhookSignals.id,
              at: webhookSignals.receivedAt,
              status: webhookSignals.status,
            })
            .from(webhookSignals)
            .where(inArray(webhookSignals.id, lastIds))
        : [];
      const byId = new Map(lasts.map((l) => [l.id, l]));
      return new Map(
        counts.map((c) => {
          const last = byId.get(Number(c.lastId));
          return [
            c.configId,
            { n: Number(c.n), lastAt: last?.at ?? null, lastStatus: last?.status ?? null },
          ];
        }),
      );
    },

    async signal(id: number): Promise<WebhookSignalRow | undefined> {
      const [row] = await db.select().from(webhookSignals).where(eq(webhookSignals.id, id));
      return row;
    },

    /** Moves a signal to `status`, appending its step (and any other columns). */
    async advance(
      id: number,
      status: WebhookSignalStatus,
      step: { step: WebhookStep; at: Date; detail: string | null },
      extra: Partial<
        Pick<WebhookSignalRow, 'reason' | 'message' | 'errorKind' | 'totalLatencyMs' | 'finishedAt'>
      > = {},
    ): Promise<void> {
      await db
        .update(webhookSignals)
        .set({
          status,
          steps: sql`${webhookSignals.steps} || ${stepJson({ step: step.step, at: step.at.toISOString(), detail: step.detail })}`,
          ...extra,
        })
        .where(eq(webhookSignals.id, id));
    },

    /** The configurations with signals waiting (validated) or left in flight (intent, placed). */
    async configsWithPendingSignals(): Promise<number[]> {
      const rows = await db
        .selectDistinct({ configId: webhookSignals.configId })
        .from(webhookSignals)
        .where(inArray(webhookSignals.status, ['validated', 'intent', 'placed']));
      return rows.map((row) => row.configId);
    },

    /** The ids of a configuration's signals in `statuses`, oldest first (at most `limit`). */
    async signalIdsOf(
      configId: number,
      statuses: readonly WebhookSignalStatus[],
      limit: number,
    ): Promise<number[]> {
      const rows = await db
        .select({ id: webhookSignals.id })
        .from(webhookSignals)
        .where(
          and(eq(webhookSignals.configId, configId), inArray(webhookSignals.status, [...statuses])),
        )
        .orderBy(asc(webhookSignals.id))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** Those of `configIds` that have validated signals waiting. */
    async configsWaiting(configIds: readonly number[]): Promise<number[]> {
      if (configIds.length === 0) return [];
      const rows = await db
        .selectDistinct({ configId: webhookSignals.configId })
        .from(webhookSignals)
        .where(
          and(
            inArray(webhookSignals.configId, [...configIds]),
            eq(webhookSignals.status, 'validated'),
          ),
        );
      return rows.map((row) => row.configId);
    },
  };
}

/** Executions and the log. */
function executionQueries(db: Database) {
  return {
    async insertExecution(
      values: typeof webhookExecutions.$inferInsert,
    ): Promise<WebhookExecutionRow> {
      const [row] = await db
        .insert(webhookExecutions)
        .values(values)
        .onConflictDoNothing({ target: [webhookExecutions.configId, webhookExecutions.intentKey] })
        .returning();
      if (row) return row;
      const [first] = await db
        .select()
        .from(webhookExecutions)
        .where(
          and(
            eq(webhookExecutions.configId, values.configId),
            eq(webhookExecutions.intentKey, values.intentKey),
          ),
        );
      return first as WebhookExecutionRow;
    },

    async updateExecution(id: number, values: Partial<WebhookExecutionRow>): Promise<void> {
      await db.update(webhookExecutions).set(values).where(eq(webhookExecutions.id, id));
    },

    async signalsByIds(ids: readonly number[]): Promise<WebhookSignalRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(webhookSignals)
        .where(inArray(webhookSignals.id, [...ids]));
    },

    async executionsOfSignals(signalIds: readonly number[]): Promise<WebhookExecutionRow[]> {
      if (signalIds.length === 0) return [];
      return db
        .select()
        .from(webhookExecutions)
        .where(inArray(webhookExecutions.signalId, [...signalIds]))
        .orderBy(asc(webhookExecutions.id));
    },

    async insertLogs(rows: readonly (typeof webhookLogs.$inferInsert)[]): Promise<void> {
      if (rows.length > 0) await db.insert(webhookLogs).values([...rows]);
    },

    async insertLog(values: {
      userId: number | null;
      configId: number | null;
      configName: string | null;
      signalId: number | null;
      level: WebhookLogLevel;
      event: WebhookLogEvent;
      message: string;
      sourceIp: string | null;
      createdAt: Date;
    }): Promise<void> {
      await db.insert(webhookLogs).values(values);
    },
  };
}

export function createWebhooksRepository(db: Database) {
  return {
    ...trailQueries(db),
    ...configQueries(db),
    ...signalInserts(db),
    ...signalQueue(db),
    ...executionQueries(db),
  };
}
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
