import type { Clock } from '../common/clock.js';
import type { CcxtMarketSource } from './ccxt-source.js';
import type {
  FundingCoverage,
  FundingKey,
  FundingRatesRepository,
} from './funding-rates.repository.js';
import { ExchangeUnavailable } from './market.errors.js';
import type { FundingHistory } from './market.types.js';

/**
 * A settlement is taken as published this long after its time: a range ending closer to now is
 * read from the venue but not recorded as covered, so a rate published late is still fetched.
 */
export const FUNDING_PUBLISH_DELAY_MS = 5 * 60_000;

/**
 * The venues' funding rates per (exchange, symbol), stored beside the candles. The venue is
 * asked only for the part of a range outside the span already read in full (one span per key,
 * grown at either end); when it cannot be read, the stored rates are answered and `missing`
 * says so (never simulated rates in their place).
 */
export class LiveFundingStore {
  constructor(
    private readonly repository: FundingRatesRepository,
    private readonly clock: Clock,
  ) {}

  async history(
    source: CcxtMarketSource,
    key: FundingKey,
    fromMs: number,
    toMs: number,
  ): Promise<FundingHistory> {
    let missing: string | null = null;
    if (fromMs <= toMs) {
      try {
        await this.fill(source, key, fromMs, toMs);
      } catch (error) {
        if (!(error instanceof ExchangeUnavailable)) throw error;
        missing = `The venue's funding history could not be read (${error.message}): only the stored rates are used, settlements may be missing.`;
      }
    }
    const rows = fromMs <= toMs ? await this.repository.between(key, fromMs, toMs) : [];
    return {
      source: 'live',
      time: Float64Array.from(rows, (row) => row.time),
      rate: Float64Array.from(rows, (row) => row.rate),
      missing,
    };
  }

  /**
   * Reads from the venue what the stored span lacks of [fromMs, toMs]: the head before it and
   * the tail after it (a range apart from the span is read up to it, so the span stays whole).
   */
  private async fill(
    source: CcxtMarketSource,
    key: FundingKey,
    fromMs: number,
    toMs: number,
  ): Promise<void> {
    const settledMs = Math.min(toMs, this.clock.now().getTime() - FUNDING_PUBLISH_DELAY_MS);
    const covered = await this.repository.coverage(key);
    if (!covered) {
      const rates = await source.fundingRatesBetween(key.symbol, fromMs, toMs);
      const span = settledMs >= fromMs ? { fromMs, toMs: settledMs } : undefined;
      await this.repository.save(key, rates, span);
      return;
    }
    let span: FundingCoverage = covered;
    if (fromMs < span.fromMs) {
      const rates = await source.fundingRatesBetween(key.symbol, fromMs, span.fromMs - 1);
      span = { fromMs, toMs: span.toMs };
      await this.repository.save(key, rates, span);
    }
    if (toMs > span.toMs) {
      const rates = await source.fundingRatesBetween(key.symbol, span.toMs + 1, toMs);
      span = { fromMs: span.fromMs, toMs: Math.max(span.toMs, settledMs) };
      await this.repository.save(key, rates, span);
    }
  }
}
