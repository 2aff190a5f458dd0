// A bot's live trades against the backtest of its strategy on the same closed candles (the
// engine's runBacktest and compareLiveToBacktest); the bots service owner-checks and loads.
import { CANDLE_LIMIT_MAX, type LiveVsBacktest, PLATFORM_FEE_RATE } from '@quantsquare/contracts';
import {
  type ComparedTrade,
  type CompiledStrategy,
  candleOpenTime,
  candlesFromRows,
  compareLiveToBacktest,
  type LiveComparison,
  type LiveTradeInput,
  runBacktest,
  TIMEFRAME_MS,
} from '@quantsquare/engine';
import { floatDecimal, floatDecimalOrNull } from '../../common/decimal-text.js';
import type { BotRow, BotTradeRow, ExchangeAccountRow } from '../../db/schema/index.js';
import type { OwnerPosition } from '../../execution/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import { botProtections } from './bot-protections.js';

/** Candles before the first compared decision, so the strategy's indicators are defined. */
export const COMPARISON_WARMUP_CANDLES = 200;
const DAY_MS = 86_400_000;

export const RETURN_RULE =
  'Returns are the sum of each closed trade’s net pnl in percent of its margin (not compounded), live and backtest alike; open positions count in no return. Trades are matched by the bar their entry filled in and their side.';

export interface ComparisonInputs {
  readonly bot: BotRow;
  readonly account: ExchangeAccountRow;
  readonly strategy: CompiledStrategy;
  /** The bot's closed round trips and its open position (if any). */
  readonly trades: readonly BotTradeRow[];
  readonly openPosition: OwnerPosition | undefined;
  readonly feed: MarketFeed;
  readonly now: Date;
  readonly slippageBps: number;
  readonly feeRate?: number;
}

function liveTrades(
  trades: readonly BotTradeRow[],
  open: OwnerPosition | undefined,
): LiveTradeInput[] {
  const closed: LiveTradeInput[] = trades.map((trade) => ({
    side: trade.side,
    entry_time: trade.openedAt.getTime(),
    exit_time: trade.closedAt.getTime(),
    entry_price: Number(trade.entryPrice),
    exit_price: Number(trade.exitPrice),
    amount: Number(trade.amount),
    pnl: Number(trade.pnl),
    fee: Number(trade.fee),
  }));
  const size = open ? Number(open.size) : 0;
  if (!open || size === 0 || open.openedAt === null) return closed;
  return [
    ...closed,
    {
      side: size > 0 ? 'long' : 'short',
      entry_time: open.openedAt.getTime(),
      exit_time: null,
      entry_price: Number(open.entryPrice),
      exit_price: null,
      amount: Math.abs(size),
      pnl: null,
      fee: Number(open.entryFee),
    },
  ];
}

type ComparedTradeAnswer = LiveVsBacktest['missed_signals'][number];

/** A compared trade as the answer carries it: its prices as decimal strings. */
function tradeAnswer(trade: ComparedTrade): ComparedTradeAnswer {
  return {
    ...trade,
    entry_price: floatDecimal(trade.entry_price),
    exit_price: floatDecimalOrNull(trade.exit_price),
  };
}

/** The engine's comparison as the answer carries it (percentages and curves stay numbers). */
function comparisonAnswer(
  comparison: LiveComparison,
): Omit<LiveVsBacktest, keyof BaseFields | 'period' | 'assumptions'> {
  return {
    ...comparison,
    live: { ...comparison.live, trades: comparison.live.trades.map(tradeAnswer) },
    backtest: { ...comparison.backtest, trades: comparison.backtest.trades.map(tradeAnswer) },
    matched_trades: comparison.matched_trades.map((pair) => ({
      ...pair,
      live: tradeAnswer(pair.live),
      backtest: tradeAnswer(pair.backtest),
    })),
    missed_signals: comparison.missed_signals.map(tradeAnswer),
    extra_trades: comparison.extra_trades.map(tradeAnswer),
  };
}

/** The answer of a bot that has not decided on a closed candle yet. */
function notLiveYet(inputs: ComparisonInputs, base: BaseFields): LiveVsBacktest {
  const empty = { return_pct: 0, trades: [], equity_curve: [] };
  return {
    ...base,
    period: null,
    live: empty,
    backtest: empty,
    delta_pct: 0,
    matched_trades: [],
    missed_signals: [],
    extra_trades: [],
    fee_diff: 0,
    slippage_diff: 0,
    reasons: { missed_pct: 0, extra_pct: 0, fee_pct: 0, slippage_pct: 0, open_pct: 0 },
    assumptions: assumptionsOf(inputs),
  };
}

