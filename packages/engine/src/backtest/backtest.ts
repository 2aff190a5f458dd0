// Event-free, single-pass backtest over columnar candles. Per candle i, in this order:
//   1. at the open: act on the signal decided at candle i-1's close (exit and/or entry);
//   2. inside the candle: stop-loss, then take-profit, of the open position (entry candle too);
//   3. at the close: mark equity to the close into a preallocated Float64Array.
// The loop allocates nothing per candle; trades go to a preallocated columnar log and become
// objects only when `trades` is first read.
import type { Candles } from '../candles.js';
import { grossPnl, slippedPrice, tradeFee } from '../position/pnl.js';
import {
  hitProtective,
  type ProtectiveHitOut,
  stopLossLevel,
  takeProfitLevel,
  tighterStop,
} from '../position/protective.js';
import { positionAmount } from '../position/sizing.js';
import type {
  BacktestOptions,
  BacktestResult,
  BacktestSignals,
  BacktestTrade,
} from './backtest.types.js';
import { describeAssumptions, resolveOptions } from './backtest-options.js';
import { summarise } from './backtest-summary.js';
import {
  createTradeLog,
  EXIT_END_OF_DATA,
  EXIT_SIGNAL,
  EXIT_STOP_LOSS,
  EXIT_TAKE_PROFIT,
  type TradeLog,
  tradesFromLog,
} from './trade-log.js';

const LONG = 1;
const SHORT = -1;
const FLAT = 0;

/**
 * Runs `signals` over `candles`. Pure and deterministic. A signal on the last candle is never
 * acted on (there is no next open); a position still open after the last candle is closed at
 * the last close (reason end_of_data, slippage and fee charged, like freqtrade's force exit),
 * so `final_balance` equals the last equity point. Gaps: a candle that opens beyond the stop
 * (or the target) exits at its open. Market fills (signal, stop-loss, end-of-data) pay
 * slippage; take-profit is a resting limit order filled at its price. No liquidation model.
 */
