import {
  BALANCE_CHART_POINTS,
  type BalanceSnapshot,
  EXPERIENCE_ACCOUNT_NAME,
} from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { toDisplayTime } from '../src/shared/charts/chart-data';
import {
  type ApiFormValues,
  accountName,
  apiStatus,
  balanceChartPoints,
  buildCreatePayload,
  pnlTone,
} from '../src/shared/format/account-format';
import { formatBalance, formatSignedMoney } from '../src/shared/format/money';

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
const snapshot = (minutes: number, balance: number): BalanceSnapshot => ({
  time: new Date(T0 + minutes * 60_000).toISOString(),
  balance: String(balance),
  daily_pnl: '0',
});

describe('balance and P&L display (document 1 §9)', () => {
  it('shows balances with 4 decimals', () => {
    expect(formatBalance(10_000, 'en')).toBe('10,000.0000');
    expect(formatBalance(0.12345, 'en')).toBe('0.1235');
    expect(formatBalance(null, 'en')).toBe('—');
  });

  it('shows P&L money with 2 decimals and a plus sign for gains', () => {
    expect(formatSignedMoney(12.345, 'en')).toBe('+12.35');
    expect(formatSignedMoney(-3, 'en')).toBe('-3.00');
    expect(formatSignedMoney(0, 'en')).toBe('0.00');
  });

  it('colours gains up, losses down and zero flat', () => {
    expect([pnlTone(1), pnlTone(-1), pnlTone(0)]).toEqual(['up', 'down', 'flat']);
  });
});

describe('balance chart points', () => {
  it('keeps the last 30 snapshots, oldest first', () => {
    const snapshots = Array.from({ length: 40 }, (_, i) => snapshot(39 - i, 100 + (39 - i)));
    const points = balanceChartPoints(snapshots);
    expect(points).toHaveLength(BALANCE_CHART_POINTS);
    expect(points[0]).toEqual({ timeMs: T0 + 10 * 60_000, value: 110 });
    expect(points.at(-1)).toEqual({ timeMs: T0 + 39 * 60_000, value: 139 });
  });

  it('drops snapshots with a broken time or balance and keeps one per second', () => {
    const points = balanceChartPoints([
      snapshot(0, 100),
      { time: 'not a time', balance: '5', daily_pnl: '0' },
      { ...snapshot(1, 0), balance: 'not a number' },
      { ...snapshot(2, 0), balance: '' },
      { time: new Date(T0 + 500).toISOString(), balance: '101', daily_pnl: '0' },
    ]);
    expect(points).toEqual([{ timeMs: T0 + 500, value: 101 }]);
  });

  it('is drawn with labels shifted to UTC+8', () => {
    const [point] = balanceChartPoints([snapshot(0, 100)]);
    expect(point && toDisplayTime(point.timeMs)).toBe(T0 / 1000 + 8 * 3600);
  });
});

describe('Add API payload (document 1 §5)', () => {
  const base: ApiFormValues = {
    name: ' Main ',
    exchange: 'binance',
    account_type: 'classic',
    is_paper: false,
    paper_balance: 10_000,
    api_key: ' key ',
    api_secret: 'secret',
    api_password: 'pass',
    is_testnet: true,
    position_mode: 'hedge',
    default_leverage: 10,
  };

  it('drops api_password for exchanges other than OKX', () => {
    const payload = buildCreatePayload(base);
    expect(payload).not.toHaveProperty('api_password');
    expect(payload).not.toHaveProperty('paper_balance');
    expect(payload).toMatchObject({ name: 'Main', api_key: 'key', api_secret: 'secret' });
    expect(payload).toMatchObject({ is_testnet: true, default_leverage: 10 });
  });

  it('sends api_password for OKX', () => {
    expect(buildCreatePayload({ ...base, exchange: 'okx' })).toMatchObject({
      exchange: 'okx',
      api_password: 'pass',
    });
  });

  it('sends no keys but the paper balance for a paper account', () => {
    const payload = buildCreatePayload({ ...base, is_paper: true, paper_balance: null });
    expect(payload).toMatchObject({ is_paper: true, paper_balance: 10_000 });
    for (const key of ['api_key', 'api_secret', 'api_password']) {
      expect(payload).not.toHaveProperty(key);
    }
  });
});

describe('account names and status', () => {
  it("says the experience account's default name in the reader's language, a renamed one as named", () => {
    expect(accountName({ name: EXPERIENCE_ACCOUNT_NAME, is_experience: true }, '体验账户')).toBe(
      '体验账户',
    );
    expect(accountName({ name: 'My trial', is_experience: true }, '体验账户')).toBe('My trial');
    expect(accountName({ name: EXPERIENCE_ACCOUNT_NAME, is_experience: false }, '体验账户')).toBe(
      EXPERIENCE_ACCOUNT_NAME,
    );
  });

  it('reads normal, abnormal (last check failed) or disabled', () => {
    expect(apiStatus({ is_active: true, is_enabled: true })).toBe('normal');
    expect(apiStatus({ is_active: false, is_enabled: true })).toBe('abnormal');
    expect(apiStatus({ is_active: false, is_enabled: false })).toBe('disabled');
  });

  it('reads a live key no check has tried as unchecked, never normal', () => {
    const live = { is_active: true, is_enabled: true, is_paper: false };
    expect(apiStatus({ ...live, last_check_ok: null })).toBe('unchecked');
    expect(apiStatus({ ...live, last_check_ok: true })).toBe('normal');
    expect(apiStatus({ ...live, is_paper: true, last_check_ok: null })).toBe('normal');
    expect(apiStatus({ ...live, is_enabled: false, last_check_ok: null })).toBe('disabled');
  });
});
