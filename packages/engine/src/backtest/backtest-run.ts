// One backtest run's moving parts and the steps of its candle loop (backtest.ts): acting on the
// signals at an open, the protective exits inside a candle, the close at the end of the data.
// The run is one object built per call, of a fixed shape, so the loop allocates nothing per
// candle and every step reads the same fields.
import { grossPnl, slippedPrice, tradeFee } from '../position/pnl.js';
import {
  hitProtective,
  type ProtectiveHitOut,
  stopLossLevel,
  takeProfitLevel,
  tighterStop,
} from '../position/protective.js';
import { positionAmount } from '../position/sizing.js';
import type { BacktestSignals } from './backtest.types.js';
import type { ResolvedOptions } from './backtest-options.js';
import {
  createTradeLog,
  EXIT_END_OF_DATA,
  EXIT_SIGNAL,
  EXIT_STOP_LOSS,
  EXIT_TAKE_PROFIT,
  type TradeLog,
} from './trade-log.js';

export const LONG = 1;
export const SHORT = -1;
export const FLAT = 0;

export interface BacktestRun {
  readonly log: TradeLog;
  readonly feeRate: number;
  readonly leverage: number;
  readonly positionSizeFraction: number;
  readonly slippageBps: number;
  readonly stopPercent: number | null;
  readonly takePercent: number | null;
  readonly trailPercent: number | null;
  readonly canLong: boolean;
  readonly canShort: boolean;
  readonly buys: readonly number[];
  readonly sells: readonly number[];
  readonly exitLongs: readonly number[];
  readonly exitShorts: readonly number[];
  /** Scratch of `hitProtective`, reused on every candle. */
  readonly hit: ProtectiveHitOut;
  /** The open position: LONG, SHORT or FLAT (none; the fields below are then stale). */
  side: number;
  amount: number;
  entryPrice: number;
  entryFee: number;
  margin: number;
  entryIndex: number;
  stopPrice: number;
  takePrice: number;
  /** The best price since entry (highest for a long, lowest for a short), for the trailing stop. */
  bestPrice: number;
  /** Realised; equity = balance + unrealised pnl. */
  balance: number;
  buyCursor: number;
  sellCursor: number;
  exitLongCursor: number;
  exitShortCursor: number;
  nextBuy: number;
  nextSell: number;
  nextExitLong: number;
  nextExitShort: number;
}

/** A run at its start: flat, the whole initial balance, each signal list at its first index. */
export function startRun(settings: ResolvedOptions, signals: BacktestSignals): BacktestRun {
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
  return {
    // Every trade needs an entry and every entry a signal, so this capacity is never exceeded.
    log: createTradeLog(buys.length + sells.length),
    feeRate: settings.feeRate,
    leverage: settings.leverage,
    positionSizeFraction: settings.positionSizeFraction,
    slippageBps: settings.slippageBps,
    stopPercent: settings.stopLossPercent,
    takePercent: settings.takeProfitPercent,
    trailPercent: settings.trailingStopPercent,
    canLong: settings.direction !== 'short_only',
    canShort: settings.direction !== 'long_only',
    buys,
    sells,
    exitLongs,
    exitShorts,
    hit: { reason: 'stop_loss', price: 0 },
    side: FLAT,
    amount: 0,
    entryPrice: 0,
    entryFee: 0,
    margin: 0,
    entryIndex: -1,
    stopPrice: Number.NaN,
    takePrice: Number.NaN,
    bestPrice: Number.NaN,
    balance: settings.initialBalance,
    buyCursor: 0,
    sellCursor: 0,
    exitLongCursor: 0,
    exitShortCursor: 0,
    nextBuy: buys.length > 0 ? buys[0]! : Number.POSITIVE_INFINITY,
    nextSell: sells.length > 0 ? sells[0]! : Number.POSITIVE_INFINITY,
    nextExitLong: exitLongs.length > 0 ? exitLongs[0]! : Number.POSITIVE_INFINITY,
    nextExitShort: exitShorts.length > 0 ? exitShorts[0]! : Number.POSITIVE_INFINITY,
  };
}

/**
 * At candle i's open: the signals decided at the previous close (`signalIndex`) move the cursors
 * past them, then close the held position and/or open a new one at the (slipped) open.
 */
