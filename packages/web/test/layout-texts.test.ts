import { describe, expect, it } from 'vitest';
import i18n, { changeLanguage } from '../src/i18n/index';
import { PRICE_FORMAT } from '../src/shared/charts/chart-theme';
import '../src/i18n/square-texts';
import '../src/i18n/help-texts';

describe('counts and chart prices as the screens show them', () => {
  it('says one strategy and one unread announcement in the singular', async () => {
    await changeLanguage('en');
    expect(i18n.t('square.resultCount', { count: 1 })).toBe('1 strategy');
    expect(i18n.t('square.resultCount', { count: 2 })).toBe('2 strategies');
    expect(i18n.t('helpCenter.unreadBadge', { count: 1 })).toBe('1 unread announcement');
    await changeLanguage('zh-CN');
    expect(i18n.t('square.resultCount', { count: 1 })).toBe('共 1 个策略');
  });

  it('groups thousands on the chart axes and never shows -0.00', () => {
    expect(PRICE_FORMAT.formatter(93535.68912)).toBe('93,535.69');
    expect(PRICE_FORMAT.formatter(-1234.5)).toBe('-1,234.50');
    expect(PRICE_FORMAT.formatter(-0.001)).toBe('0.00');
  });
});

describe('equity chart ticks', () => {
  it('labels ticks seconds apart with their seconds, days with MM/DD', async () => {
    const { tickLabel } = await import('../src/shared/charts/StrategyEquityChart');
    const { TickMarkType } = await import('lightweight-charts');
    // 2026-11-28 08:41:07 as the chart's shifted (UTC+8) seconds.
    const at = Date.UTC(2026, 10, 28, 8, 41, 7) / 1000;
    expect(tickLabel(at as never, TickMarkType.TimeWithSeconds)).toBe('08:41:07');
    expect(tickLabel((at + 5) as never, TickMarkType.TimeWithSeconds)).toBe('08:41:12');
    expect(tickLabel(at as never, TickMarkType.Time)).toBe('08:41');
    expect(tickLabel(at as never, TickMarkType.DayOfMonth)).toBe('11/28');
  });
});
