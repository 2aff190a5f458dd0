import type { ComparedTrade, LiveVsBacktest } from '@quantsquare/contracts';
import { Flex, theme } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLiveVsBacktest } from '../../api/bots';
import { LazyLiveVsBacktestChart } from '../../shared/charts/LazyLiveVsBacktestChart';
import { LegendLine } from '../../shared/charts/LegendLine';
import { chartPalette } from '../../shared/charts/palette';
import { formatUtc8 } from '../../shared/format/bot-format';
import { formatPercent } from '../../shared/format/money';
import { Pill, Text } from '../../shared/ui/ui';
import { useIsMobile } from '../../shared/ui/use-is-mobile';

const MAX_LISTED = 5;

function tone(value: number): 'success' | 'danger' | 'default' {
  if (value > 0.005) return 'success';
  if (value < -0.005) return 'danger';
  return 'default';
}

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  const { i18n } = useTranslation();
  return (
    <div style={{ minWidth: 0 }}>
      <Text tone="secondary" size={12} style={{ display: 'block' }}>
        {label}
      </Text>
      <Text tone={tone(value)} strong data-testid={testId}>
        {formatPercent(value, i18n.language, true)}
      </Text>
    </div>
  );
}

/** A few trades by their candle's time (UTC+8) and side, e.g. "2026-01-15 16:05:00 Long". */
function TradeTimes({ trades, testId }: { trades: readonly ComparedTrade[]; testId: string }) {
  const { t } = useTranslation();
  if (trades.length === 0) return null;
  const shown = trades.slice(-MAX_LISTED);
  return (
    <Flex wrap gap={4} data-testid={testId}>
      {shown.map((trade) => (
        <Pill key={`${trade.time}-${trade.side}`} color="secondary">
          {t('bots.liveVsBacktest.tradeAt', {
            time: formatUtc8(new Date(trade.time).toISOString()).slice(5, 16),
            side: t(`bots.liveVsBacktest.side.${trade.side}`),
          })}
        </Pill>
      ))}
      {trades.length > shown.length && <Text tone="secondary">…</Text>}
    </Flex>
  );
}

function Reasons({ data }: { data: LiveVsBacktest }) {
  const { t, i18n } = useTranslation();
  const pct = (value: number) => formatPercent(value, i18n.language, true);
  const row = (label: string, value: string, testId: string, extra?: ReactNode) => (
    <Flex vertical gap={4} key={testId}>
      <Flex justify="space-between" gap={8}>
        <Text tone="secondary">{label}</Text>
        <Text data-testid={testId}>{value}</Text>
      </Flex>
      {extra}
    </Flex>
  );
  const lvb = 'bots.liveVsBacktest';
  return (
    <Flex vertical gap={6} data-testid="lvb-reasons">
      <Text tone="secondary" size={12}>
        {t(`${lvb}.reasonsTitle`)}
      </Text>
      {row(t(`${lvb}.matched`), String(data.matched_trades.length), 'lvb-matched')}
      {row(
        t(`${lvb}.missed`),
        t(`${lvb}.countAndPct`, {
          count: data.missed_signals.length,
          pct: pct(data.reasons.missed_pct),
        }),
        'lvb-missed',
        <TradeTimes trades={data.missed_signals} testId="lvb-missed-list" />,
      )}
      {row(
        t(`${lvb}.extra`),
        t(`${lvb}.countAndPct`, {
          count: data.extra_trades.length,
          pct: pct(data.reasons.extra_pct),
        }),
        'lvb-extra',
        <TradeTimes trades={data.extra_trades} testId="lvb-extra-list" />,
      )}
      {row(t(`${lvb}.fees`), pct(data.fee_diff), 'lvb-fees')}
      {row(t(`${lvb}.slippage`), pct(data.slippage_diff), 'lvb-slippage')}
      {Math.abs(data.reasons.open_pct) > 0.005 &&
        row(t(`${lvb}.open`), pct(data.reasons.open_pct), 'lvb-open')}
    </Flex>
  );
}

/** The bot's live equity against its backtest's, the delta and its reasons (bot details). */
export function LiveVsBacktestPanel({ botId }: { botId: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const palette = useMemo(() => chartPalette(token), [token]);
  const isMobile = useIsMobile();
  const query = useLiveVsBacktest(botId);
  const height = isMobile ? 200 : 260;
  const lvb = 'bots.liveVsBacktest';
  const data = query.data;

  let body: ReactNode;
  if (query.isPending) {
    body = <Text tone="secondary">{t(`${lvb}.loading`)}</Text>;
  } else if (!data) {
    body = <Text tone="danger">{t(`${lvb}.loadFailed`)}</Text>;
  } else if (data.period === null) {
    body = (
      <Text tone="secondary" data-testid="lvb-not-live">
        {t(`${lvb}.notLive`)}
      </Text>
    );
  } else {
    const period = data.period;
    body = (
      <Flex vertical gap={10}>
        <Text tone="secondary" size={12} data-testid="lvb-period">
          {t(`${lvb}.period`, {
            since: formatUtc8(period.live_since).slice(0, 16),
            days: period.days.toFixed(1),
            candles: period.candles,
          })}
          {period.is_truncated ? ` ${t(`${lvb}.truncated`)}` : ''}
        </Text>
        <div
          style={{
            display: 'grid',
            gap: 8,
            gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
          }}
        >
          <Figure label={t(`${lvb}.live`)} value={data.live.return_pct} testId="lvb-live" />
          <Figure
            label={t(`${lvb}.backtest`)}
            value={data.backtest.return_pct}
            testId="lvb-backtest"
          />
          <Figure label={t(`${lvb}.delta`)} value={data.delta_pct} testId="lvb-delta" />
        </div>
        <Flex wrap gap="4px 16px">
          <LegendLine color={palette.equity} label={t(`${lvb}.legendLive`)} />
          <LegendLine color={palette.maSlow} dashed label={t(`${lvb}.legendBacktest`)} />
        </Flex>
        <div
          data-testid="lvb-chart"
          data-live-points={data.live.equity_curve.length}
          data-backtest-points={data.backtest.equity_curve.length}
        >
          <LazyLiveVsBacktestChart
            live={data.live.equity_curve}
            backtest={data.backtest.equity_curve}
            palette={palette}
            height={height}
            failed={<Text tone="danger">{t(`${lvb}.loadFailed`)}</Text>}
          />
        </div>
        <Reasons data={data} />
        <Text tone="secondary" size={11}>
          {t(`${lvb}.rule`)}
        </Text>
      </Flex>
    );
  }
  return (
    <section
      style={{ gridColumn: '1 / -1', minWidth: 0 }}
      data-testid="live-vs-backtest"
      aria-label={t(`${lvb}.title`)}
    >
      <Text strong style={{ display: 'block', marginBottom: 6 }}>
        {t(`${lvb}.title`)}
      </Text>
      {body}
    </section>
  );
}
