import type { RuleSet } from '@quantsquare/contracts';
import {
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { users } from './users.schema.js';

// Rule-based strategies users build (src/modules/user-strategies/): written by that module only.

const percent = (name: string) => numeric(name, { precision: 10, scale: 4 });

/** A user's rule set, run as strategy type `custom:<id>` by backtests and bots. */
export const userStrategies = pgTable(
  'user_strategies',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** The engine's normal form (validateRuleSet), so what runs is what was checked. */
    rules: jsonb('rules').$type<RuleSet>().notNull(),
    stopLossPct: percent('stop_loss_pct'),
    takeProfitPct: percent('take_profit_pct'),
    trailingStopPct: percent('trailing_stop_pct'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('user_strategies_user_idx').on(t.userId)],
);

export type UserStrategyRow = typeof userStrategies.$inferSelect;
export type NewUserStrategyRow = typeof userStrategies.$inferInsert;
