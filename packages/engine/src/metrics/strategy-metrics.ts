// Performance metrics of a live account (the strategy square): time-weighted return, P&L,
// drawdown, Sharpe and Sortino from hourly equity, win rate from closed trades. Pure functions of
// plain arrays; the caller gives "now". Formulas (all documented in README.md, "Strategy metrics"):
//
//   sub-period return   r_i = (E_i − F_i) / E_{i−1} − 1     F_i: net external flow in (t_{i−1}, t_i]
//   time-weighted return TWR = Π (1 + r_i) − 1               (deposits/withdrawals do not move it)
//   P&L                 = E_end − E_start − Σ F              (USDT earned by trading)
//   max drawdown        = max_t (1 − I_t / max_{s≤t} I_s)    on the index I_t = Π_{i≤t} (1 + r_i)
//   Sharpe              = mean(r) / stdev(r) · √8760          (sample stdev, risk-free 0)
//   Sortino             = mean(r) / √(Σ min(r, 0)² / n) · √8760
//   win rate            = closed trades with net P&L > 0 / closed trades
import { Decimal } from 'decimal.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Hourly returns per year (crypto trades every hour of the year). */
export const HOURS_PER_YEAR = 365 * 24;

export interface EquitySample {
  readonly timeMs: number;
  /** Account equity in USDT (unrealised P&L included), a decimal string or number. */
  readonly equity: string | number;
}

/** Money that entered (positive) or left (negative) the account from outside, at `timeMs`. */
export interface CashFlow {
  readonly timeMs: number;
  readonly amount: number;
}

export interface SubPeriodReturn {
  readonly timeMs: number;
  readonly r: number;
}

/**
 * Sub-period returns between consecutive points, each net of the flows in its interval (a flow
 * is taken to arrive at the interval's end, after that interval's trading). An interval that
 * starts from zero or negative equity has no defined return and is skipped.
 */
export function subPeriodReturns(
  points: readonly EquitySample[],
  flows: readonly CashFlow[] = [],
): SubPeriodReturn[] {
  const sortedFlows = [...flows].sort((a, b) => a.timeMs - b.timeMs);
  const out: SubPeriodReturn[] = [];
  let f = 0;
  // Flows at or before the first point happened before the series starts.
  while (f < sortedFlows.length && sortedFlows[f]!.timeMs <= (points[0]?.timeMs ?? 0)) f++;
  for (let i = 1; i < points.length; i++) {
    const previous = Number(points[i - 1]!.equity);
    const current = Number(points[i]!.equity);
    let flow = 0;
    while (f < sortedFlows.length && sortedFlows[f]!.timeMs <= points[i]!.timeMs) {
      flow += sortedFlows[f]!.amount;
      f++;
    }
    if (!(previous > 0) || !Number.isFinite(current)) continue;
    out.push({ timeMs: points[i]!.timeMs, r: (current - flow) / previous - 1 });
  }
  return out;
}

/** Π (1 + r) − 1, in percent. */
export function timeWeightedReturnPercent(returns: readonly SubPeriodReturn[]): number {
  let growth = 1;
  for (const { r } of returns) growth *= 1 + r;
  return (growth - 1) * 100;
}

/** Largest fall of the time-weighted index from its running peak, in percent (positive). */
export function indexMaxDrawdownPercent(returns: readonly SubPeriodReturn[]): number {
  let index = 1;
  let peak = 1;
  let worst = 0;
  for (const { r } of returns) {
    index *= 1 + r;
    if (index > peak) peak = index;
    else if (peak > 0) worst = Math.max(worst, 1 - index / peak);
  }
  return worst * 100;
}

/** Annualised Sharpe ratio of hourly returns; null with fewer than two or no spread. */
export function annualisedSharpe(
  returns: readonly SubPeriodReturn[],
  periodsPerYear = HOURS_PER_YEAR,
): number | null {
  const n = returns.length;
  if (n < 2) return null;
  let sum = 0;
  for (const { r } of returns) sum += r;
  const mean = sum / n;
  let squares = 0;
  for (const { r } of returns) squares += (r - mean) ** 2;
  const deviation = Math.sqrt(squares / (n - 1));
  if (!(deviation > 1e-12)) return null;
  return (mean / deviation) * Math.sqrt(periodsPerYear);
}

/** Annualised Sortino ratio (target 0); null with fewer than two returns or no losing hour. */
export function annualisedSortino(
  returns: readonly SubPeriodReturn[],
  periodsPerYear = HOURS_PER_YEAR,
): number | null {
  const n = returns.length;
  if (n < 2) return null;
  let sum = 0;
  let downside = 0;
  for (const { r } of returns) {
    sum += r;
    if (r < 0) downside += r * r;
  }
  const downsideDeviation = Math.sqrt(downside / n);
  if (!(downsideDeviation > 1e-12)) return null;
  return (sum / n / downsideDeviation) * Math.sqrt(periodsPerYear);
}

/** Percent of closed trades whose net P&L is positive; null without a closed trade. */
export function winRatePercent(closedTradePnls: readonly number[]): number | null {
  if (closedTradePnls.length === 0) return null;
  const wins = closedTradePnls.filter((pnl) => pnl > 0).length;
  return (wins / closedTradePnls.length) * 100;
}

