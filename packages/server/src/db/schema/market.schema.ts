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

/**
 * A venue's funding rates (live source only; the simulated feed recomputes its series), one row
 * per settlement: `funding_time_ms` is the settlement time in UTC milliseconds (floored to the
 * second), `rate` the fraction paid by longs (0.0001 = 0.01%). A settled rate never changes.
 */
export const fundingRates = pgTable(
  'funding_rates',
  {
    exchange: text('exchange').notNull(),
    symbol: text('symbol').notNull(),
    fundingTimeMs: bigint('funding_time_ms', { mode: 'number' }).notNull(),
    rate: doublePrecision('rate').notNull(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol, t.fundingTimeMs] })],
);

/**
 * The one span [from_ms, to_ms] of settlement times per (exchange, symbol) already read from the
 * venue in full: rates inside it are answered from `funding_rates` without asking the venue (a
 * span with no settlement, before a listing, is known to be empty too).
 */
export const fundingRateCoverage = pgTable(
  'funding_rate_coverage',
  {
    exchange: text('exchange').notNull(),
    symbol: text('symbol').notNull(),
    fromMs: bigint('from_ms', { mode: 'number' }).notNull(),
    toMs: bigint('to_ms', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.exchange, t.symbol] })],
);
