// The peer of the benchmark: the same ma_cross backtest written the usual way in JavaScript —
// indicators from the `technicalindicators` package, candles as objects, a position object and
// trade/equity objects pushed per event and per candle. Same rules as the engine (next-open
// fills, fees on notional, slippage on market fills, SL before TP inside the candle, gap fills,
// reversal, end-of-data exit), so both must produce the same trades.
import { SMA } from 'technicalindicators';

export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface PeerOptions {
  fastPeriod: number;
  slowPeriod: number;
  feeRate: number;
  slippageBps: number;
  stopLossPercent: number;
  takeProfitPercent: number;
  initialBalance: number;
}

interface Position {
  side: 1 | -1;
  amount: number;
  entryPrice: number;
  entryFee: number;
  entryTime: number;
  stop: number;
  take: number;
}

interface PeerTrade {
  side: 'long' | 'short';
  entryTime: number;
  exitTime: number;
  entryPrice: number;
  exitPrice: number;
  pnl: number;
  reason: string;
}

export function peerBacktest(bars: Bar[], o: PeerOptions) {
  const closes = bars.map((b) => b.close);
  const fast = SMA.calculate({ period: o.fastPeriod, values: closes });
  const slow = SMA.calculate({ period: o.slowPeriod, values: closes });
  const fastAt = (i: number) => fast[i - o.fastPeriod + 1];
  const slowAt = (i: number) => slow[i - o.slowPeriod + 1];
  const signals: ('buy' | 'sell' | null)[] = bars.map(() => null);
  for (let i = o.slowPeriod; i < bars.length; i++) {
    const f = fastAt(i)!;
    const s = slowAt(i)!;
    const fPrev = fastAt(i - 1)!;
    const sPrev = slowAt(i - 1)!;
    if (f > s && fPrev <= sPrev) signals[i] = 'buy';
    else if (f < s && fPrev >= sPrev) signals[i] = 'sell';
  }

  const up = 1 + o.slippageBps / 10_000;
  const down = 1 - o.slippageBps / 10_000;
  let balance = o.initialBalance;
  let position: Position | null = null;
  const trades: PeerTrade[] = [];
  const equity: { time: number; equity: number }[] = [];

  const exit = (p: Position, bar: Bar, price: number, reason: string) => {
    const exitFee = p.amount * price * o.feeRate;
    const change = p.side * p.amount * (price - p.entryPrice) - exitFee;
    balance += change;
    trades.push({
      side: p.side === 1 ? 'long' : 'short',
      entryTime: p.entryTime,
      exitTime: bar.time,
      entryPrice: p.entryPrice,
      exitPrice: price,
      pnl: change - p.entryFee,
      reason,
    });
  };

  for (let i = 0; i < bars.length; i++) {
    const bar = bars[i]!;
    const signal = i > 0 ? signals[i - 1] : null;
    if (signal) {
      const side = signal === 'buy' ? 1 : -1;
      const fill = bar.open * (side === 1 ? up : down);
      if (position && position.side === -side) {
        exit(position, bar, fill, 'signal');
        position = null;
      }
      if (!position && balance > 0) {
        const notional = balance;
        const entryFee = notional * o.feeRate;
        position = {
          side,
          amount: notional / fill,
          entryPrice: fill,
          entryFee,
          entryTime: bar.time,
          stop: fill * (1 - (side * o.stopLossPercent) / 100),
          take: fill * (1 + (side * o.takeProfitPercent) / 100),
        };
        balance -= entryFee;
      }
    }
    if (position) {
      const p: Position = position;
      if (p.side === 1 && bar.low <= p.stop) {
        exit(p, bar, Math.min(bar.open, p.stop) * down, 'stop_loss');
        position = null;
      } else if (p.side === 1 && bar.high >= p.take) {
        exit(p, bar, Math.max(bar.open, p.take), 'take_profit');
        position = null;
      } else if (p.side === -1 && bar.high >= p.stop) {
        exit(p, bar, Math.max(bar.open, p.stop) * up, 'stop_loss');
        position = null;
      } else if (p.side === -1 && bar.low <= p.take) {
        exit(p, bar, Math.min(bar.open, p.take), 'take_profit');
        position = null;
      }
    }
    const open = position as Position | null;
    equity.push({
      time: bar.time,
      equity: open ? balance + open.side * open.amount * (bar.close - open.entryPrice) : balance,
    });
  }
  const last = bars[bars.length - 1];
  const stillOpen = position as Position | null;
  if (stillOpen && last) {
    exit(stillOpen, last, last.close * (stillOpen.side === 1 ? down : up), 'end_of_data');
    equity[equity.length - 1] = { time: last.time, equity: balance };
  }
  return { trades, equity, finalBalance: balance };
}
