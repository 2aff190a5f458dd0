import type { BacktestSummary as Summary } from '@quantsquare/contracts';
import { theme } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatPercent, formatRatio } from '../../shared/format/money';
import { Spinner } from '../../shared/ui/Spinner';
import { Note, Text, type Tone } from '../../shared/ui/ui';

interface Props {
  summary: Summary | undefined;
  isLoading: boolean;
  /** Why the backtest failed, when it did. */
  failure: ReactNode;
}

const toneOf = (value: number): Tone => (value > 0 ? 'success' : value < 0 ? 'danger' : 'default');

const LONG_VALUE_CHARS = 28;

interface Row {
  label: string;
  value: ReactNode;
  testId?: string;
  tone?: Tone;
}

function Rows({ rows, small }: { rows: Row[]; small?: boolean }) {
  const { token } = theme.useToken();
  return (
    <dl
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
        columnGap: 16,
        margin: 0,
      }}
    >
      {rows.map((row) => {
        // The server's rules (fill, sizing) are sentences: they get a full row, label on top.
        const isLong = typeof row.value === 'string' && row.value.length > LONG_VALUE_CHARS;
        return (
          <div
            key={row.label}
            style={{
              display: 'flex',
              flexDirection: isLong ? 'column' : 'row',
              justifyContent: 'space-between',
              gap: isLong ? 2 : 8,
              gridColumn: isLong ? '1 / -1' : undefined,
              padding: '5px 0',
              borderBottom: `1px dashed ${token.colorBorderSecondary}`,
              fontSize: small ? 12 : 14,
            }}
          >
            <dt style={{ color: token.colorTextSecondary, flexShrink: 0 }}>{row.label}</dt>
            <dd
              style={{
                margin: 0,
                textAlign: isLong ? 'start' : 'end',
                minWidth: 0,
                overflowWrap: 'anywhere',
              }}
            >
              <Text data-testid={row.testId} tone={row.tone} strong={!small}>
                {row.value}
              </Text>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/** The backtest's key figures. */
function figureRows(t: TFunction, locale: string, summary: Summary): Row[] {
  return [
    {
      label: t('dashboard.backtest.initialBalance'),
      value: formatMoney(summary.initial_balance, locale),
      testId: 'backtest-initial',
    },
    {
      label: t('dashboard.backtest.finalBalance'),
      value: formatMoney(summary.final_balance, locale),
      testId: 'backtest-final',
    },
    {
      label: t('dashboard.backtest.totalReturn'),
      value: formatPercent(summary.total_return, locale, true),
      testId: 'backtest-return',
      tone: toneOf(summary.total_return),
    },
    {
      label: t('dashboard.backtest.maxDrawdown'),
      value: formatPercent(summary.max_drawdown, locale),
      testId: 'backtest-drawdown',
    },
    {
      label: t('dashboard.backtest.winRate'),
      value: formatPercent(summary.win_rate, locale),
      testId: 'backtest-winrate',
    },
    {
      label: t('dashboard.backtest.tradeCount'),
      value: summary.trade_count,
      testId: 'backtest-trades',
    },
    { label: t('dashboard.backtest.sharpe'), value: formatRatio(summary.sharpe_ratio, locale) },
    {
      label: t('dashboard.backtest.profitFactor'),
      value: formatRatio(summary.profit_factor, locale),
    },
    {
      label: t('dashboard.backtest.buyAndHold'),
      value: formatPercent(summary.buy_and_hold_return, locale, true),
      tone: toneOf(summary.buy_and_hold_return),
    },
  ];
}

/** The assumptions the backtest ran under, in the reader's language. */
function assumptionRows(t: TFunction, locale: string, summary: Summary): Row[] {
  const a = summary.assumptions;
  return [
    { label: t('dashboard.backtest.feeRate'), value: formatPercent(a.fee_rate * 100, locale) },
    {
      label: t('dashboard.backtest.slippage'),
      value: t('dashboard.backtest.slippageValue', { bps: a.slippage_bps }),
    },
    {
      label: t('dashboard.backtest.leverage'),
      value: t('dashboard.backtest.leverageValue', { value: a.leverage }),
    },
    {
      label: t('dashboard.backtest.positionSize'),
      value: formatPercent(a.position_size_fraction * 100, locale),
    },
    {
      label: t('dashboard.backtest.direction'),
      value: t(`dashboard.backtest.directions.${a.direction}`),
    },
    {
      label: t('dashboard.backtest.funding'),
      value:
        a.funding_source === null
          ? t('dashboard.backtest.fundingNone')
          : t('dashboard.backtest.fundingValue', {
              paid: formatRatio(summary.funding_paid, locale),
              source: t(
                a.funding_source === 'live'
                  ? 'dashboard.backtest.fundingLive'
                  : 'dashboard.backtest.fundingSimulated',
              ),
            }),
    },
    // The engine's rules are fixed; the API words them in English for any client, the screen
    // shows them in the reader's language.
    { label: t('dashboard.backtest.fillRule'), value: t('dashboard.backtest.fillRuleText') },
    { label: t('dashboard.backtest.sizing'), value: t('dashboard.backtest.sizingText') },
    { label: t('dashboard.backtest.stopRule'), value: t('dashboard.backtest.stopRuleText') },
    { label: t('dashboard.backtest.endRule'), value: t('dashboard.backtest.endRuleText') },
  ];
}

/** The backtest's key figures and the assumptions it ran under. */
export function BacktestSummary({ summary, isLoading, failure }: Props) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  if (isLoading) {
    return (
      <Note>
        <Spinner size="small" /> {t('dashboard.backtest.loading')}
      </Note>
    );
  }
  if (failure) {
    return (
      <Note tone="danger" testId="backtest-error">
        {failure}
      </Note>
    );
  }
  if (!summary) return <Note>{t('dashboard.backtest.empty')}</Note>;

  const a = summary.assumptions;
  const figures = figureRows(t, locale, summary);
  const assumptions = assumptionRows(t, locale, summary);
  return (
    <div data-testid="backtest-summary">
      <Rows rows={figures} />
      {a.funding_incomplete && (
        <Text
          tone="warning"
          size={12}
          style={{ display: 'block', marginTop: 8 }}
          data-testid="backtest-funding-warning"
        >
          {t('dashboard.backtest.fundingIncomplete')}
        </Text>
      )}
      <Text tone="secondary" size={12} style={{ display: 'block', margin: '12px 0 2px' }}>
        {t('dashboard.backtest.assumptions')}
      </Text>
      <div data-testid="backtest-assumptions">
        <Rows rows={assumptions} small />
      </div>
    </div>
  );
}
