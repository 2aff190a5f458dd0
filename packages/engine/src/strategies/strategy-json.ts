import { seriesToJson } from '../candles.js';
import type { StrategySignals } from './strategy.types.js';

/** The market-data answer's shape: each indicator series with null for undefined values. */
export interface StrategySignalsJson {
  readonly buy_signals: number[];
  readonly sell_signals: number[];
  readonly indicators: Record<string, (number | null)[]>;
}

export function strategySignalsToJson(signals: StrategySignals): StrategySignalsJson {
  const indicators: Record<string, (number | null)[]> = {};
  for (const [name, series] of Object.entries(signals.indicators)) {
    indicators[name] = seriesToJson(series);
  }
  return { buy_signals: signals.buy_signals, sell_signals: signals.sell_signals, indicators };
}
