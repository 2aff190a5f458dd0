import type { OperationLogEntry } from '@quantsquare/contracts';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeLogEntry } from '../src/features/bots/log-text';
import { botsEn } from '../src/i18n/locales/bots.en';
import { copyEn } from '../src/i18n/locales/copy.en';
import { en } from '../src/i18n/locales/en';

// The operation log's sentences for the events whose placeholders need more than a lookup, in
// English, through a real i18next instance with the app's texts.
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: { ...en, ...botsEn, ...copyEn } } },
    interpolation: { escapeValue: false },
  });
});

const entry = (event: string, details: Record<string, unknown>, message = 'server text') =>
  ({ id: 1, event, message, details, bot_symbol: 'ETH/USDT:USDT' }) as unknown as OperationLogEntry;
const say = (event: string, details: Record<string, unknown>) =>
  describeLogEntry(i18n.t, entry(event, details), 'en');

describe('the operation log sentences', () => {
  it('says why a copy stopped: its limit, the leader leaving, or who ended it', () => {
    expect(say('copy_stopped', { reason: 'max_loss', limit: '50' })).toBe(
      'Copy trading stopped: the loss reached the limit of 50.00 USDT',
    );
    expect(
      say('copy_stopped', { reason: 'leader_drawdown', limit: 30, copy_mode: 'reverse' }),
    ).toBe("Copy trading stopped: the leader's rise from its low passed 30% (reverse copy)");
    expect(say('copy_stopped', { reason: 'user' })).toBe('Copy trading stopped: stopped by you');
    // A reason the log does not know shows the server's own text.
    expect(say('copy_stopped', { reason: 'something_new' })).toBe('server text');
  });

  it('says a copy’s amount and mode when it starts, and its loss limit when it changes', () => {
    expect(say('copy_created', { copy_amount: '100', copy_mode: 'reverse' })).toBe(
      'Started copying: 100.00 USDT, reverse copy',
    );
    expect(say('copy_updated', { copy_amount: '200', max_loss: null })).toBe(
      'Changed copy settings: 200.00 USDT, max loss no limit',
    );
    expect(say('copy_updated', { copy_amount: '200', max_loss: '20' })).toBe(
      'Changed copy settings: 200.00 USDT, max loss 20.00 USDT',
    );
  });

  it('names the risk state and its reason, and a skipped signal’s limit', () => {
    expect(say('risk_state_changed', { state: 'halted', reason: 'daily_loss' })).toBe(
      'Risk gate: account halted (daily loss limit reached)',
    );
    expect(say('risk_state_changed', { state: 'nonsense' })).toBe('server text');
    expect(
      say('signal_skipped', { signal: 'buy', limit: 'notional', value: '3', minimum: '5' }),
    ).toBe('Buy signal → skipped: notional 3.00 USDT is below the minimum 5.00 USDT');
  });
});
