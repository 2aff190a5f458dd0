// Performance metrics over an equity curve and a list of trades. Each is one O(n) pass.

const YEAR_MS = 365 * 24 * 3_600_000; // crypto trades every day of the year

/** Largest fall from a running peak, in percent (positive). The initial balance is the first peak. */
export function maxDrawdownPercent(equity: Float64Array, initialBalance: number): number {
  let peak = initialBalance;
  let worst = 0;
  for (let i = 0; i < equity.length; i++) {
    const value = equity[i]!;
    if (value > peak) peak = value;
    else if (peak > 0) {
      const drawdown = (peak - value) / peak;
      if (drawdown > worst) worst = drawdown;
    }
  }
  return worst * 100;
}

/** Candles per year for a candle length in ms (365 days, 24 h). */
export function periodsPerYear(candleMs: number): number {
  return YEAR_MS / candleMs;
}

/**
 * Sharpe ratio of per-candle simple returns (the first against the initial balance), risk-free
 * rate 0, sample standard deviation, annualised by √periodsPerYear. Null with fewer than two
 * returns or no variation.
 */
export function sharpeRatio(
  equity: Float64Array,
  initialBalance: number,
  candlesPerYear: number,
): number | null {
  // Plain sums: per-candle returns are small and centred near 0, so no cancellation worth a
  // division per candle.
  const count = equity.length;
  let sum = 0;
  let sumOfSquares = 0;
  let previous = initialBalance;
  for (let i = 0; i < count; i++) {
    const value = equity[i]!;
    const periodReturn = previous > 0 ? value / previous - 1 : 0;
    previous = value;
    sum += periodReturn;
    sumOfSquares += periodReturn * periodReturn;
  }
  if (count < 2 || !(candlesPerYear > 0)) return null;
  const mean = sum / count;
  const variance = (sumOfSquares - sum * mean) / (count - 1);
  const deviation = Math.sqrt(Math.max(variance, 0));
  if (!(deviation > 1e-15)) return null;
  return (mean / deviation) * Math.sqrt(candlesPerYear);
}

export interface TradeStats {
  /** Percent of trades with pnl > 0; 0 without trades. */
  readonly win_rate: number;
  /** Gross profit / gross loss; null without a losing trade. */
  readonly profit_factor: number | null;
  readonly winning_trades: number;
  readonly losing_trades: number;
}

/** Stats over the first `count` trade results (net pnl per trade). */
export function tradeStats(pnl: ArrayLike<number>, count = pnl.length): TradeStats {
  let wins = 0;
  let losses = 0;
  let grossProfit = 0;
  let grossLoss = 0;
  for (let k = 0; k < count; k++) {
    const result = pnl[k]!;
    if (result > 0) {
      wins++;
      grossProfit += result;
    } else if (result < 0) {
      losses++;
      grossLoss -= result;
    }
  }
  return {
    win_rate: count === 0 ? 0 : (wins / count) * 100,
    profit_factor: grossLoss > 0 ? grossProfit / grossLoss : null,
    winning_trades: wins,
    losing_trades: losses,
  };
}

/**
 * Sortino ratio: like `sharpeRatio` (per-candle simple returns, target 0, annualised by
 * √periodsPerYear) but divided by the downside deviation √(Σ min(r, 0)² / n). Null with fewer
 * than two returns or no losing candle.
 */
export function sortinoRatio(
  equity: Float64Array,
  initialBalance: number,
  candlesPerYear: number,
): number | null {
  const count = equity.length;
  let sum = 0;
  let downsideSquares = 0;
  let previous = initialBalance;
  for (let i = 0; i < count; i++) {
    const value = equity[i]!;
    const periodReturn = previous > 0 ? value / previous - 1 : 0;
    previous = value;
    sum += periodReturn;
    if (periodReturn < 0) downsideSquares += periodReturn * periodReturn;
  }
  if (count < 2 || !(candlesPerYear > 0)) return null;
  const downside = Math.sqrt(downsideSquares / count);
  if (!(downside > 1e-15)) return null;
  return (sum / count / downside) * Math.sqrt(candlesPerYear);
}

/**
 * Calmar ratio: the annualised (compound) return over the run divided by the maximum drawdown,
 * both as fractions. Null without a drawdown, a duration or a positive final balance.
 */
export function calmarRatio(
  finalBalance: number,
  initialBalance: number,
  maxDrawdownPct: number,
  durationMs: number,
): number | null {
  if (!(maxDrawdownPct > 0) || !(durationMs > 0) || !(finalBalance > 0) || !(initialBalance > 0)) {
    return null;
  }
  const years = durationMs / YEAR_MS;
  const annualReturn = (finalBalance / initialBalance) ** (1 / years) - 1;
  return annualReturn / (maxDrawdownPct / 100);
}
