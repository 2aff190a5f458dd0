import { Flex, theme } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsLoggedIn } from '../api/tokens';
import {
  type ChartData,
  useBacktest,
  useChartData,
  useDataFreshness,
  useMarketStatus,
} from '../api/trading';
import { UserBotArea } from '../features/bots/UserBotArea';
import { VisitorPrompt } from '../features/dashboard/AccountPanel';
import { BacktestSummary } from '../features/dashboard/BacktestSummary';
import { CandlePanel, EquityPanel } from '../features/dashboard/ChartPanels';
import { FreshnessText, SourceIndicator } from '../features/dashboard/DataStatus';
import { MarketSelectors } from '../features/dashboard/MarketSelectors';
import { MarketStatusView } from '../features/dashboard/MarketStatusView';
import { sourceState } from '../features/dashboard/source-state';
import { useMarketSelection } from '../features/dashboard/use-market-selection';
import { wasClosedBefore } from '../features/dashboard/welcome-state';
import { chartPalette } from '../shared/charts/palette';
import { Spinner } from '../shared/ui/Spinner';
import { Panel, Pill, Text } from '../shared/ui/ui';
import { useIsMobile } from '../shared/ui/use-is-mobile';

const WelcomeModal = lazy(() => import('../features/dashboard/WelcomeModal'));
const BacktestFailure = lazy(() => import('../features/dashboard/BacktestFailure'));

/** The chart's legend: the strategy's indicators, then the buy and sell signals. */
function ChartLegend({
  indicators,
  palette,
  isMobile,
}: {
  indicators: ChartData['indicators'] | undefined;
  palette: ReturnType<typeof chartPalette>;
  isMobile: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Flex gap={4} wrap style={{ marginTop: 8, paddingInline: isMobile ? 4 : 0 }}>
      {(indicators?.ma_fast.length ?? 0) > 0 && (
        <>
          <Pill color={palette.maFast}>{t('dashboard.chart.maFast')}</Pill>
          <Pill color={palette.maSlow}>{t('dashboard.chart.maSlow')}</Pill>
        </>
      )}
      {(indicators?.bb_upper?.length ?? 0) > 0 && (
        <>
          <Pill color={palette.band}>{t('dashboard.chart.bands')}</Pill>
          <Pill color={palette.bandMiddle}>{t('dashboard.chart.bandMiddle')}</Pill>
        </>
      )}
      {(indicators?.rsi?.length ?? 0) > 0 && (
        <Pill color={palette.oscillator}>{t('dashboard.chart.rsi')}</Pill>
      )}
      {(indicators?.macd?.length ?? 0) > 0 && (
        <>
          <Pill color={palette.oscillator}>{t('dashboard.chart.macd')}</Pill>
          <Pill color={palette.signalLine}>{t('dashboard.chart.macdSignal')}</Pill>
        </>
      )}
      <Pill color={palette.up}>▲ {t('dashboard.chart.buySignal')}</Pill>
      <Pill color={palette.down}>▼ {t('dashboard.chart.sellSignal')}</Pill>
    </Flex>
  );
}

/** The market and strategy selectors, the data's source and freshness, the refresh interval. */
function SelectorsPanel({
  market,
  source,
  freshness,
  isSelecting,
}: {
  market: ReturnType<typeof useMarketSelection>;
  source: ReturnType<typeof sourceState>;
  freshness: ReturnType<typeof useDataFreshness>;
  isSelecting: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Panel>
      <Flex vertical gap={12}>
        <MarketSelectors
          exchange={market.exchange}
          strategyType={market.strategyType}
          symbol={market.symbol}
          timeframe={market.timeframe}
          strategyList={market.strategyList}
          symbolList={market.symbolList}
          isLoadingStrategies={market.isLoadingStrategies}
          isLoadingSymbols={market.isLoadingSymbols}
          onExchange={market.setExchange}
          onStrategy={market.setStrategy}
          onSymbol={market.setSymbol}
          onTimeframe={market.setTimeframe}
          sourceIndicator={<SourceIndicator state={source} />}
        />
        <Flex wrap gap="4px 16px" align="center">
          <FreshnessText
            freshness={freshness.data}
            isLoading={isSelecting || freshness.isPending}
            isError={freshness.isError}
          />
          <Text tone="secondary" size={12}>
            {t('dashboard.selectors.autoRefresh', {
              interval: t(`dashboard.refreshLabels.${market.timeframe}`),
            })}
          </Text>
        </Flex>
      </Flex>
    </Panel>
  );
}

