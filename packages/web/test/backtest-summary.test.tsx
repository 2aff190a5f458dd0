import type { BacktestSummary as Summary } from '@quantsquare/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { BacktestSummary } from '../src/features/dashboard/BacktestSummary';
import i18n, { changeLanguage, loadLanguage } from '../src/i18n';

// The backtest's figures and assumptions, rendered to HTML: funding the venue could not fully
// give is said as a warning in the reader's language, not only inside the English rule text;
// money arrives as decimal strings and shows as it always has.

const summary = (fundingIncomplete: boolean): Summary => ({
  equity_curve: [],
  initial_balance: '10000',
  final_balance: '10100.125',
  total_return: 1,
  max_drawdown: 2,
  win_rate: 50,
  sharpe_ratio: 1.2,
  profit_factor: 1.5,
  trade_count: 2,
  buy_and_hold_return: 3,
  funding_paid: '4.25',
  trades: [],
  assumptions: {
    initial_balance: '10000',
    fee_rate: 0.0005,
    slippage_bps: 2,
    leverage: 1,
    position_size_fraction: 1,
    direction: 'long_short',
    stop_loss_percent: null,
    take_profit_percent: null,
    trailing_stop_percent: null,
    fill_rule: 'fill',
    sizing_rule: 'sizing',
    stop_rule: 'stop',
    end_of_data_rule: 'end',
    sharpe_rule: 'sharpe',
    funding_rule: 'funding',
    funding_source: 'live',
    funding_incomplete: fundingIncomplete,
  },
});

const render = (value: Summary) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <BacktestSummary summary={value} isLoading={false} failure={null} />
    </I18nextProvider>,
  );

describe('the backtest summary', () => {
  beforeAll(async () => {
    await loadLanguage('en');
  });

  it('warns when only stored funding rates could be charged, in both languages', async () => {
    await changeLanguage('en');
    expect(render(summary(true))).toContain(
      'only the rates stored earlier were charged, so some funding payments may be missing',
    );
    expect(render(summary(false))).not.toContain('backtest-funding-warning');
    await changeLanguage('zh-CN');
    expect(render(summary(true))).toContain('仅按此前已保存的费率计算');
  });

  it('shows the money the answer sends as decimal strings with two decimals', async () => {
    await changeLanguage('en');
    const html = render(summary(false));
    expect(html).toMatch(/data-testid="backtest-initial"[^>]*>10,000\.00</);
    expect(html).toMatch(/data-testid="backtest-final"[^>]*>10,100\.13</);
    expect(html).toContain('4.25');
  });
});
