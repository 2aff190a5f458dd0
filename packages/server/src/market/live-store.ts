import { CANDLE_LIMIT_MAX } from '@quantsquare/contracts';
import { TIMEFRAME_MS } from '@quantsquare/engine';
import type { Clock } from '../common/clock.js';
import type { CandlesRepository } from './candles.repository.js';
import type { CcxtMarketSource } from './ccxt-source.js';
import type { CandleSeries, MarketCandle, SeriesRequest } from './market.types.js';

/** Closed candles kept in memory per key: the largest request plus room to grow. */
const MEMORY_CAPACITY = CANDLE_LIMIT_MAX + 100;

interface LiveSeriesState {
  closed: MarketCandle[];
  forming: MarketCandle | null;
  revision: number;
  coveredUntilMs: number;
  lastSyncAtMs: number;
  isLoadedFromDb: boolean;
  /** The oldest open time a backfill already asked for (no older data is asked twice). */
  backfilledFromMs: number;
  inflight: Promise<void> | undefined;
}

export interface LiveStoreOptions {
  readonly clock: Clock;
  readonly repository: CandlesRepository | undefined;
  /** A key is read from the exchange at most this often; concurrent readers share one read. */
  readonly refreshIntervalMs: number;
}

/**
 * Live candles per (exchange, symbol, timeframe), in memory and in the database. Closed candles
 * are never refetched: each read asks the exchange only from the last stored closed candle on
 * (the forming candle is refetched), and older history only when a request needs more candles.
 */
export class LiveStore {
  private readonly states = new Map<string, LiveSeriesState>();
  private revisionCounter = 0;

  constructor(private readonly options: LiveStoreOptions) {}

  async series(source: CcxtMarketSource, request: SeriesRequest): Promise<CandleSeries> {
    const key = `${request.exchange}|${request.symbol}|${request.timeframe}`;
    let state = this.states.get(key);
    if (!state) {
      state = {
        closed: [],
        forming: null,
        revision: ++this.revisionCounter,
        coveredUntilMs: 0,
        lastSyncAtMs: Number.NEGATIVE_INFINITY,
        isLoadedFromDb: false,
        backfilledFromMs: Number.POSITIVE_INFINITY,
        inflight: undefined,
      };
      this.states.set(key, state);
    }
    const nowMs = this.options.clock.now().getTime();
    if (
      nowMs - state.lastSyncAtMs >= this.options.refreshIntervalMs ||
      this.needsHistory(state, request)
    ) {
      await this.syncShared(source, state, request);
    }
    // A read already under way (shared) may not have covered this request's history.
    if (this.needsHistory(state, request)) await this.syncShared(source, state, request);
    return {
      source: 'live',
      closed: state.closed,
      forming: state.forming,
      revision: state.revision,
      coveredUntilMs: state.coveredUntilMs,
    };
  }

  private targetStartMs(request: SeriesRequest, nowMs: number): number {
    const lengthMs = TIMEFRAME_MS[request.timeframe];
    return (Math.floor(nowMs / lengthMs) - request.closedCount) * lengthMs;
  }

  /** One read per key at a time: concurrent callers share it. */
  private syncShared(
    source: CcxtMarketSource,
    state: LiveSeriesState,
    request: SeriesRequest,
  ): Promise<void> {
    if (!state.inflight) {
      state.inflight = this.sync(source, state, request).finally(() => {
        state.inflight = undefined;
      });
    }
    return state.inflight;
  }

  /** True when the request needs older candles than we hold (and they were not asked for yet). */
  private needsHistory(state: LiveSeriesState, request: SeriesRequest): boolean {
    const nowMs = this.options.clock.now().getTime();
    const targetMs = this.targetStartMs(request, nowMs);
    const first = state.closed[0];
    return (
      state.closed.length < request.closedCount &&
      (first === undefined || first.timestamp > targetMs) &&
      targetMs < state.backfilledFromMs
    );
  }

  private async sync(
    source: CcxtMarketSource,
    state: LiveSeriesState,
    request: SeriesRequest,
  ): Promise<void> {
    const { repository, clock } = this.options;
    const dbKey = {
      exchange: request.exchange,
      symbol: request.symbol,
      timeframe: request.timeframe,
    };
    const lengthMs = TIMEFRAME_MS[request.timeframe];
    if (!state.isLoadedFromDb && repository) {
      state.closed = await repository.latest(dbKey, MEMORY_CAPACITY);
      const stored = state.closed[state.closed.length - 1];
      if (stored) state.coveredUntilMs = stored.timestamp + lengthMs;
      state.isLoadedFromDb = true;
    }
    const nowMs = clock.now().getTime();
    const targetMs = this.targetStartMs(request, nowMs);
    // Work on copies: series already handed out never change, and a failed read changes nothing.
    let closed = state.closed.slice();
    let backfilledFromMs = state.backfilledFromMs;
    const newlyClosed: MarketCandle[] = [];

    // Older history, only up to the first candle we already hold.
    const first = closed[0];
    if (
      first !== undefined &&
      first.timestamp > targetMs &&
      closed.length < request.closedCount &&
      targetMs < backfilledFromMs
    ) {
      const older = await source.candlesSince(
        request.symbol,
        request.timeframe,
        targetMs,
        first.timestamp - lengthMs,
      );
      const before = older.filter((candle) => candle.timestamp < first.timestamp);
      closed = before.concat(closed);
      newlyClosed.push(...before);
      backfilledFromMs = targetMs;
    }

    // Forward from the last stored closed candle: new closed candles plus the forming one.
    const last = closed[closed.length - 1];
    const sinceMs = last ? last.timestamp + lengthMs : targetMs;
    if (!last) backfilledFromMs = Math.min(backfilledFromMs, targetMs);
    const fetched = await source.candlesSince(request.symbol, request.timeframe, sinceMs, nowMs);
    let forming: MarketCandle | null = null;
    for (const candle of fetched) {
      if (candle.timestamp + lengthMs <= nowMs) {
        const tail = closed[closed.length - 1];
        if (!tail || candle.timestamp > tail.timestamp) {
          closed.push(candle);
          newlyClosed.push(candle);
        }
      } else {
        forming = candle;
      }
    }
    if (closed.length > MEMORY_CAPACITY) closed = closed.slice(closed.length - MEMORY_CAPACITY);
    if (newlyClosed.length > 0 && repository) await repository.upsert(dbKey, newlyClosed);
    const newest = fetched[fetched.length - 1];
    // A stalled exchange answers, but its newest candle stops moving: coverage ends at its close.
    if (newest) state.coveredUntilMs = Math.min(nowMs, newest.timestamp + lengthMs);
    state.closed = closed;
    state.forming = forming;
    state.backfilledFromMs = backfilledFromMs;
    state.lastSyncAtMs = nowMs;
    state.revision = ++this.revisionCounter;
  }
}
