// Live against backtest: a bot's round trips matched to the backtest's trades on the same closed
// candles, by the bar each entry filled in and its side, and the return gap split into its
// reasons (missed signals, extra trades, fees, slippage).
//
// Returns are per unit of margin and not compounded (Σ of each trade's pnl % of its margin), on
// both sides: a bot trades a fixed amount while the backtest sizes from equity, so this is the
// one measure on which equal trades give equal returns whatever the sizes.
import type { BacktestTrade, PositionSide } from './backtest.types.js';

/** A bot's round trip as its records keep it; `exit_time` null: still open. */
export interface LiveTradeInput {
  readonly side: PositionSide;
  /** Fill time (ms) of the entry. */
  readonly entry_time: number;
  readonly exit_time: number | null;
  readonly entry_price: number;
  readonly exit_price: number | null;
  /** Base-asset size. */
  readonly amount: number;
  /** Net of both fees (null while open). */
  readonly pnl: number | null;
  /** Fees paid so far, in quote currency. */
  readonly fee: number;
}

/** One side of a compared trade, in the bars of the timeframe. */
export interface ComparedTrade {
  readonly side: PositionSide;
  /** Open time (ms) of the bar the entry filled in. */
  readonly time: number;
  /** Open time (ms) of the bar the exit filled in; null while open. */
  readonly exit_time: number | null;
  readonly entry_price: number;
  readonly exit_price: number | null;
  /** Net pnl in percent of the margin (null while open). */
  readonly pnl_pct: number | null;
  /** Fees in percent of the margin. */
  readonly fee_pct: number;
  readonly is_open: boolean;
}

export interface MatchedTrade {
  readonly time: number;
  readonly side: PositionSide;
  readonly live: ComparedTrade;
  readonly backtest: ComparedTrade;
}

export interface CurvePoint {
  readonly time: number;
  readonly equity: number;
}

export interface ComparisonSide {
  /** Σ pnl % of the closed trades (per unit of margin, not compounded). */
  readonly return_pct: number;
  readonly trades: ComparedTrade[];
  readonly equity_curve: CurvePoint[];
}

/** Each reason's part of delta_pct, in percentage points; they add up to delta_pct. */
export interface DeltaReasons {
  readonly missed_pct: number;
  readonly extra_pct: number;
  readonly fee_pct: number;
  readonly slippage_pct: number;
  /** A pair closed on one side and still open on the other. */
  readonly open_pct: number;
}

export interface LiveComparison {
  readonly live: ComparisonSide;
  readonly backtest: ComparisonSide;
  /** live.return_pct − backtest.return_pct. */
  readonly delta_pct: number;
  readonly matched_trades: MatchedTrade[];
  readonly missed_signals: ComparedTrade[];
  readonly extra_trades: ComparedTrade[];
  /** Part of the delta from fees of matched trades (negative: live paid more). */
  readonly fee_diff: number;
  /** Part of the delta from fill prices of matched trades (negative: live filled worse). */
  readonly slippage_diff: number;
  readonly reasons: DeltaReasons;
}

export interface LiveComparisonInput {
  readonly timeframeMs: number;
  /** Open time of the first bar of the period and of the last closed bar. */
  readonly periodStart: number;
  readonly periodEnd: number;
  /** Notional = margin × leverage: margins are read back from size and entry price. */
  readonly leverage: number;
  /** Base of both equity curves (a bot's trade amount). */
  readonly baseEquity: number;
  readonly live: readonly LiveTradeInput[];
  readonly backtest: readonly BacktestTrade[];
  /** Times (ms) of the curves' points, ascending; default one per bar of the period. */
  readonly curveTimes?: readonly number[];
  /** A live entry up to this many bars from the backtest's still matches it; default 0. */
  readonly toleranceBars?: number;
}

/** What to match on: the bar of the entry and the side. */
export interface BarTrade {
  readonly side: PositionSide;
  readonly time: number;
}

export interface BarMatching {
  /** [live index, backtest index], in backtest order. */
  readonly pairs: [number, number][];
  /** Backtest indexes no live trade matched. */
  readonly missed: number[];
  /** Live indexes that matched no backtest trade. */
  readonly extra: number[];
}

/**
 * Pairs each backtest trade with the earliest unpaired live trade of the same side whose entry
 * bar is within `toleranceBars` bars of its own (0: the same bar). Each trade pairs at most once.
 */
export function matchTradesByBar(
  live: readonly BarTrade[],
  backtest: readonly BarTrade[],
  timeframeMs: number,
  toleranceBars = 0,
): BarMatching {
  const toleranceMs = toleranceBars * timeframeMs;
  const liveOrder = live.map((_, i) => i).sort((a, b) => live[a]!.time - live[b]!.time);
  const isPaired = new Array<boolean>(live.length).fill(false);
  const pairs: [number, number][] = [];
  const missed: number[] = [];
  backtest.forEach((wanted, b) => {
    const found = liveOrder.find(
      (l) =>
        !isPaired[l] &&
        live[l]!.side === wanted.side &&
        Math.abs(live[l]!.time - wanted.time) <= toleranceMs,
    );
    if (found === undefined) {
      missed.push(b);
      return;
    }
    isPaired[found] = true;
    pairs.push([found, b]);
  });
  const extra = liveOrder.filter((l) => !isPaired[l]);
  return { pairs, missed, extra };
}

const barOf = (timeMs: number, timeframeMs: number) =>
  Math.floor(timeMs / timeframeMs) * timeframeMs;

