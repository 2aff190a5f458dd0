import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { candles } from '../db/schema/market.schema.js';
import type { MarketCandle } from './market.types.js';

export interface CandleKey {
  readonly exchange: string;
  readonly symbol: string;
  readonly timeframe: string;
}

export interface CandlesRepository {
  /** The newest `count` stored closed candles of a key, oldest first. */
  latest(key: CandleKey, count: number): Promise<MarketCandle[]>;
  /** Inserts or replaces closed candles (keyed by open time). */
  upsert(key: CandleKey, rows: readonly MarketCandle[]): Promise<void>;
}

const UPSERT_CHUNK = 500;

export function createCandlesRepository(db: Database): CandlesRepository {
  const byKey = (key: CandleKey) =>
    and(
      eq(candles.exchange, key.exchange),
      eq(candles.symbol, key.symbol),
      eq(candles.timeframe, key.timeframe),
    );
  return {
    async latest(key, count) {
      const rows = await db
        .select({
          timestamp: candles.openTimeMs,
          open: candles.open,
          high: candles.high,
          low: candles.low,
          close: candles.close,
          volume: candles.volume,
        })
        .from(candles)
        .where(byKey(key))
        .orderBy(desc(candles.openTimeMs))
        .limit(count);
      return rows.reverse();
    },
    async upsert(key, rows) {
      for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
        const chunk = rows.slice(i, i + UPSERT_CHUNK).map((row) => ({
          exchange: key.exchange,
          symbol: key.symbol,
          timeframe: key.timeframe,
          openTimeMs: row.timestamp,
          open: row.open,
          high: row.high,
          low: row.low,
          close: row.close,
          volume: row.volume,
        }));
        await db
          .insert(candles)
          .values(chunk)
          .onConflictDoUpdate({
            target: [candles.exchange, candles.symbol, candles.timeframe, candles.openTimeMs],
            set: {
              open: sql`excluded.open`,
              high: sql`excluded.high`,
              low: sql`excluded.low`,
              close: sql`excluded.close`,
              volume: sql`excluded.volume`,
            },
          });
      }
    },
  };
}
