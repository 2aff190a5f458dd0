import { bigint, doublePrecision, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Closed candles read from an exchange (live source only; the simulated feed recomputes its
 * candles deterministically). A closed candle never changes, so rows are upserted once and never
 * refetched. `open_time_ms` is the candle's UTC open time in milliseconds.
 */
export const candles = pgTable(
  'candles',
  {
    exchange: text('exchange').notNull(),
    symbol: text('symbol').notNull(),
    timeframe: text('timeframe').notNull(),
    openTimeMs: bigint('open_time_ms', { mode: 'number' }).notNull(),
    open: doublePrecision('open').notNull(),
    high: doublePrecision('high').notNull(),
    low: doublePrecision('low').notNull(),
    close: doublePrecision('close').notNull(),
    volume: doublePrecision('volume').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol, t.timeframe, t.openTimeMs] })],
);

export type CandleDbRow = typeof candles.$inferSelect;
