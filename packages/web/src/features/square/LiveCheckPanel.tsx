import {
  HONEST_MAX_ABS_DELTA_PCT,
  HONEST_MIN_LIVE_DAYS,
  type StrategyDetail,
} from '@quantsquare/contracts';
import { Card, Flex, Tag, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { LazyLiveVsBacktestChart } from '../../shared/charts/LazyLiveVsBacktestChart';
import { LegendLine } from '../../shared/charts/LegendLine';
import { chartPalette } from '../../shared/charts/palette';
import { formatPercent } from '../../shared/format/money';
import { formatChartTime } from '../../shared/format/square-format';

type LiveCheck = NonNullable<StrategyDetail['live_vs_backtest']>;

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
        {label}
      </Typography.Text>
      <Typography.Text strong data-testid={testId}>
        {value}
      </Typography.Text>
    </div>
  );
}

/** One bot's comparison: its delta, what made it, and its two curves. */
function BotCheck({
  bot,
  palette,
  height,
}: {
  bot: LiveCheck['bots'][number];
  palette: ReturnType<typeof chartPalette>;
  height: number;
}) {
  const { t, i18n } = useTranslation();
  const pct = (value: number) => formatPercent(value, i18n.language, true);
  const lc = 'strategy.liveCheck';
  return (
    <Flex
      vertical
      gap={6}
      data-testid="live-check-bot"
      data-live-points={bot.live_curve.length}
      data-backtest-points={bot.backtest_curve.length}
    >
      <Flex justify="space-between" wrap gap={8}>
        <Typography.Text strong>
          {t(`${lc}.bot`, {
            symbol: bot.symbol,
            timeframe: bot.timeframe,
            strategy: bot.strategy_type,
          })}
        </Typography.Text>
        <Typography.Text>
          {t(`${lc}.delta`)} {pct(bot.delta_pct)}
        </Typography.Text>
      </Flex>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t(`${lc}.counts`, {
          matched: bot.matched,
          missed: bot.missed,
          extra: bot.extra,
          fees: pct(bot.fee_diff),
          slippage: pct(bot.slippage_diff),
        })}
      </Typography.Text>
      <Flex gap="4px 16px" wrap>
        <LegendLine color={palette.equity} label={t(`${lc}.legendLive`)} />
        <LegendLine color={palette.maSlow} dashed label={t(`${lc}.legendBacktest`)} />
      </Flex>
      <LazyLiveVsBacktestChart
        live={bot.live_curve}
        backtest={bot.backtest_curve}
        palette={palette}
        height={height}
        failed={null}
      />
    </Flex>
  );
}

/**
 * A published account driven by bots: its bots' live trading against their backtests on the
 * same closed candles (the bots' hourly comparisons), with each bot's two curves.
 */
export function LiveCheckPanel({ check, isMobile }: { check: LiveCheck; isMobile: boolean }) {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const palette = useMemo(() => chartPalette(token), [token]);
  const locale = i18n.language;
  const pct = (value: number) => formatPercent(value, locale, true);
  const isHonest =
    check.live_days >= HONEST_MIN_LIVE_DAYS &&
    Math.abs(check.delta_pct) <= HONEST_MAX_ABS_DELTA_PCT;
  const height = isMobile ? 180 : 220;
  const lc = 'strategy.liveCheck';
  return (
    <Card
      size="small"
      title={t(`${lc}.title`)}
      extra={
        isHonest ? (
          <Tag color="green" style={{ marginInlineEnd: 0 }} data-testid="strategy-honest">
            {t('square.card.honestTag')}
          </Tag>
        ) : null
      }
      data-testid="strategy-live-check-panel"
    >
      <Flex vertical gap={12}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t(`${lc}.hint`)}
        </Typography.Text>
        <div
          style={{
            display: 'grid',
            gap: 8,
            gridTemplateColumns: isMobile
              ? 'repeat(2, minmax(0, 1fr))'
              : 'repeat(4, minmax(0, 1fr))',
          }}
        >
          <Figure
            label={t(`${lc}.days`)}
            value={t(`${lc}.daysValue`, { days: check.live_days.toFixed(1) })}
            testId="live-check-days"
          />
          <Figure
            label={t(`${lc}.live`)}
            value={pct(check.live_return_pct)}
            testId="live-check-live"
          />
          <Figure
            label={t(`${lc}.backtest`)}
            value={pct(check.backtest_return_pct)}
            testId="live-check-backtest"
          />
          <Figure label={t(`${lc}.delta`)} value={pct(check.delta_pct)} testId="live-check-delta" />
        </div>
        {isHonest && (
          <Typography.Text type="success" style={{ fontSize: 12 }}>
            {t(`${lc}.honest`)}
          </Typography.Text>
        )}
        {check.bots.map((bot) => (
          <BotCheck
            key={`${bot.symbol}-${bot.timeframe}`}
            bot={bot}
            palette={palette}
            height={height}
          />
        ))}
        <Typography.Text type="secondary" style={{ fontSize: 11 }}>
          {t(`${lc}.updated`, { time: formatChartTime(Date.parse(check.computed_at)) })}
        </Typography.Text>
      </Flex>
    </Card>
  );
}
