import type { Candles } from '../candles.js';
import type { SignalAction } from './latest-signal.js';

/** One numeric strategy parameter: default, inclusive bounds and whether it must be whole. */
export interface StrategyParameterSpec {
  readonly name: string;
  readonly display_name: string;
  readonly default: number;
  readonly min: number;
  readonly max: number;
  readonly integer: boolean;
}

export type StrategyParameters = Readonly<Record<string, number>>;

/**
 * What a strategy computes on closed candles. `buy_signals`/`sell_signals` are ascending candle
 * indexes: a signal at i is decided on candle i's close and acted on at candle i+1's open.
 * `indicators` always holds `ma_fast` and `ma_slow` (the dashboard's two lines) plus the
 * strategy's own series; NaN where undefined (see `seriesToJson` for the API's null form).
 */
export interface StrategySignals {
  readonly buy_signals: number[];
  readonly sell_signals: number[];
  /** Close a long / a short without opening the other side (rule sets; built-ins have none). */
  readonly exit_long_signals?: number[];
  readonly exit_short_signals?: number[];
  readonly indicators: Readonly<{ ma_fast: Float64Array; ma_slow: Float64Array }> &
    Readonly<Record<string, Float64Array>>;
}

export interface StrategyDefinition {
  readonly type: string;
  readonly display_name: string;
  readonly description: string;
  readonly parameters: readonly StrategyParameterSpec[];
  /** Cross-field rules (e.g. fast < slow); answers field errors, empty when valid. */
  readonly checkParameters?: (parameters: StrategyParameters) => Record<string, string[]>;
  /** Pure: the same candles and parameters always give the same signals. */
  readonly compute: (candles: Candles, parameters: StrategyParameters) => StrategySignals;
  /**
   * The action on the last candle alone: always equal to
   * signalAt(compute(candles, parameters), last index), without the series (a live bot decides
   * on the candle that just closed and needs nothing else).
   */
  readonly latest: (candles: Candles, parameters: StrategyParameters) => SignalAction | null;
}
