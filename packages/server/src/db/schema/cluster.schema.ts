import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The server processes of a deployment, each beating its heart here: who drives work (role `all`
 * or `worker`) is read from the fresh rows, and leases are shared out among those. Written by
 * `common/cluster.ts` only.
 */
export const clusterMembers = pgTable('cluster_members', {
  /** The process's lease holder id. */
  id: text('id').primaryKey(),
  role: text('role', { enum: ['all', 'api', 'worker'] }).notNull(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  lastHeartbeat: timestamp('last_heartbeat', { withTimezone: true }).notNull(),
});

export type ClusterMemberRow = typeof clusterMembers.$inferSelect;
