import type { OptimisationRequestParsed, OptimisationStatus } from '@quantsquare/contracts';
import type { CombinationResult } from '@quantsquare/engine';
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users.schema.js';

// Parameter optimisations (src/modules/optimisations/): written by that module only.

/** A window as stored: candle index ranges and their open times (ms). */
export interface StoredOptimisationWindow {
  readonly index: number;
  readonly in_sample: {
    start_index: number;
    end_index: number;
    start_time: number;
    end_time: number;
  };
  readonly out_of_sample: {
    start_index: number;
    end_index: number;
    start_time: number;
    end_time: number;
  };
}

export interface StoredSkippedCombination {
  readonly parameters: Record<string, number>;
  readonly fields: Record<string, string[]>;
}

/** One walk-forward optimisation run: its request, progress and results (one row, jsonb). */
export const optimisations = pgTable(
  'optimisations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<OptimisationStatus>().notNull(),
    /** Share of combinations done, 0–1 (a ratio, not money). */
    progress: doublePrecision('progress').notNull().default(0),
    request: jsonb('request').$type<OptimisationRequestParsed>().notNull(),
    /** Resolved strategy type (built-in or custom:<id>). */
    strategyType: text('strategy_type').notNull(),
    source: text('source').$type<'live' | 'simulated'>().notNull(),
    candleCount: integer('candle_count').notNull(),
    windows: jsonb('windows').$type<StoredOptimisationWindow[]>().notNull(),
    combinationCount: integer('combination_count').notNull(),
    completedCount: integer('completed_count').notNull().default(0),
    skipped: jsonb('skipped').$type<StoredSkippedCombination[]>().notNull(),
    /**
     * The engine's figures as computed (floats, final_balance included); the API writes their
     * money as decimal strings when it answers (optimisations.mappers.ts), so rows of any age
     * answer alike.
     */
    results: jsonb('results').$type<CombinationResult[]>().notNull(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('optimisations_user_idx').on(t.userId, t.id)],
);

export type OptimisationRow = typeof optimisations.$inferSelect;
export type NewOptimisationRow = typeof optimisations.$inferInsert;