const marginOf = (amount: number, entryPrice: number, leverage: number) =>
  (amount * entryPrice) / leverage;

const percentOf = (value: number, margin: number) => (margin > 0 ? (value / margin) * 100 : 0);

function fromLive(trade: LiveTradeInput, timeframeMs: number, leverage: number): ComparedTrade {
  const margin = marginOf(trade.amount, trade.entry_price, leverage);
  const isOpen = trade.exit_time === null || trade.pnl === null;
  return {
    side: trade.side,
    time: barOf(trade.entry_time, timeframeMs),
    exit_time: isOpen ? null : barOf(trade.exit_time!, timeframeMs),
    entry_price: trade.entry_price,
    exit_price: isOpen ? null : trade.exit_price,
    pnl_pct: isOpen ? null : percentOf(trade.pnl!, margin),
    fee_pct: percentOf(trade.fee, margin),
    is_open: isOpen,
  };
}

function fromBacktest(trade: BacktestTrade, leverage: number): ComparedTrade {
  // A position the data ended on is still open: the backtest's forced exit is no trade.
  const isOpen = trade.reason === 'end_of_data';
  const margin = marginOf(trade.amount, trade.entry_price, leverage);
  const entryFeeShare = trade.entry_price / (trade.entry_price + trade.exit_price);
  return {
    side: trade.side,
    time: trade.entry_time,
    exit_time: isOpen ? null : trade.exit_time,
    entry_price: trade.entry_price,
    exit_price: isOpen ? null : trade.exit_price,
    pnl_pct: isOpen ? null : trade.pnl_percent,
    fee_pct: percentOf(isOpen ? trade.fee * entryFeeShare : trade.fee, margin),
    is_open: isOpen,
  };
}

const closedPnl = (trade: ComparedTrade) => trade.pnl_pct ?? 0;
const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** One point per time: the base plus the closed trades' pnl % (of the base) by then. */
function stepCurve(
  trades: readonly ComparedTrade[],
  times: readonly number[],
  baseEquity: number,
): CurvePoint[] {
  const exits = trades
    .filter((t) => !t.is_open)
    .map((t) => ({ time: t.exit_time!, pct: closedPnl(t) }))
    .sort((a, b) => a.time - b.time);
  let cursor = 0;
  let cumulative = 0;
  return times.map((time) => {
    while (cursor < exits.length && exits[cursor]!.time <= time) {
      cumulative += exits[cursor]!.pct;
      cursor++;
    }
    return { time, equity: baseEquity * (1 + cumulative / 100) };
  });
}

function barTimes(start: number, end: number, timeframeMs: number): number[] {
  const times: number[] = [];
  for (let time = start; time <= end; time += timeframeMs) times.push(time);
  return times;
}

/**
 * Compares a bot's trades with the backtest's over one period. Trades entered outside
 * [periodStart, periodEnd] are left out on both sides. Open positions are matched and listed
 * but count in no return.
 */
export function compareLiveToBacktest(input: LiveComparisonInput): LiveComparison {
  const { timeframeMs, periodStart, periodEnd, leverage } = input;
  const inPeriod = (trade: ComparedTrade) => trade.time >= periodStart && trade.time <= periodEnd;
  const live = input.live
    .map((trade) => fromLive(trade, timeframeMs, leverage))
    .filter(inPeriod)
    .sort((a, b) => a.time - b.time);
  const backtest = input.backtest.map((trade) => fromBacktest(trade, leverage)).filter(inPeriod);
  const matching = matchTradesByBar(live, backtest, timeframeMs, input.toleranceBars ?? 0);

  const matched = matching.pairs.map(([l, b]) => ({
    time: backtest[b]!.time,
    side: backtest[b]!.side,
    live: live[l]!,
    backtest: backtest[b]!,
  }));
  const missed = matching.missed.map((b) => backtest[b]!);
  const extra = matching.extra.map((l) => live[l]!);
  const bothClosed = matched.filter((pair) => !pair.live.is_open && !pair.backtest.is_open);
  const feePct = sum(bothClosed.map((p) => p.backtest.fee_pct - p.live.fee_pct));
  const grossPct = (t: ComparedTrade) => closedPnl(t) + t.fee_pct;
  const slippagePct = sum(bothClosed.map((p) => grossPct(p.live) - grossPct(p.backtest)));
  const openPct = sum(
    matched
      .filter((pair) => pair.live.is_open !== pair.backtest.is_open)
      .map((pair) => closedPnl(pair.live) - closedPnl(pair.backtest)),
  );
  const liveReturn = sum(live.map(closedPnl));
  const backtestReturn = sum(backtest.map(closedPnl));
  const times = input.curveTimes ?? barTimes(periodStart, periodEnd, timeframeMs);
  return {
    live: {
      return_pct: liveReturn,
      trades: live,
      equity_curve: stepCurve(live, times, input.baseEquity),
    },
    backtest: {
      return_pct: backtestReturn,
      trades: backtest,
      equity_curve: stepCurve(backtest, times, input.baseEquity),
    },
    delta_pct: liveReturn - backtestReturn,
    matched_trades: matched,
    missed_signals: missed,
    extra_trades: extra,
    fee_diff: feePct,
    slippage_diff: slippagePct,
    reasons: {
      missed_pct: -sum(missed.map(closedPnl)),
      extra_pct: sum(extra.map(closedPnl)),
      fee_pct: feePct,
      slippage_pct: slippagePct,
      open_pct: openPct,
    },
  };
}
