import { Decimal } from 'decimal.js';

// An account's loss limits judged on its equity (pure; the risk monitor calls it each pass).

export interface BreachInput {
  /** The account's equity now (USDT, decimal string). */
  readonly equity: string;
  /** The start of the trading day that contains now (ms). */
  readonly dayStartMs: number;
  /** The equity the trading day opened with and that day's start (null: not recorded yet). */
  readonly dayOpenEquity: string | null;
  readonly dayStartedAtMs: number | null;
  /** The highest equity since the trailing drawdown was set or last reset (null: none yet). */
  readonly peakEquity: string | null;
  /** Percent limits (null: off). */
  readonly dailyLossLimitPct: string | null;
  readonly trailingDrawdownPct: string | null;
}

export interface BreachOutcome {
  /** What the account's row should hold after this pass. */
  readonly dayOpenEquity: string;
  readonly dayStartedAtMs: number;
  readonly peakEquity: string | null;
  /** The limit that tripped (daily loss first), or null. */
  readonly breach: 'daily_loss' | 'trailing_drawdown' | null;
  readonly dailyLossPct: string;
  readonly drawdownPct: string;
}

/**
 * A new trading day opens at the equity first seen in it; the peak only rises. Daily loss is
 * the fall from the day's opening equity, drawdown the fall from the peak, both in percent; a
 * limit trips when the fall reaches it.
 */
export function evaluateBreach(input: BreachInput): BreachOutcome {
  const equity = new Decimal(input.equity);
  const isNewDay = input.dayOpenEquity === null || input.dayStartedAtMs !== input.dayStartMs;
  const dayOpen = isNewDay ? equity : new Decimal(input.dayOpenEquity as string);
  const peak =
    input.trailingDrawdownPct === null
      ? null
      : Decimal.max(equity, input.peakEquity === null ? equity : new Decimal(input.peakEquity));
  const fall = (from: Decimal) =>
    from.gt(0) ? Decimal.max(0, from.minus(equity).dividedBy(from).times(100)) : new Decimal(0);
  const dailyLossPct = fall(dayOpen);
  const drawdownPct = peak === null ? new Decimal(0) : fall(peak);
  const breach =
    input.dailyLossLimitPct !== null && dailyLossPct.gte(input.dailyLossLimitPct)
      ? 'daily_loss'
      : input.trailingDrawdownPct !== null && drawdownPct.gte(input.trailingDrawdownPct)
        ? 'trailing_drawdown'
        : null;
  return {
    dayOpenEquity: dayOpen.toString(),
    dayStartedAtMs: input.dayStartMs,
    peakEquity: peak === null ? input.peakEquity : peak.toString(),
    breach,
    dailyLossPct: dailyLossPct.toFixed(4),
    drawdownPct: drawdownPct.toFixed(4),
  };
}