export function actOnSignals(
  run: BacktestRun,
  i: number,
  signalIndex: number,
  candleOpen: number,
): void {
  const { buys, sells, exitLongs, exitShorts } = run;
  let isBuy = false;
  let isSell = false;
  let isExitLong = false;
  let isExitShort = false;
  while (run.nextBuy <= signalIndex) {
    if (run.nextBuy === signalIndex) isBuy = true;
    run.buyCursor++;
    run.nextBuy = run.buyCursor < buys.length ? buys[run.buyCursor]! : Number.POSITIVE_INFINITY;
  }
  while (run.nextSell <= signalIndex) {
    if (run.nextSell === signalIndex) isSell = true;
    run.sellCursor++;
    run.nextSell =
      run.sellCursor < sells.length ? sells[run.sellCursor]! : Number.POSITIVE_INFINITY;
  }
  while (run.nextExitLong <= signalIndex) {
    if (run.nextExitLong === signalIndex) isExitLong = true;
    run.exitLongCursor++;
    run.nextExitLong =
      run.exitLongCursor < exitLongs.length
        ? exitLongs[run.exitLongCursor]!
        : Number.POSITIVE_INFINITY;
  }
  while (run.nextExitShort <= signalIndex) {
    if (run.nextExitShort === signalIndex) isExitShort = true;
    run.exitShortCursor++;
    run.nextExitShort =
      run.exitShortCursor < exitShorts.length
        ? exitShorts[run.exitShortCursor]!
        : Number.POSITIVE_INFINITY;
  }
  // A buy and a sell on the same candle cancel out; a buy closes a short and a sell a long,
  // as an exit signal of that side does (signalAt: the same rule for the live bot).
  const isEntry = isBuy !== isSell;
  const side = run.side;
  const closesHeld =
    side === LONG ? isExitLong || (isEntry && isSell) : isExitShort || (isEntry && isBuy);
  if (side !== FLAT && closesHeld) {
    exit(run, i, slippedPrice(candleOpen, side === SHORT, run.slippageBps), EXIT_SIGNAL);
  }
  if (isEntry && run.side === FLAT && run.balance > 0 && (isBuy ? run.canLong : run.canShort)) {
    enter(run, i, isBuy, candleOpen);
  }
}

/** Opens a position at candle i's (slipped) open with the run's share of the balance. */
function enter(run: BacktestRun, i: number, isBuy: boolean, candleOpen: number): void {
  const { leverage, stopPercent, takePercent } = run;
  const fillPrice = slippedPrice(candleOpen, isBuy, run.slippageBps);
  const margin = run.balance * run.positionSizeFraction;
  const side = isBuy ? LONG : SHORT;
  run.margin = margin;
  run.side = side;
  run.amount = positionAmount(margin, leverage, fillPrice);
  run.entryPrice = fillPrice;
  run.entryFee = tradeFee(margin * leverage, run.feeRate);
  run.entryIndex = i;
  run.stopPrice = stopPercent !== null ? stopLossLevel(side, fillPrice, stopPercent) : Number.NaN;
  run.takePrice = takePercent !== null ? takeProfitLevel(side, fillPrice, takePercent) : Number.NaN;
  run.bestPrice = fillPrice;
  run.balance -= run.entryFee;
}

/**
 * Inside candle i, of a held position: the stop (the trailing level from the best price of the
 * candles before this one and the entry) first, then the target; a hit closes the position.
 */
export function exitOnProtective(
  run: BacktestRun,
  i: number,
  candleOpen: number,
  high: number,
  low: number,
): void {
  const { side, trailPercent, hit } = run;
  const stopLevel =
    trailPercent === null
      ? run.stopPrice
      : tighterStop(side, run.stopPrice, stopLossLevel(side, run.bestPrice, trailPercent));
  if (!hitProtective(hit, side, stopLevel, run.takePrice, candleOpen, high, low)) return;
  // The stop is a market order (slippage); the target a resting limit at its price.
  const isStop = hit.reason === 'stop_loss';
  const exitPrice = isStop ? slippedPrice(hit.price, side === SHORT, run.slippageBps) : hit.price;
  exit(run, i, exitPrice, isStop ? EXIT_STOP_LOSS : EXIT_TAKE_PROFIT);
}

/** A position still open after the last candle closes at its (slipped) close: end of data. */
export function exitAtEnd(run: BacktestRun, last: number, lastClose: number): void {
  exit(run, last, slippedPrice(lastClose, run.side === SHORT, run.slippageBps), EXIT_END_OF_DATA);
}

/** Throws unless `indexes` strictly ascend (each signal list, checked once per run). */
function assertAscending(indexes: readonly number[], name: string): void {
  for (let k = 1; k < indexes.length; k++) {
    if (!(indexes[k]! > indexes[k - 1]!)) {
      throw new RangeError(`${name} must be strictly ascending candle indexes`);
    }
  }
}

/**
 * Records the closed position in the run's log and moves the realised balance by gross pnl minus
 * the exit fee (the entry fee was taken at entry); the run is flat after it.
 */
function exit(run: BacktestRun, exitIndex: number, exitPrice: number, reason: number): void {
  const { log, side, amount, entryPrice, entryFee } = run;
  const exitFee = tradeFee(amount * exitPrice, run.feeRate);
  const balanceChange = grossPnl(side, amount, entryPrice, exitPrice) - exitFee;
  const k = log.count++;
  log.side[k] = side;
  log.entryIndex[k] = run.entryIndex;
  log.exitIndex[k] = exitIndex;
  log.entryPrice[k] = entryPrice;
  log.exitPrice[k] = exitPrice;
  log.amount[k] = amount;
  log.pnl[k] = balanceChange - entryFee;
  log.fee[k] = entryFee + exitFee;
  log.margin[k] = run.margin;
  log.reason[k] = reason;
  run.balance += balanceChange;
  run.side = FLAT;
}