export function runBacktest(
  candles: Candles,
  signals: BacktestSignals,
  options: BacktestOptions = {},
): BacktestResult {
  const settings = resolveOptions(options);
  const { open, high, low, close, time } = candles;
  const candleTotal = close.length;
  const equity =
    options.equityOut && options.equityOut.length >= candleTotal
      ? options.equityOut.subarray(0, candleTotal)
      : new Float64Array(candleTotal);

  const { feeRate, leverage, positionSizeFraction, slippageBps } = settings;
  const stopPercent = settings.stopLossPercent;
  const takePercent = settings.takeProfitPercent;
  const hasStopOrTake = stopPercent !== null || takePercent !== null;
  // The engine's position rules (src/position/), shared with the live bot and paper exchange.
  const hit: ProtectiveHitOut = { reason: 'stop_loss', price: 0 };
  const canLong = settings.direction !== 'short_only';
  const canShort = settings.direction !== 'long_only';
  const trailPercent = settings.trailingStopPercent;
  const hasProtection = hasStopOrTake || trailPercent !== null;
  const buys = signals.buy_signals;
  const sells = signals.sell_signals;
  // A plain empty array, not a frozen one: a frozen array has another elements kind, and the
  // signal loop would turn polymorphic when runs with and without exits share it.
  const exitLongs = signals.exit_long_signals ?? [];
  const exitShorts = signals.exit_short_signals ?? [];

  assertAscending(buys, 'buy_signals');
  assertAscending(sells, 'sell_signals');
  assertAscending(exitLongs, 'exit_long_signals');
  assertAscending(exitShorts, 'exit_short_signals');

  // Every trade needs an entry and every entry a signal, so this capacity is never exceeded.
  const log = createTradeLog(buys.length + sells.length);
  // The open position lives in locals (no closures, no per-candle object access).
  let side = FLAT;
  let amount = 0;
  let entryPrice = 0;
  let entryFee = 0;
  let margin = 0;
  let entryIndex = -1;
  let stopPrice = Number.NaN;
  let takePrice = Number.NaN;
  // The best price since entry (highest for a long, lowest for a short), for the trailing stop.
  let bestPrice = Number.NaN;
  let balance = settings.initialBalance; // realised; equity = balance + unrealised pnl
  let buyCursor = 0;
  let sellCursor = 0;
  let nextBuy = buys.length > 0 ? buys[0]! : Number.POSITIVE_INFINITY;
  let nextSell = sells.length > 0 ? sells[0]! : Number.POSITIVE_INFINITY;
  let exitLongCursor = 0;
  let exitShortCursor = 0;
  let nextExitLong = exitLongs.length > 0 ? exitLongs[0]! : Number.POSITIVE_INFINITY;
  let nextExitShort = exitShorts.length > 0 ? exitShorts[0]! : Number.POSITIVE_INFINITY;

  // Funding marks, charged at the first candle open at or after each one, on the position held
  // before that open's fills (for timeframes up to 8 h the marks are candle opens).
  const fundingTimes = options.funding?.time;
  const fundingRates = options.funding?.rate;
  const fundingCount = fundingTimes?.length ?? 0;
  let fundingCursor = 0;
  let fundingPaid = 0;
  const firstTime = candleTotal > 0 ? time[0]! : 0;
  while (fundingCursor < fundingCount && fundingTimes![fundingCursor]! < firstTime) fundingCursor++;

  for (let i = 0; i < candleTotal; i++) {
    const candleOpen = open[i]!;
    while (fundingCursor < fundingCount && fundingTimes![fundingCursor]! <= time[i]!) {
      if (side !== FLAT) {
        const payment = side * amount * candleOpen * fundingRates![fundingCursor]!;
        balance -= payment;
        fundingPaid += payment;
      }
      fundingCursor++;
    }
    const signalIndex = i - 1; // the signal decided at the previous close acts at this open
    if (
      signalIndex >= nextBuy ||
      signalIndex >= nextSell ||
      signalIndex >= nextExitLong ||
      signalIndex >= nextExitShort
    ) {
      let isBuy = false;
      let isSell = false;
      let isExitLong = false;
      let isExitShort = false;
      while (nextBuy <= signalIndex) {
        if (nextBuy === signalIndex) isBuy = true;
        buyCursor++;
        nextBuy = buyCursor < buys.length ? buys[buyCursor]! : Number.POSITIVE_INFINITY;
      }
      while (nextSell <= signalIndex) {
        if (nextSell === signalIndex) isSell = true;
        sellCursor++;
        nextSell = sellCursor < sells.length ? sells[sellCursor]! : Number.POSITIVE_INFINITY;
      }
      while (nextExitLong <= signalIndex) {
        if (nextExitLong === signalIndex) isExitLong = true;
        exitLongCursor++;
        nextExitLong =
          exitLongCursor < exitLongs.length ? exitLongs[exitLongCursor]! : Number.POSITIVE_INFINITY;
      }
      while (nextExitShort <= signalIndex) {
        if (nextExitShort === signalIndex) isExitShort = true;
        exitShortCursor++;
        nextExitShort =
          exitShortCursor < exitShorts.length
            ? exitShorts[exitShortCursor]!
            : Number.POSITIVE_INFINITY;
      }
      // A buy and a sell on the same candle cancel out; a buy closes a short and a sell a long,
      // as an exit signal of that side does (signalAt: the same rule for the live bot).
      const isEntry = isBuy !== isSell;
      const closesHeld =
        side === LONG ? isExitLong || (isEntry && isSell) : isExitShort || (isEntry && isBuy);
      if (side !== FLAT && closesHeld) {
        balance += writeExit(
          log,
          side,
          amount,
          entryPrice,
          entryFee,
          margin,
          entryIndex,
          i,
          slippedPrice(candleOpen, side === SHORT, slippageBps),
          feeRate,
          EXIT_SIGNAL,
        );
        side = FLAT;
      }
      if (isEntry && side === FLAT && balance > 0 && (isBuy ? canLong : canShort)) {
        const fillPrice = slippedPrice(candleOpen, isBuy, slippageBps);
        margin = balance * positionSizeFraction;
        side = isBuy ? LONG : SHORT;
        amount = positionAmount(margin, leverage, fillPrice);
        entryPrice = fillPrice;
        entryFee = tradeFee(margin * leverage, feeRate);
        entryIndex = i;
        stopPrice = stopPercent !== null ? stopLossLevel(side, fillPrice, stopPercent) : Number.NaN;
        takePrice =
          takePercent !== null ? takeProfitLevel(side, fillPrice, takePercent) : Number.NaN;
        bestPrice = fillPrice;
        balance -= entryFee;
      }
    }

    // The trailing level from the best price of the candles before this one (and the entry).
    const stopLevel =
      trailPercent === null || side === FLAT
        ? stopPrice
        : tighterStop(side, stopPrice, stopLossLevel(side, bestPrice, trailPercent));
    if (
      side !== FLAT &&
      hasProtection &&
      hitProtective(hit, side, stopLevel, takePrice, candleOpen, high[i]!, low[i]!)
    ) {
      // The stop is a market order (slippage); the target a resting limit at its price.
      const isStop = hit.reason === 'stop_loss';
      const exitPrice = isStop ? slippedPrice(hit.price, side === SHORT, slippageBps) : hit.price;
      balance += writeExit(
        log,
        side,
        amount,
        entryPrice,
        entryFee,
        margin,
        entryIndex,
        i,
        exitPrice,
        feeRate,
        isStop ? EXIT_STOP_LOSS : EXIT_TAKE_PROFIT,
      );
      side = FLAT;
    }
    if (side === LONG && high[i]! > bestPrice) bestPrice = high[i]!;
    else if (side === SHORT && low[i]! < bestPrice) bestPrice = low[i]!;

    equity[i] = side === FLAT ? balance : balance + grossPnl(side, amount, entryPrice, close[i]!);
  }

  if (side !== FLAT && candleTotal > 0) {
    const last = candleTotal - 1;
    const exitPrice = slippedPrice(close[last]!, side === SHORT, slippageBps);
    balance += writeExit(
      log,
      side,
      amount,
      entryPrice,
      entryFee,
      margin,
      entryIndex,
      last,
      exitPrice,
      feeRate,
      EXIT_END_OF_DATA,
    );
    equity[last] = balance;
  }

  let trades: BacktestTrade[] | undefined;
  return {
    trade_log: log,
    // Trade objects are built on first read, so a benchmark or an optimiser that only needs
    // the metrics never allocates them.
    get trades() {
      trades ??= tradesFromLog(log, time);
      return trades;
    },
    equity,
    equity_time: time,
    ...summarise(candles, equity, log, settings, options),
    funding_paid: fundingPaid,
    assumptions: describeAssumptions(settings, options.funding?.source, options.funding?.note),
  };
}

