import type { WebhookLogEvent } from '@quantsquare/contracts';
import { and, count, desc, eq, gte, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database.js';
import {
  webhookConfigs,
  webhookExecutions,
  webhookLogs,
  webhookSignals,
} from '../../db/schema/index.js';

// The webhook trail as the lists read it: signals, executions and logs by page, and the
// signals' outcome and latency statistics.

export interface TrailFilter {
  readonly userId: number;
  readonly configId?: number | undefined;
  readonly status?: string | undefined;
  readonly event?: string | undefined;
  readonly since?: Date | undefined;
  readonly until?: Date | undefined;
  readonly page: number;
  readonly pageSize: number;
}

/** The one filter of the trail lists: the user's rows, of a configuration, status and period. */
function trailWhere(
  table: {
    readonly userId: AnyPgColumn;
    readonly configId: AnyPgColumn;
    readonly status: AnyPgColumn;
  },
  at: AnyPgColumn,
  filter: TrailFilter,
): SQL | undefined {
  return and(
    eq(table.userId, filter.userId),
    filter.configId === undefined ? undefined : eq(table.configId, filter.configId),
    filter.status === undefined ? undefined : eq(table.status, filter.status),
    filter.since === undefined ? undefined : gte(at, filter.since),
    filter.until === undefined ? undefined : lt(at, filter.until),
  );
}

const pageOffset = (filter: TrailFilter) => (filter.page - 1) * filter.pageSize;

export function trailQueries(db: Database) {
  return {
    async signalsPage(filter: TrailFilter) {
      const where = trailWhere(webhookSignals, webhookSignals.receivedAt, filter);
      const [total] = await db.select({ n: count() }).from(webhookSignals).where(where);
      const rows = await db
        .select({ signal: webhookSignals, configName: webhookConfigs.name })
        .from(webhookSignals)
        .innerJoin(webhookConfigs, eq(webhookConfigs.id, webhookSignals.configId))
        .where(where)
        .orderBy(desc(webhookSignals.id))
        .limit(filter.pageSize)
        .offset(pageOffset(filter));
      return { rows, total: Number(total?.n ?? 0) };
    },

    async ownedSignal(userId: number, id: number) {
      const [row] = await db
        .select({ signal: webhookSignals, configName: webhookConfigs.name })
        .from(webhookSignals)
        .innerJoin(webhookConfigs, eq(webhookConfigs.id, webhookSignals.configId))
        .where(and(eq(webhookSignals.id, id), eq(webhookSignals.userId, userId)));
      return row;
    },

    async executionsPage(filter: TrailFilter) {
      const where = trailWhere(webhookExecutions, webhookExecutions.createdAt, filter);
      const [total] = await db.select({ n: count() }).from(webhookExecutions).where(where);
      const rows = await db
        .select({ execution: webhookExecutions, configName: webhookConfigs.name })
        .from(webhookExecutions)
        .innerJoin(webhookConfigs, eq(webhookConfigs.id, webhookExecutions.configId))
        .where(where)
        .orderBy(desc(webhookExecutions.id))
        .limit(filter.pageSize)
        .offset(pageOffset(filter));
      return { rows, total: Number(total?.n ?? 0) };
    },

    async logsPage(filter: TrailFilter) {
      const where = and(
        trailWhere(
          { userId: webhookLogs.userId, configId: webhookLogs.configId, status: webhookLogs.level },
          webhookLogs.createdAt,
          filter,
        ),
        filter.event === undefined
          ? undefined
          : eq(webhookLogs.event, filter.event as WebhookLogEvent),
      );
      const [total] = await db.select({ n: count() }).from(webhookLogs).where(where);
      const rows = await db
        .select()
        .from(webhookLogs)
        .where(where)
        .orderBy(desc(webhookLogs.id))
        .limit(filter.pageSize)
        .offset(pageOffset(filter));
      return { rows, total: Number(total?.n ?? 0) };
    },

    /** Counts per status and the receive-to-fill latency percentiles of filled signals. */
    async stats(userId: number, configId: number | undefined, since: Date | undefined) {
      const where = and(
        eq(webhookSignals.userId, userId),
        configId === undefined ? undefined : eq(webhookSignals.configId, configId),
        since === undefined ? undefined : gte(webhookSignals.receivedAt, since),
      ) as SQL;
      const byStatus = await db
        .select({ status: webhookSignals.status, n: count() })
        .from(webhookSignals)
        .where(where)
        .groupBy(webhookSignals.status);
      const [latency] = await db
        .select({
          median: sql<
            string | null
          >`percentile_cont(0.5) within group (order by ${webhookSignals.totalLatencyMs})`,
          p99: sql<
            string | null
          >`percentile_cont(0.99) within group (order by ${webhookSignals.totalLatencyMs})`,
        })
        .from(webhookSignals)
        .where(
          and(where, eq(webhookSignals.status, 'filled'), isNotNull(webhookSignals.totalLatencyMs)),
        );
      return {
        byStatus: byStatus.map((r) => ({ status: r.status, n: Number(r.n) })),
        median: latency?.median == null ? null : Number(latency.median),
        p99: latency?.p99 == null ? null : Number(latency.p99),
      };
    },
  };
}
