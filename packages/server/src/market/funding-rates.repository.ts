import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { fundingRateCoverage, fundingRates } from '../db/schema/market.schema.js';

/** One settlement: its time (UTC ms) and the rate longs paid (0.0001 = 0.01%). */
export interface FundingRate {
  readonly time: number;
  readonly rate: number;
}

export interface FundingKey {
  readonly exchange: string;
  readonly symbol: string;
}

/** The span of settlement times already read from the venue in full. */
export interface FundingCoverage {
  readonly fromMs: number;
  readonly toMs: number;
}

export interface FundingRatesRepository {
  /** Stored rates with fromMs ≤ time ≤ toMs, oldest first. */
  between(key: FundingKey, fromMs: number, toMs: number): Promise<FundingRate[]>;
  coverage(key: FundingKey): Promise<FundingCoverage | undefined>;
  /**
   * Stores rates (keyed by time) and, when given, the span now read in full, in one transaction.
   * The stored span only grows (the union with the new one: both always touch or overlap).
   */
  save(
    key: FundingKey,
    rates: readonly FundingRate[],
    coverage: FundingCoverage | undefined,
  ): Promise<void>;
}

const UPSERT_CHUNK = 500;

export function createFundingRatesRepository(db: Database): FundingRatesRepository {
  const byKey = (key: FundingKey) =>
    and(eq(fundingRates.exchange, key.exchange), eq(fundingRates.symbol, key.symbol));
  return {
    async between(key, fromMs, toMs) {
      return db
        .select({ time: fundingRates.fundingTimeMs, rate: fundingRates.rate })
        .from(fundingRates)
        .where(
          and(
            byKey(key),
            gte(fundingRates.fundingTimeMs, fromMs),
            lte(fundingRates.fundingTimeMs, toMs),
          ),
        )
        .orderBy(asc(fundingRates.fundingTimeMs));
    },
    async coverage(key) {
      const [row] = await db
        .select({ fromMs: fundingRateCoverage.fromMs, toMs: fundingRateCoverage.toMs })
        .from(fundingRateCoverage)
        .where(
          and(
            eq(fundingRateCoverage.exchange, key.exchange),
            eq(fundingRateCoverage.symbol, key.symbol),
          ),
        );
      return row;
    },
    async save(key, rates, coverage) {
      await db.transaction(async (tx) => {
        for (let i = 0; i < rates.length; i += UPSERT_CHUNK) {
          const chunk = rates.slice(i, i + UPSERT_CHUNK).map((row) => ({
            exchange: key.exchange,
            symbol: key.symbol,
            fundingTimeMs: row.time,
            rate: row.rate,
          }));
          await tx
            .insert(fundingRates)
            .values(chunk)
            .onConflictDoUpdate({
              target: [fundingRates.exchange, fundingRates.symbol, fundingRates.fundingTimeMs],
              set: { rate: sql`excluded.rate` },
            });
        }
        if (!coverage) return;
        await tx
          .insert(fundingRateCoverage)
          .values({
            exchange: key.exchange,
            symbol: key.symbol,
            fromMs: coverage.fromMs,
            toMs: coverage.toMs,
          })
          .onConflictDoUpdate({
            target: [fundingRateCoverage.exchange, fundingRateCoverage.symbol],
            set: {
              fromMs: sql`least(${fundingRateCoverage.fromMs}, excluded.from_ms)`,
              toMs: sql`greatest(${fundingRateCoverage.toMs}, excluded.to_ms)`,
            },
          });
      });
    },
  };
}

/** The same store in memory (a feed without a database). */
export function createMemoryFundingRatesRepository(): FundingRatesRepository {
  const rates = new Map<string, Map<number, number>>();
  const spans = new Map<string, FundingCoverage>();
  const id = (key: FundingKey) => `${key.exchange}|${key.symbol}`;
  return {
    async between(key, fromMs, toMs) {
      return [...(rates.get(id(key)) ?? new Map<number, number>())]
        .filter(([time]) => time >= fromMs && time <= toMs)
        .sort((a, b) => a[0] - b[0])
        .map(([time, rate]) => ({ time, rate }));
    },
    async coverage(key) {
      return spans.get(id(key));
    },
    async save(key, rows, coverage) {
      const stored = rates.get(id(key)) ?? new Map<number, number>();
      rates.set(id(key), stored);
      for (const row of rows) stored.set(row.time, row.rate);
      if (!coverage) return;
      const old = spans.get(id(key));
      spans.set(
        id(key),
        old
          ? {
              fromMs: Math.min(old.fromMs, coverage.fromMs),
              toMs: Math.max(old.toMs, coverage.toMs),
            }
          : coverage,
      );
    },
  };
}
