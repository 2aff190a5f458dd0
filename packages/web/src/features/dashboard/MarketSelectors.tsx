import { EXCHANGES, type Exchange, TIMEFRAMES, type Timeframe } from '@quantsquare/contracts';
import { Flex, Select } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Text } from '../../shared/ui/ui';
import type { StrategyOption } from './use-market-selection';

interface Props {
  exchange: Exchange;
  strategyType: string;
  symbol: string;
  timeframe: Timeframe;
  strategyList: StrategyOption[];
  symbolList: string[];
  isLoadingStrategies: boolean;
  isLoadingSymbols: boolean;
  onExchange: (exchange: Exchange) => void;
  onStrategy: (type: string) => void;
  onSymbol: (symbol: string) => void;
  onTimeframe: (timeframe: Timeframe) => void;
  /** The live/delayed/simulated indicator, shown next to the exchange. */
  sourceIndicator: ReactNode;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex vertical gap={4} style={{ minWidth: 0, flex: '1 1 150px' }}>
      <Text tone="secondary" size={12}>
        {label}
      </Text>
      {children}
    </Flex>
  );
}

/** Exchange, strategy, symbol and timeframe selectors; every change reloads the chart. */
export function MarketSelectors(props: Props) {
  const { t } = useTranslation();
  return (
    <Flex wrap gap={12} align="flex-end">
      <Field label={t('dashboard.selectors.exchange')}>
        <Flex gap={8} align="center" wrap>
          <Select
            data-testid="dashboard-exchange"
            aria-label={t('dashboard.selectors.exchange')}
            value={props.exchange}
            onChange={props.onExchange}
            options={EXCHANGES.map((e) => ({ value: e, label: t(`dashboard.exchanges.${e}`) }))}
            // Wide enough for "Binance"; the source indicator wraps below rather than cut it.
            style={{ flex: '1 1 110px', minWidth: 110 }}
          />
          {props.sourceIndicator}
        </Flex>
      </Field>
      <Field label={t('dashboard.selectors.strategy')}>
        <Select
          data-testid="dashboard-strategy"
          aria-label={t('dashboard.selectors.strategy')}
          value={props.strategyType}
          loading={props.isLoadingStrategies}
          onChange={props.onStrategy}
          options={props.strategyList.map((s) => ({
            value: s.type,
            label: s.name ?? t('dashboard.selectors.defaultStrategy'),
          }))}
          style={{ width: '100%' }}
        />
      </Field>
      <Field label={t('dashboard.selectors.symbol')}>
        <Select
          data-testid="dashboard-symbol"
          aria-label={t('dashboard.selectors.symbol')}
          value={props.symbol}
          loading={props.isLoadingSymbols}
          showSearch
          onChange={props.onSymbol}
          options={props.symbolList.map((s) => ({ value: s, label: s }))}
          style={{ width: '100%' }}
        />
      </Field>
      <Field label={t('dashboard.selectors.timeframe')}>
        <Select
          data-testid="dashboard-timeframe"
          aria-label={t('dashboard.selectors.timeframe')}
          value={props.timeframe}
          onChange={props.onTimeframe}
          options={TIMEFRAMES.map((tf) => ({ value: tf, label: tf }))}
          style={{ width: '100%' }}
        />
      </Field>
    </Flex>
  );
}
