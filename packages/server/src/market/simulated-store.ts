import { CANDLE_LIMIT_MAX, type Exchange, type Timeframe } from '@quantsquare/contracts';
import { TIMEFRAME_MS } from '@quantsquare/engine';
import type { Clock } from '../common/clock.js';
import { cleanCandles } from './candle-cleaning.js';
import type { CandleSeries, MarketCandle, SeriesRequest } from './market.types.js';
import { SimulatedInstrument } from './simulated-source.js';

/** The forming candle moves once per second of the clock (answers can be cached per second). */
const FORMING_STEP_MS = 1000;

interface SimulatedSeriesState {
  closed: MarketCandle[];
  lastClosedOpenMs: number;
  formingAtMs: number;
  forming: MarketCandle | null;
  revision: number;
}

/**
 * Keeps the newest CANDLE_LIMIT_MAX closed simulated candles per (exchange, symbol, timeframe)
 * in memory: closed candles are computed once and only new ones are appended as time passes.
 */
export class SimulatedStore {
  private readonly instruments = new Map<string, SimulatedInstrument>();
  private readonly states = new Map<string, SimulatedSeriesState>();

  constructor(private readonly clock: Clock) {}

  private instrument(exchange: Exchange, symbol: string): SimulatedInstrument {
    const key = `${exchange}|${symbol}`;
    let instrument = this.instruments.get(key);
    if (!instrument) {
      instrument = new SimulatedInstrument(exchange, symbol);
      this.instruments.set(key, instrument);
    }
    return instrument;
  }

  series(request: SeriesRequest): CandleSeries {
    const { exchange, symbol, timeframe } = request;
    const nowMs = Math.floor(this.clock.now().getTime() / FORMING_STEP_MS) * FORMING_STEP_MS;
    const lengthMs = TIMEFRAME_MS[timeframe];
    const currentOpenMs = Math.floor(nowMs / lengthMs) * lengthMs;
    const lastClosedOpenMs = currentOpenMs - lengthMs;
    const key = `${exchange}|${symbol}|${timeframe}`;
    const instrument = this.instrument(exchange, symbol);
    const wantedCount = Math.min(CANDLE_LIMIT_MAX, Math.max(1, request.closedCount));
    let state = this.states.get(key);
    const canAppend =
      state !== undefined &&
      state.lastClosedOpenMs <= lastClosedOpenMs &&
      lastClosedOpenMs - state.lastClosedOpenMs < CANDLE_LIMIT_MAX * lengthMs;
    if (!state || !canAppend) {
      state = {
        closed: this.closedCandles(
          instrument,
          timeframe,
          currentOpenMs - wantedCount * lengthMs,
          currentOpenMs,
        ),
        lastClosedOpenMs,
        formingAtMs: -1,
        forming: null,
        revision: (state?.revision ?? 0) + 1,
      };
      this.states.set(key, state);
    } else if (state.lastClosedOpenMs < lastClosedOpenMs) {
      const added = this.closedCandles(
        instrument,
        timeframe,
        state.lastClosedOpenMs + lengthMs,
        currentOpenMs,
      );
      const closed = state.closed.concat(added);
      state.closed =
        closed.length > CANDLE_LIMIT_MAX ? closed.slice(closed.length - CANDLE_LIMIT_MAX) : closed;
      state.lastClosedOpenMs = lastClosedOpenMs;
      state.revision++;
    }
    // Only as much history as asked for is computed; older candles are prepended on demand.
    const firstOpenMs = state.closed[0]?.timestamp ?? currentOpenMs;
    const wantedFirstOpenMs = currentOpenMs - wantedCount * lengthMs;
    if (state.closed.length < wantedCount && firstOpenMs > wantedFirstOpenMs) {
      const older = this.closedCandles(instrument, timeframe, wantedFirstOpenMs, firstOpenMs);
      if (older.length > 0) {
        state.closed = older.concat(state.closed);
        state.revision++;
      }
    }
    if (state.formingAtMs !== nowMs) {
      const forming = instrument.formingCandle(timeframe, nowMs);
      state.forming = cleanCandles([forming])[0] ?? null;
      state.formingAtMs = nowMs;
      state.revision++;
    }
    return {
      source: 'simulated',
      closed: state.closed,
      forming: state.forming,
      revision: state.revision,
      coveredUntilMs: nowMs,
    };
  }

  private closedCandles(
    instrument: SimulatedInstrument,
    timeframe: Timeframe,
    fromOpenMs: number,
    toOpenMs: number,
  ): MarketCandle[] {
    return cleanCandles(instrument.closedCandles(timeframe, fromOpenMs, toOpenMs));
  }
}