/**
 * /dashboard (document 1 §2): market selectors, the candle chart with the strategy's signals, the
 * backtest (equity curve and summary), data freshness, market status, and the account panel.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const isMobile = useIsMobile();
  const isLoggedIn = useIsLoggedIn();
  const [isWelcomeDue] = useState(() => !wasClosedBefore());
  const market = useMarketSelection();
  const { selection } = market;

  const backtest = useBacktest(selection);
  const chart = useChartData(selection, backtest.isSuccess || backtest.isError);
  const freshness = useDataFreshness(selection);
  const marketStatus = useMarketStatus();

  const palette = useMemo(() => chartPalette(token), [token]);
  const viewKey = selection
    ? `${selection.exchange}|${selection.symbol}|${selection.timeframe}|${selection.strategyType}`
    : '';
  const candleTimesMs = useMemo(
    () => (backtest.data?.candles ?? []).map((c) => c.timestamp),
    [backtest.data],
  );
  const source = sourceState(
    chart.data?.source ?? freshness.data?.source ?? market.symbolSource,
    freshness.data,
  );
  const isChartLoading = selection === null || chart.isPending;
  const isBacktestLoading = selection === null || backtest.isPending;
  const chartHeight = isMobile ? 320 : 460;

  return (
    <Flex vertical gap={16}>
      <SelectorsPanel
        market={market}
        source={source}
        freshness={freshness}
        isSelecting={selection === null}
      />

      <Panel
        title={t('dashboard.chart.title')}
        extra={
          <Text tone="secondary" size={12}>
            {t('dashboard.chart.subtitle', { symbol: market.symbol, timeframe: market.timeframe })}
          </Text>
        }
        bodyPadding={isMobile ? 4 : 12}
      >
        <CandlePanel
          data={chart.data}
          isLoading={isChartLoading}
          isError={chart.isError && !chart.data}
          palette={palette}
          viewKey={viewKey}
          height={chartHeight}
        />
        <ChartLegend indicators={chart.data?.indicators} palette={palette} isMobile={isMobile} />
      </Panel>

      <div
        style={{
          display: 'grid',
          gap: 16,
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 340px), 1fr))',
        }}
      >
        <Panel title={t('dashboard.equity.title')} bodyPadding={isMobile ? 4 : 12}>
          <EquityPanel
            curve={backtest.data?.backtest.equity_curve}
            fallbackTimesMs={candleTimesMs}
            isLoading={isBacktestLoading}
            palette={palette}
            height={isMobile ? 220 : 300}
          />
        </Panel>
        <Panel title={t('dashboard.backtest.title')}>
          <BacktestSummary
            summary={backtest.data?.backtest}
            isLoading={isBacktestLoading}
            failure={
              backtest.isError ? (
                <Suspense fallback={<Spinner size="small" />}>
                  <BacktestFailure error={backtest.error} />
                </Suspense>
              ) : null
            }
          />
        </Panel>
      </div>

      <Panel title={t('dashboard.marketStatus.title')} data-testid="market-status">
        <MarketStatusView
          status={marketStatus.data}
          isLoading={marketStatus.isPending}
          isError={marketStatus.isError}
        />
      </Panel>

      {isLoggedIn ? <UserBotArea /> : <VisitorPrompt />}
      {isWelcomeDue && (
        <Suspense fallback={null}>
          <WelcomeModal isLoggedIn={isLoggedIn} />
        </Suspense>
      )}
    </Flex>
  );
}
