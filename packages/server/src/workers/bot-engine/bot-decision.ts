// The pure part of a bot: what to do on a candle close, how big an order is, whether a price
// range touched a stop-loss or take-profit. No I/O, so the bench can time it alone and the
// backtest parity holds by construction (same `runStrategy` + `signalAt` on the same candles).
import {
  type Candles,
  isStrategyType,
  type SignalAction,
  STRATEGIES,
  type StrategySignals,
  signalAt,
  validateParameters,
} from '@quantsquare/engine';
import type { MarketFacts } from '../../exchange/exchange-client.js';

export type BotSide = 'long' | 'short';

export interface BotStrategy {
  readonly strategyType: string;
  readonly strategyParameters: Readonly<Record<string, number>>;
}

export interface HeldPosition {
  readonly side: BotSide;
  readonly stopLoss: number | null;
  readonly takeProfit: number | null;
}

export type BotIntent =
  | { readonly kind: 'close'; readonly side: BotSide; readonly reason: 'signal' }
  | { readonly kind: 'open'; readonly side: BotSide };

/** Evaluations shared by the bots of one feed with the same strategy on one candle close. */
export type SignalMemo = Map<string, SignalAction | null>;

/** Equal for equal strategies: the memo key (bots compute it once, not per candle). */
export function strategyKey(strategy: BotStrategy): string {
  return `${strategy.strategyType}${JSON.stringify(strategy.strategyParameters)}`;
}

/** A bot's strategy, validated once: evaluating it skips the per-call parameter checks. */
export interface CompiledStrategy {
  /** strategyKey(strategy): bots of a feed with equal keys share one evaluation per close. */
  readonly key: string;
  readonly compute: (candles: Candles) => StrategySignals;
}

export function compileStrategy(strategy: BotStrategy): CompiledStrategy {
  if (!isStrategyType(strategy.strategyType)) {
    throw new RangeError(`unknown strategy ${strategy.strategyType}`);
  }
  const type = strategy.strategyType;
  const validation = validateParameters(type, strategy.strategyParameters);
  if (!validation.ok) {
    throw new RangeError(`invalid ${type} parameters: ${JSON.stringify(validation.fields)}`);
  }
  const parameters = validation.parameters;
  return {
    key: strategyKey(strategy),
    // The same function runStrategy (and so the backtest) calls, on the same candles.
    compute: (candles) => STRATEGIES[type].compute(candles, parameters),
  };
}

/** The signal decided on the close of the last candle of `candles` (null for none). */
export function latestSignal(
  candles: Candles,
  strategy: CompiledStrategy,
  memo?: SignalMemo,
): SignalAction | null {
  const known = memo?.get(strategy.key);
  if (known !== undefined) return known;
  const action = signalAt(strategy.compute(candles), candles.close.length - 1);
  memo?.set(strategy.key, action);
  return action;
}

/**
 * What a long_short bot does at the next open after `signal`, as the backtest does: a buy closes
 * a short and opens a long, a sell the reverse; a signal in the held direction does nothing.
 */
export function decide(signal: SignalAction | null, position: HeldPosition | null): BotIntent[] {
  if (signal === null) return [];
  const side: BotSide = signal === 'buy' ? 'long' : 'short';
  if (position?.side === side) return [];
  const intents: BotIntent[] = [];
  if (position) intents.push({ kind: 'close', side: position.side, reason: 'signal' });
  intents.push({ kind: 'open', side });
  return intents;
}

export type Sizing =
  | { readonly ok: true; readonly amount: number }
  | {
      readonly ok: false;
      readonly reason: string;
      /** Which minimum the order misses: its amount or its notional (amount × price). */
      readonly limit: 'amount' | 'notional';
      readonly value: number;
      readonly minimum: number;
    };

/** Amount = trade amount (margin) × leverage / price, rounded DOWN to the market's step. */
export function orderAmount(
  tradeAmount: number,
  leverage: number,
  price: number,
  facts: MarketFacts,
): Sizing {
  const step = facts.amountStep > 0 ? facts.amountStep : 1e-8;
  const raw = (tradeAmount * leverage) / price;
  // The epsilon keeps 0.3 / 0.1 = 2.9999999999999996 from rounding down a whole step.
  const steps = Math.floor(raw / step + 1e-9);
  const amount = Number((steps * step).toFixed(decimalsOf(step)));
  if (amount <= 0 || amount < facts.minAmount) {
    return {
      ok: false,
      reason: `amount ${amount} is below the minimum ${facts.minAmount}`,
      limit: 'amount',
      value: amount,
      minimum: facts.minAmount,
    };
  }
  if (amount * price < facts.minNotional) {
    const notional = Number((amount * price).toFixed(2));
    return {
      ok: false,
      reason: `notional ${notional.toFixed(2)} is below the minimum ${facts.minNotional}`,
      limit: 'notional',
      value: notional,
      minimum: facts.minNotional,
    };
  }
  return { ok: true, amount };
}

function decimalsOf(step: number): number {
  const text = step.toString();
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  return text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
}

/** Stop-loss and take-profit levels from the entry fill, as the backtest sets them. */
export function protectiveLevels(
  side: BotSide,
  entryPrice: number,
  stopLossPercent: number | null,
  takeProfitPercent: number | null,
): { stopLoss: number | null; takeProfit: number | null } {
  const sign = side === 'long' ? 1 : -1;
  return {
    stopLoss: stopLossPercent ? entryPrice * (1 - (sign * stopLossPercent) / 100) : null,
    takeProfit: takeProfitPercent ? entryPrice * (1 + (sign * takeProfitPercent) / 100) : null,
  };
}

export interface PriceRange {
  readonly open: number;
  readonly high: number;
  readonly low: number;
}

export interface ProtectiveHit {
  readonly reason: 'stop_loss' | 'take_profit';
  /** The level, or the candle's open when it opened beyond the level (a gap). */
  readonly price: number;
}

/**
 * Whether a candle's range touched the stop or the target; both → stop-loss first, a candle
 * opening beyond a level exits at its open — the backtest's rules.
 */
export function protectiveHit(position: HeldPosition, range: PriceRange): ProtectiveHit | null {
  const { stopLoss, takeProfit } = position;
  if (position.side === 'long') {
    if (stopLoss !== null && range.low <= stopLoss) {
      return { reason: 'stop_loss', price: Math.min(range.open, stopLoss) };
    }
    if (takeProfit !== null && range.high >= takeProfit) {
      return { reason: 'take_profit', price: Math.max(range.open, takeProfit) };
    }
    return null;
  }
  if (stopLoss !== null && range.high >= stopLoss) {
    return { reason: 'stop_loss', price: Math.max(range.open, stopLoss) };
  }
  if (takeProfit !== null && range.low <= takeProfit) {
    return { reason: 'take_profit', price: Math.min(range.open, takeProfit) };
  }
  return null;
}
