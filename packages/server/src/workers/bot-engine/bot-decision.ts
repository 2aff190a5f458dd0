// The pure part of a bot: what to do on a candle close and how big its order is. No I/O, so the
// bench can time it alone, and the backtest parity holds by construction: the same compiled
// strategy (`compileStrategy`; its `latest` is signalAt(compute) on the last candle, a tested
// equality), sizing and SL/TP rules of the engine's position module.
import {
  type Candles,
  type CompiledStrategy,
  compileStrategyOrThrow,
  type SignalAction,
  type Sizing,
  sizeOrder,
} from '@quantsquare/engine';
import type { MarketFacts } from '../../exchange/exchange-client.js';

export { protectiveHit, protectiveLevels } from '@quantsquare/engine';

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

/** A bot's stored strategy, compiled once (throws RangeError if it is not valid). */
export function compileBotStrategy(strategy: BotStrategy): CompiledStrategy {
  return compileStrategyOrThrow(strategy.strategyType, strategy.strategyParameters);
}

/** The signal decided on the close of the last candle of `candles` (null for none). */
export function latestSignal(
  candles: Candles,
  strategy: CompiledStrategy,
  memo?: SignalMemo,
): SignalAction | null {
  const known = memo?.get(strategy.key);
  if (known !== undefined) return known;
  const action = strategy.latest(candles);
  memo?.set(strategy.key, action);
  return action;
}

/**
 * What a long_short bot does at the next open after `signal`, as the backtest does: a buy closes
 * a short and opens a long, a sell the reverse; a signal in the held direction does nothing. An
 * exit (rule sets) closes the side it names and opens nothing.
 */
export function decide(signal: SignalAction | null, position: HeldPosition | null): BotIntent[] {
  if (signal === null) return [];
  if (signal === 'exit' || signal === 'exit_long' || signal === 'exit_short') {
    if (!position) return [];
    const closes = signal === 'exit' || (signal === 'exit_long') === (position.side === 'long');
    return closes ? [{ kind: 'close', side: position.side, reason: 'signal' }] : [];
  }
  const side: BotSide = signal === 'buy' ? 'long' : 'short';
  if (position?.side === side) return [];
  const intents: BotIntent[] = [];
  if (position) intents.push({ kind: 'close', side: position.side, reason: 'signal' });
  intents.push({ kind: 'open', side });
  return intents;
}

/** A bot's order: its trade amount is the margin (the engine's `sizeOrder`). */
export function orderAmount(
  tradeAmount: number,
  leverage: number,
  price: number,
  facts: MarketFacts,
): Sizing {
  return sizeOrder(tradeAmount, leverage, price, facts);
}