type BaseFields = Pick<LiveVsBacktest, 'bot_id' | 'symbol' | 'timeframe' | 'strategy_type'>;

const protectionsOf = (inputs: ComparisonInputs) =>
  botProtections(inputs.bot, inputs.strategy.protections);

function assumptionsOf(inputs: ComparisonInputs): LiveVsBacktest['assumptions'] {
  const { stopLossPercent, takeProfitPercent, trailingStopPercent } = protectionsOf(inputs);
  return {
    fee_rate: inputs.feeRate ?? PLATFORM_FEE_RATE,
    slippage_bps: inputs.slippageBps,
    leverage: inputs.account.defaultLeverage,
    stop_loss_percent: stopLossPercent,
    take_profit_percent: takeProfitPercent,
    trailing_stop_percent: trailingStopPercent,
    return_rule: RETURN_RULE,
  };
}

/**
 * The live period runs from the bot's first start (the first candle it decided on is the one
 * forming then, as the engine joins) to now, or to its stop. The backtest acts only on signals
 * of that period's closed candles and ends at the last one, like the bot.
 */
export async function compareBotWithBacktest(inputs: ComparisonInputs): Promise<LiveVsBacktest> {
  const { bot, account } = inputs;
  const base: BaseFields = {
    bot_id: bot.id,
    symbol: bot.symbol,
    timeframe: bot.timeframe,
    strategy_type: bot.strategyType,
  };
  if (bot.liveSince === null) return notLiveYet(inputs, base);
  const timeframeMs = TIMEFRAME_MS[bot.timeframe];
  const liveSinceMs = bot.liveSince.getTime();
  // A bot that is not running stopped at its last change.
  const endMs = bot.status === 'running' ? inputs.now.getTime() : bot.updatedAt.getTime();
  const series = await inputs.feed.series({
    exchange: account.exchange,
    symbol: bot.symbol,
    timeframe: bot.timeframe,
    closedCount: CANDLE_LIMIT_MAX,
  });
  // Closed candles that had closed by the end of the period.
  const rows = series.closed.filter((candle) => candle.timestamp + timeframeMs <= endMs);
  const firstOpen = candleOpenTime(liveSinceMs, bot.timeframe);
  const firstLive = rows.findIndex((candle) => candle.timestamp >= firstOpen);
  if (firstLive < 0) return notLiveYet(inputs, base);
  const firstDecision = Math.max(firstLive, Math.min(COMPARISON_WARMUP_CANDLES, rows.length - 1));
  const candles = candlesFromRows(rows);
  const signals = inputs.strategy.compute(candles);
  const from = (indexes: readonly number[]) => indexes.filter((i) => i >= firstDecision);
  const { stopLossPercent, takeProfitPercent, trailingStopPercent } = protectionsOf(inputs);
  const leverage = account.defaultLeverage;
  const result = runBacktest(
    candles,
    {
      buy_signals: from(signals.buy_signals),
      sell_signals: from(signals.sell_signals),
      ...(signals.exit_long_signals ? { exit_long_signals: from(signals.exit_long_signals) } : {}),
      ...(signals.exit_short_signals
        ? { exit_short_signals: from(signals.exit_short_signals) }
        : {}),
    },
    {
      feeRate: inputs.feeRate ?? PLATFORM_FEE_RATE,
      slippageBps: inputs.slippageBps,
      leverage,
      stopLossPercent,
      takeProfitPercent,
      trailingStopPercent,
      direction: 'long_short',
      timeframe: bot.timeframe,
      initialBalance: Number(bot.tradeAmount),
    },
  );
  const periodStart = rows[firstDecision]!.timestamp;
  const periodEnd = rows.at(-1)!.timestamp;
  const comparison = compareLiveToBacktest({
    timeframeMs,
    periodStart,
    periodEnd,
    leverage,
    baseEquity: Number(bot.tradeAmount),
    live: liveTrades(inputs.trades, inputs.openPosition),
    backtest: result.trades,
  });
  return {
    ...base,
    period: {
      start: periodStart,
      end: periodEnd,
      live_since: bot.liveSince.toISOString(),
      candles: rows.length - firstDecision,
      days: Math.max(0, (endMs - liveSinceMs) / DAY_MS),
      is_truncated: firstDecision > firstLive,
    },
    ...comparisonAnswer(comparison),
    assumptions: assumptionsOf(inputs),
  };
}