/** The stop nearer the price: the higher of two for a long, the lower for a short (NaN: none). */
function assertAscending(indexes: readonly number[], name: string): void {
  for (let k = 1; k < indexes.length; k++) {
    if (!(indexes[k]! > indexes[k - 1]!)) {
      throw new RangeError(`${name} must be strictly ascending candle indexes`);
    }
  }
}

/**
 * Records a closed position in `log` and answers the change of the realised balance
 * (gross pnl minus the exit fee; the entry fee was taken at entry).
 */
function writeExit(
  log: TradeLog,
  side: number,
  amount: number,
  entryPrice: number,
  entryFee: number,
  margin: number,
  entryIndex: number,
  exitIndex: number,
  exitPrice: number,
  feeRate: number,
  reason: number,
): number {
  const exitFee = tradeFee(amount * exitPrice, feeRate);
  const balanceChange = grossPnl(side, amount, entryPrice, exitPrice) - exitFee;
  const k = log.count++;
  log.side[k] = side;
  log.entryIndex[k] = entryIndex;
  log.exitIndex[k] = exitIndex;
  log.entryPrice[k] = entryPrice;
  log.exitPrice[k] = exitPrice;
  log.amount[k] = amount;
  log.pnl[k] = balanceChange - entryFee;
  log.fee[k] = entryFee + exitFee;
  log.margin[k] = margin;
  log.reason[k] = reason;
  return balanceChange;
}
