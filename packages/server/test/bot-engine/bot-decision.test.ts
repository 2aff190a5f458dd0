import { describe, expect, it } from 'vitest';
import type { MarketFacts } from '../../src/exchange/exchange-client.js';
import {
  decide,
  orderAmount,
  protectiveHit,
  protectiveLevels,
} from '../../src/workers/bot-engine/index.js';

const facts = (overrides: Partial<MarketFacts> = {}): MarketFacts => ({
  symbol: 'ETH/USDT:USDT',
  contractSize: 1,
  amountStep: 0.001,
  priceStep: 0.01,
  minAmount: 0.001,
  minNotional: 5,
  maxLeverage: 100,
  ...overrides,
});

describe('bot decisions', () => {
  it.each([
    ['buy, flat', 'buy', null, [{ kind: 'open', side: 'long' }]],
    ['sell, flat', 'sell', null, [{ kind: 'open', side: 'short' }]],
    [
      'buy while short: reverse',
      'buy',
      'short',
      [
        { kind: 'close', side: 'short', reason: 'signal' },
        { kind: 'open', side: 'long' },
      ],
    ],
    ['buy while long: hold', 'buy', 'long', []],
    ['no signal', null, 'long', []],
    [
      'exit_long while long: close only',
      'exit_long',
      'long',
      [{ kind: 'close', side: 'long', reason: 'signal' }],
    ],
    ['exit_long while short: hold', 'exit_long', 'short', []],
    [
      'exit_short while short: close only',
      'exit_short',
      'short',
      [{ kind: 'close', side: 'short', reason: 'signal' }],
    ],
    ['exit while long: close', 'exit', 'long', [{ kind: 'close', side: 'long', reason: 'signal' }]],
    ['exit_short, flat: nothing', 'exit_short', null, []],
  ] as const)('%s', (_name, signal, held, intents) => {
    const position = held ? { side: held, stopLoss: null, takeProfit: null } : null;
    expect(decide(signal, position)).toEqual(intents);
  });

  it('sizes trade amount × leverage / price, rounded down to the amount step', () => {
    expect(orderAmount(100, 10, 2000, facts())).toEqual({ ok: true, amount: 0.5 });
    expect(orderAmount(100, 3, 2999, facts())).toEqual({ ok: true, amount: 0.1 });
    expect(orderAmount(30, 1, 100, facts({ amountStep: 0.1 }))).toEqual({ ok: true, amount: 0.3 });
  });

  it('refuses an amount below the minimum amount or notional', () => {
    expect(orderAmount(1, 1, 2000, facts()).ok).toBe(false);
    expect(orderAmount(4, 1, 2, facts({ minAmount: 0 })).ok).toBe(false);
  });

  it('sets stop-loss and take-profit from the entry like the backtest', () => {
    expect(protectiveLevels('long', 100, 2, 4)).toEqual({ stopLoss: 98, takeProfit: 104 });
    expect(protectiveLevels('short', 100, 2, null)).toEqual({ stopLoss: 102, takeProfit: null });
  });

  it.each([
    ['long stop touched', 'long', { open: 100, high: 101, low: 97 }, 'stop_loss', 98],
    [
      'long gap below the stop exits at the open',
      'long',
      { open: 96, high: 97, low: 95 },
      'stop_loss',
      96,
    ],
    ['long target touched', 'long', { open: 100, high: 105, low: 99 }, 'take_profit', 104],
    ['both touched: stop first', 'long', { open: 100, high: 105, low: 97 }, 'stop_loss', 98],
    ['short stop touched', 'short', { open: 100, high: 103, low: 99 }, 'stop_loss', 102],
    ['short target touched', 'short', { open: 100, high: 101, low: 95 }, 'take_profit', 96],
  ] as const)('%s', (_name, side, range, reason, price) => {
    const levels = protectiveLevels(side, 100, 2, 4);
    expect(protectiveHit({ side, ...levels }, range)).toEqual({ reason, price });
  });

  it('answers no hit inside the levels', () => {
    const levels = protectiveLevels('long', 100, 2, 4);
    expect(
      protectiveHit({ side: 'long', ...levels }, { open: 100, high: 103, low: 99 }),
    ).toBeNull();
  });
});
