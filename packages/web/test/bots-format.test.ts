import { BOT_ERROR_CODES, BOT_MESSAGES, ERROR_CODES } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import {
  botServerKey,
  buildBotPayload,
  formatUtc8,
  logPnl,
  positionModeKey,
  readBotExists,
} from '../src/shared/format/bot-format';
import { numberFieldProblem } from '../src/shared/forms/number-field';

describe('bot helpers', () => {
  it('shows times at UTC+8 as YYYY-MM-DD HH:mm:ss', () => {
    expect(formatUtc8('2026-01-01T20:30:05Z')).toBe('2026-01-02 04:30:05');
    expect(formatUtc8(null)).toBe('—');
    expect(formatUtc8('nope')).toBe('—');
  });

  it('shows net as one-way, anything else as hedge', () => {
    expect(positionModeKey('net')).toBe('oneWay');
    expect(positionModeKey('hedge')).toBe('hedge');
  });

  it('reads details.pnl only when it is a number', () => {
    expect(logPnl({ details: { pnl: -1.5 } })).toBe(-1.5);
    expect(logPnl({ details: { pnl: '2.25' } })).toBe(2.25);
    expect(logPnl({ details: {} })).toBeNull();
    expect(logPnl({ details: { pnl: 'x' } })).toBeNull();
  });

  it('names what is wrong with an out-of-range or off-step number instead of changing it', () => {
    const amount = { min: 10, max: 10_000_000, decimals: 2 };
    const stopLoss = { min: 0.1, max: 50, decimals: 1 };
    const takeProfit = { min: 0.1, max: 100, decimals: 1 };
    expect(numberFieldProblem(5, amount)).toBe('tooSmall');
    expect(numberFieldProblem(60, stopLoss)).toBe('tooBig');
    expect(numberFieldProblem(150, takeProfit)).toBe('tooBig');
    expect(numberFieldProblem(0.05, stopLoss)).toBe('tooSmall');
    expect(numberFieldProblem(10.005, amount)).toBe('step');
    expect(numberFieldProblem(2.55, stopLoss)).toBe('step');
    expect(numberFieldProblem(Number.NaN, amount)).toBe('step');
    expect(numberFieldProblem(10, amount)).toBeNull();
    expect(numberFieldProblem(100.1, amount)).toBeNull();
    expect(numberFieldProblem(0.3, stopLoss)).toBeNull();
    expect(numberFieldProblem(50, stopLoss)).toBeNull();
    expect(numberFieldProblem(100, takeProfit)).toBeNull();
  });

  it('builds the create payload, leaving out empty SL/TP', () => {
    expect(
      buildBotPayload({
        exchange_api: 3,
        strategy: 1,
        symbol: 'BTC/USDT:USDT',
        timeframe: '1h',
        trade_amount: 100.004,
        stop_loss_percentage: null,
        take_profit_percentage: 5,
      }),
    ).toEqual({
      exchange_api: 3,
      strategy: 1,
      symbol: 'BTC/USDT:USDT',
      timeframe: '1h',
      trade_amount: 100,
      take_profit_percentage: 5,
    });
    expect(buildBotPayload({ timeframe: '1h', trade_amount: 100 })).toBeNull();
  });

  it('recognises the 已存在 answer and the refusals by their codes', () => {
    const found = readBotExists({
      success: false,
      error: BOT_MESSAGES.alreadyExists,
      code: 'conflict',
      details: BOT_MESSAGES.alreadyExistsDetails,
      suggestion: BOT_MESSAGES.alreadyExistsSuggestion,
      existing_bot: { id: 7, status: 'running' },
    });
    expect(found?.existingBot).toEqual({ id: 7, status: 'running' });
    expect(found?.suggestion).toBe(BOT_MESSAGES.alreadyExistsSuggestion);
    expect(readBotExists({ error: 'other', code: 'x' })).toBeNull();
    expect(botServerKey({ error: 'VIP!', code: ERROR_CODES.vipRequired })).toBe('vipRequired');
    expect(botServerKey({ error: 'x', code: BOT_ERROR_CODES.stopBeforeDelete })).toBe(
      'stopBeforeDelete',
    );
    expect(
      botServerKey({ error: BOT_MESSAGES.alreadyExists, code: 'conflict', existing_bot: null }),
    ).toBe('alreadyExists');
    // A known English text without its code is not taken for the refusal.
    expect(botServerKey({ error: BOT_MESSAGES.vipRequired, code: 'bad_request' })).toBeNull();
    expect(botServerKey('something else')).toBeNull();
  });
});