export interface ClosedTrade {
  readonly timeMs: number;
  /** Net of fees. */
  readonly pnl: number;
}

export interface MetricsInput {
  /** The account's equity points, oldest first (hourly snapshots and live marks). */
  readonly points: readonly EquitySample[];
  /**
   * The evenly spaced (hourly) points the annualised risk ratios are computed from; `points`
   * without it. Live marks between the hours would count as hours there.
   */
  readonly riskPoints?: readonly EquitySample[];
  readonly flows: readonly CashFlow[];
  /** Times of every fill. */
  readonly fillTimesMs: readonly number[];
  readonly closedTrades: readonly ClosedTrade[];
}

export interface PeriodFigures {
  readonly returnPercent: number;
  /** USDT earned by trading over the window, a decimal string. */
  readonly pnl: string;
  readonly maxDrawdownPercent: number;
  readonly winRate: number | null;
  readonly sharpe: number | null;
  readonly sortino: number | null;
  readonly tradesCount: number;
}

/**
 * The figures of the window (nowMs − windowMs, nowMs] (the whole history when windowMs is
 * null). The window's equity starts at the last point at or before its start, so a daily figure
 * covers the full 24 hours whenever the history does.
 */
export function periodFigures(
  input: MetricsInput,
  nowMs: number,
  windowMs: number | null,
): PeriodFigures {
  const startMs = windowMs === null ? Number.NEGATIVE_INFINITY : nowMs - windowMs;
  const points = windowPoints(input.points, startMs, nowMs);
  const firstMs = points[0]?.timeMs ?? nowMs;
  const lastMs = points.at(-1)?.timeMs ?? nowMs;
  const flows = input.flows.filter((f) => f.timeMs > firstMs && f.timeMs <= lastMs);
  const returns = subPeriodReturns(points, flows);
  let pnl = new Decimal(0);
  if (points.length >= 2) {
    pnl = new Decimal(points.at(-1)!.equity).minus(new Decimal(points[0]!.equity));
    for (const flow of flows) pnl = pnl.minus(flow.amount);
  }
  const inWindow = (t: number) => t > startMs && t <= nowMs;
  const riskReturns = input.riskPoints
    ? windowReturns(input.riskPoints, input.flows, startMs, nowMs)
    : returns;
  return {
    returnPercent: timeWeightedReturnPercent(returns),
    pnl: pnl.toString(),
    maxDrawdownPercent: indexMaxDrawdownPercent(returns),
    winRate: winRatePercent(input.closedTrades.filter((t) => inWindow(t.timeMs)).map((t) => t.pnl)),
    sharpe: annualisedSharpe(riskReturns),
    sortino: annualisedSortino(riskReturns),
    tradesCount: input.fillTimesMs.filter(inWindow).length,
  };
}

/** The sub-period returns of the window's points, net of the flows between them. */
function windowReturns(
  all: readonly EquitySample[],
  allFlows: readonly CashFlow[],
  startMs: number,
  nowMs: number,
) {
  const points = windowPoints(all, startMs, nowMs);
  const firstMs = points[0]?.timeMs ?? nowMs;
  const lastMs = points.at(-1)?.timeMs ?? nowMs;
  return subPeriodReturns(
    points,
    allFlows.filter((f) => f.timeMs > firstMs && f.timeMs <= lastMs),
  );
}

/** The points of (startMs, endMs], led by the last point at or before startMs when one exists. */
export function windowPoints(
  points: readonly EquitySample[],
  startMs: number,
  endMs: number,
): EquitySample[] {
  let first = 0;
  while (first + 1 < points.length && points[first + 1]!.timeMs <= startMs) first++;
  return points.slice(first).filter((p) => p.timeMs <= endMs);
}

/** Days from the first point to now (0 without points). */
export function daysOfHistory(points: readonly EquitySample[], nowMs: number): number {
  const first = points[0];
  return first ? Math.max(0, (nowMs - first.timeMs) / DAY_MS) : 0;
}

/**
 * One point per day (the day's last) over the last `days` days, days counted in `utcOffsetMs`
 * (UTC+8 for the product), oldest first.
 */
export function dailyPoints(
  points: readonly EquitySample[],
  nowMs: number,
  days: number | null,
  utcOffsetMs = 8 * HOUR_MS,
): EquitySample[] {
  const since = days === null ? Number.NEGATIVE_INFINITY : nowMs - days * DAY_MS;
  const byDay = new Map<number, EquitySample>();
  for (const point of points) {
    if (point.timeMs <= since || point.timeMs > nowMs) continue;
    byDay.set(Math.floor((point.timeMs + utcOffsetMs) / DAY_MS), point);
  }
  return [...byDay.values()].sort((a, b) => a.timeMs - b.timeMs);
}

/**
 * One equity series from the hourly snapshots and the marks taken between them (after fills),
 * oldest first; at an instant both have, the snapshot counts.
 */
export function mergeEquitySeries(
  snapshots: readonly EquitySample[],
  marks: readonly EquitySample[],
): EquitySample[] {
  const taken = new Set(snapshots.map((p) => p.timeMs));
  return [...snapshots, ...marks.filter((m) => !taken.has(m.timeMs))].sort(
    (a, b) => a.timeMs - b.timeMs,
  );
}
