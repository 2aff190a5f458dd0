// Engine figures: a 1,000,000-candle ma_cross backtest with fees, slippage and SL/TP, and each
// indicator over 1,000,000 points, each against the `technicalindicators` package in this run.
import {
  atr,
  bollinger,
  type Candles,
  compileRuleStrategy,
  ema,
  macd,
  rsi,
  runBacktest,
  runStrategy,
  sma,
} from '@quantsquare/engine';
import { ATR, BollingerBands, EMA, MACD, RSI, SMA } from 'technicalindicators';
import { type Bar, peerBacktest } from './peer-backtest.js';

const CANDLE_COUNT = 1_000_000;
const FAST = { indicator: 'sma', period: 7 };
const SLOW = { indicator: 'sma', period: 25 };

/** mulberry32, so every run benchmarks the same data. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomWalk(count: number): Candles {
  const random = seededRandom(7);
  const c: Candles = {
    time: new Float64Array(count),
    open: new Float64Array(count),
    high: new Float64Array(count),
    low: new Float64Array(count),
    close: new Float64Array(count),
    volume: new Float64Array(count),
  };
  let price = 30_000;
  for (let i = 0; i < count; i++) {
    const open = price;
    const close = open * (1 + (random() * 2 - 1) * 0.005);
    c.time[i] = Date.UTC(2020, 0, 1) + i * 60_000;
    c.open[i] = open;
    c.close[i] = close;
    c.high[i] = Math.max(open, close) * (1 + random() * 0.0025);
    c.low[i] = Math.min(open, close) * (1 - random() * 0.0025);
    c.volume[i] = 1 + random() * 100;
    price = close;
  }
  return c;
}

/** Best wall time of `rounds` runs, in ms (best-of filters out GC and the other core's noise). */
function bestMs(rounds: number, run: () => unknown): number {
  let best = Number.POSITIVE_INFINITY;
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

export interface EngineFigures {
  lines: string[];
}

export function benchEngine(): EngineFigures {
  const lines: string[] = [];
  const candles = randomWalk(CANDLE_COUNT);
  const bars: Bar[] = Array.from({ length: CANDLE_COUNT }, (_, i) => ({
    time: candles.time[i]!,
    open: candles.open[i]!,
    high: candles.high[i]!,
    low: candles.low[i]!,
    close: candles.close[i]!,
    volume: candles.volume[i]!,
  }));
  const closes = Array.from(candles.close);
  const highs = Array.from(candles.high);
  const lows = Array.from(candles.low);
  const settings = {
    feeRate: 0.0005,
    slippageBps: 2,
    stopLossPercent: 2,
    takeProfitPercent: 4,
  };
  const equityOut = new Float64Array(CANDLE_COUNT);

  // Whole pipeline (signals + backtest), as the API runs it.
  const signals = runStrategy('ma_cross', candles, {});
  let ours = runBacktest(candles, signals, settings);
  const oursMs = bestMs(7, () => {
    ours = runBacktest(candles, runStrategy('ma_cross', candles, {}), { ...settings, equityOut });
  });
  const loopMs = bestMs(7, () => runBacktest(candles, signals, { ...settings, equityOut }));
  let peer = peerBacktest(bars, {
    fastPeriod: 7,
    slowPeriod: 25,
    ...settings,
    initialBalance: 10_000,
  });
  const peerMs = bestMs(3, () => {
    peer = peerBacktest(bars, {
      fastPeriod: 7,
      slowPeriod: 25,
      ...settings,
      initialBalance: 10_000,
    });
  });
  const sameTrades =
    ours.trades.length === peer.trades.length &&
    Math.abs(ours.final_balance - peer.finalBalance) <= 1e-6 * Math.abs(peer.finalBalance);
  const perSecond = (ms: number) =>
    `${(((CANDLE_COUNT / ms) * 1000) / 1e6).toFixed(1)} M candles/s`;
  lines.push(
    `backtest ma_cross 1,000,000 candles (fee 0.05%, slippage 2 bps, SL 2%, TP 4%), ${ours.trade_count} trades`,
    `  engine, backtest loop only:        ${loopMs.toFixed(1)} ms  ${perSecond(loopMs)}`,
    `  engine, signals + backtest:        ${oursMs.toFixed(1)} ms  ${perSecond(oursMs)}`,
    `  technicalindicators peer, same:    ${peerMs.toFixed(1)} ms  ${perSecond(peerMs)}`,
    `  ratio (peer / engine, pipeline):   ${(peerMs / oursMs).toFixed(1)}x`,
    `  same trades and final balance:     ${sameTrades ? 'yes' : `NO (${ours.trades.length} vs ${peer.trades.length}, ${ours.final_balance} vs ${peer.finalBalance})`}`,
  );

  // A builder rule set written as ma_cross with both sides: the same trades, through the rule
  // evaluator (issue 26: within 1.5x of the built-in, in the same run).
  const crossRules = {
    entry_long: { left: FAST, op: 'crosses_above', right: SLOW },
    exit_long: { left: FAST, op: 'crosses_below', right: SLOW },
    entry_short: { left: FAST, op: 'crosses_below', right: SLOW },
    exit_short: { left: FAST, op: 'crosses_above', right: SLOW },
  };
  const compiled = compileRuleStrategy('custom:bench', crossRules);
  if (!compiled.ok) throw new Error(`bench rule set refused: ${JSON.stringify(compiled.issues)}`);
  const builder = compiled.strategy;
  let fromRules = runBacktest(candles, builder.compute(candles), settings);
  const rulesMs = bestMs(7, () => {
    fromRules = runBacktest(candles, builder.compute(candles), { ...settings, equityOut });
  });
  // ma_cross again, interleaved with the builder, so both figures share the machine's state.
  const maCrossMs = bestMs(7, () =>
    runBacktest(candles, runStrategy('ma_cross', candles, {}), { ...settings, equityOut }),
  );
  const builderSame =
    fromRules.trade_count === ours.trade_count && fromRules.final_balance === ours.final_balance;
  const builderRatio = rulesMs / Math.min(maCrossMs, oursMs);
  lines.push(
    'builder rule set "SMA(7) crosses SMA(25)", long and short, same settings',
    `  builder, signals + backtest:       ${rulesMs.toFixed(1)} ms  ${perSecond(rulesMs)}`,
    `  ma_cross, signals + backtest:      ${Math.min(maCrossMs, oursMs).toFixed(1)} ms`,
    `  ratio (builder / ma_cross):        ${builderRatio.toFixed(2)}x ${builderRatio <= 1.5 ? '(within 1.5x)' : '(ABOVE 1.5x)'}`,
    `  same trades and final balance:     ${builderSame ? 'yes' : `NO (${fromRules.trade_count} vs ${ours.trade_count})`}`,
  );

  // A rule set off the ma_cross shape, through the general evaluator (indicators, a group, a
  // comparison with a value): no built-in makes the same trades, so ma_cross's time is the peer.
  const generalRules = {
    entry_long: {
      all: [
        { left: 'close', op: 'crosses_above', right: { indicator: 'ema', period: 50 } },
        { left: { indicator: 'rsi', period: 14 }, op: 'lt', right: { value: 70 } },
      ],
    },
    exit_long: { left: 'close', op: 'crosses_below', right: { indicator: 'ema', period: 50 } },
    entry_short: null,
    exit_short: null,
  };
  const general = compileRuleStrategy('custom:bench-general', generalRules);
  if (!general.ok) throw new Error(`bench rule set refused: ${JSON.stringify(general.issues)}`);
  const generalStrategy = general.strategy;
  let fromGeneral = runBacktest(candles, generalStrategy.compute(candles), settings);
  const generalMs = bestMs(7, () => {
    fromGeneral = runBacktest(candles, generalStrategy.compute(candles), {
      ...settings,
      equityOut,
    });
  });
  const generalRatio = generalMs / Math.min(maCrossMs, oursMs);
  lines.push(
    'builder rule set "close crosses above EMA(50) and RSI(14) < 70 -> long; crosses below -> exit"',
    `  builder, signals + backtest:       ${generalMs.toFixed(1)} ms  ${perSecond(generalMs)}, ${fromGeneral.trade_count} trades`,
    `  ratio (builder / ma_cross):        ${generalRatio.toFixed(2)}x ${generalRatio <= 1.5 ? '(within 1.5x)' : '(ABOVE 1.5x)'}`,
  );

  const indicatorRows: [string, () => unknown, () => unknown][] = [
    ['SMA(25)', () => sma(candles.close, 25), () => SMA.calculate({ period: 25, values: closes })],
    ['EMA(25)', () => ema(candles.close, 25), () => EMA.calculate({ period: 25, values: closes })],
    ['RSI(14)', () => rsi(candles.close, 14), () => RSI.calculate({ period: 14, values: closes })],
    [
      'MACD(12,26,9)',
      () => macd(candles.close, 12, 26, 9),
      () =>
        MACD.calculate({
          values: closes,
          fastPeriod: 12,
          slowPeriod: 26,
          signalPeriod: 9,
          SimpleMAOscillator: false,
          SimpleMASignal: false,
        }),
    ],
    [
      'Bollinger(20,2)',
      () => bollinger(candles.close, 20, 2),
      () => BollingerBands.calculate({ period: 20, stdDev: 2, values: closes }),
    ],
    [
      'ATR(14)',
      () => atr(candles.high, candles.low, candles.close, 14),
      () => ATR.calculate({ period: 14, high: highs, low: lows, close: closes }),
    ],
  ];
  lines.push('indicators over 1,000,000 points (engine ms / technicalindicators ms / ratio)');
  for (const [name, engineRun, peerRun] of indicatorRows) {
    const engineMs = bestMs(5, engineRun);
    const peerIndicatorMs = bestMs(2, peerRun);
    lines.push(
      `  ${name.padEnd(16)} ${engineMs.toFixed(1).padStart(7)} ms ${peerIndicatorMs.toFixed(1).padStart(8)} ms ${(peerIndicatorMs / engineMs).toFixed(1).padStart(7)}x`,
    );
  }
  return { lines };
}
