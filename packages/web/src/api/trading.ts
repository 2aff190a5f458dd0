import {
  AUTO_REFRESH_MS,
  type BacktestRequest,
  type BacktestResponse,
  CANDLE_LIMIT_DEFAULT,
  CHART_REFRESH_MS,
  type DataFreshness,
  type Exchange,
  FRESHNESS_REFRESH_MS,
  type MarketDataResponse,
  type MarketStatusResponse,
  type StrategyList,
  type SymbolsResponse,
  type Timeframe,
} from '@quantsquare/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

/** What the dashboard shows: one market, one strategy. */
export interface MarketSelection {
  exchange: Exchange;
  symbol: string;
  timeframe: Timeframe;
  strategyType: string;
}

/** What the candle chart draws; both the backtest and the market-data call answer it. */
export type ChartData = Pick<
  MarketDataResponse,
  'exchange' | 'symbol' | 'timeframe' | 'source' | 'strategy_type' | 'candles' | 'indicators'
>;

const selectionKey = (s: MarketSelection) =>
  [s.exchange, s.symbol, s.timeframe, s.strategyType] as const;

export const tradingKeys = {
  all: ['trading'] as const,
  strategies: () => [...tradingKeys.all, 'strategies'] as const,
  symbols: (exchange: Exchange) => [...tradingKeys.all, 'symbols', exchange] as const,
  backtest: (s: MarketSelection) => [...tradingKeys.all, 'backtest', ...selectionKey(s)] as const,
  chart: (s: MarketSelection) => [...tradingKeys.all, 'chart', ...selectionKey(s)] as const,
  freshness: (s: Pick<MarketSelection, 'exchange' | 'symbol' | 'timeframe'>) =>
    [...tradingKeys.all, 'freshness', s.exchange, s.symbol, s.timeframe] as const,
  marketStatus: () => [...tradingKeys.all, 'market-status'] as const,
};

const query = (params: Record<string, string | number>) =>
  new URLSearchParams(
    Object.entries(params).map(([key, value]) => [key, String(value)]),
  ).toString();

export const tradingApi = {
  strategies: (signal?: AbortSignal) => api.get<StrategyList>('/trading/strategies/', signal),
  symbols: (exchange: Exchange, signal?: AbortSignal) =>
    api.get<SymbolsResponse>(`/trading/symbols/?${query({ exchange })}`, signal),
  marketData: (s: MarketSelection, signal?: AbortSignal) =>
    api.get<MarketDataResponse>(
      `/trading/market-data/?${query({
        symbol: s.symbol,
        timeframe: s.timeframe,
        limit: CANDLE_LIMIT_DEFAULT,
        exchange: s.exchange,
        strategy_type: s.strategyType,
      })}`,
      signal,
    ),
  backtest: (body: BacktestRequest) => api.post<BacktestResponse>('/trading/backtest/', body),
  dataFreshness: (
    s: Pick<MarketSelection, 'exchange' | 'symbol' | 'timeframe'>,
    signal?: AbortSignal,
  ) =>
    api.get<DataFreshness>(
      `/trading/data-freshness/?${query({
        symbol: s.symbol,
        timeframe: s.timeframe,
        exchange: s.exchange,
      })}`,
      signal,
    ),
  marketStatus: (signal?: AbortSignal) =>
    api.get<MarketStatusResponse>('/trading/market-status/', signal),
};

function toChartData(answer: MarketDataResponse | BacktestResponse): ChartData {
  const { exchange, symbol, timeframe, source, strategy_type, candles, indicators } = answer;
  return { exchange, symbol, timeframe, source, strategy_type, candles, indicators };
}

export function useStrategies() {
  return useQuery({
    queryKey: tradingKeys.strategies(),
    queryFn: ({ signal }) => tradingApi.strategies(signal),
    staleTime: 10 * 60_000,
  });
}

export function useSymbols(exchange: Exchange) {
  return useQuery({
    queryKey: tradingKeys.symbols(exchange),
    queryFn: ({ signal }) => tradingApi.symbols(exchange, signal),
    staleTime: 10 * 60_000,
  });
}

/**
 * The backtest of the selection: candles, indicators and the result in one answer, so the chart
 * and the summary agree. Repeated at the timeframe's auto-refresh interval (document 1 §9).
 * Each answer also becomes the chart's data, which then counts as fresh.
 */
export function useBacktest(selection: MarketSelection | null) {
  const queryClient = useQueryClient();
  return useQuery({
    // A placeholder key while there is no selection yet; the query is disabled then.
    queryKey: selection ? tradingKeys.backtest(selection) : [...tradingKeys.all, 'backtest'],
    queryFn: async () => {
      if (!selection) throw new Error('no selection');
      const answer = await tradingApi.backtest({
        symbol: selection.symbol,
        timeframe: selection.timeframe,
        strategy_type: selection.strategyType,
        exchange: selection.exchange,
        limit: CANDLE_LIMIT_DEFAULT,
      });
      queryClient.setQueryData(tradingKeys.chart(selection), toChartData(answer));
      return answer;
    },
    enabled: selection !== null,
    refetchInterval: selection ? AUTO_REFRESH_MS[selection.timeframe] : false,
    staleTime: selection ? AUTO_REFRESH_MS[selection.timeframe] : 0,
  });
}

/**
 * The candle chart's data, refreshed every 30 s (document 1 §4) through the market-data call.
 * It starts once the backtest has answered (its candles seed this query, so no second call is
 * made on load) or failed (then the chart still loads on its own). A tick that finds the
 * backtest still running is skipped, as is one while this query is still fetching.
 */
export function useChartData(selection: MarketSelection | null, isBacktestSettled: boolean) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: selection ? tradingKeys.chart(selection) : [...tradingKeys.all, 'chart'],
    queryFn: async ({ signal }): Promise<ChartData> => {
      if (!selection) throw new Error('no selection');
      const current = queryClient.getQueryData<ChartData>(tradingKeys.chart(selection));
      if (current && queryClient.isFetching({ queryKey: tradingKeys.backtest(selection) }) > 0) {
        return current;
      }
      return toChartData(await tradingApi.marketData(selection, signal));
    },
    enabled: selection !== null && isBacktestSettled,
    refetchInterval: CHART_REFRESH_MS,
    staleTime: CHART_REFRESH_MS,
  });
}

/** Data freshness of the selected market, checked every 5 minutes (document 1 §4). */
export function useDataFreshness(selection: MarketSelection | null) {
  return useQuery({
    queryKey: selection ? tradingKeys.freshness(selection) : [...tradingKeys.all, 'freshness'],
    queryFn: ({ signal }) => {
      if (!selection) throw new Error('no selection');
      return tradingApi.dataFreshness(selection, signal);
    },
    enabled: selection !== null,
    refetchInterval: FRESHNESS_REFRESH_MS,
    staleTime: FRESHNESS_REFRESH_MS,
    retry: false,
  });
}

/** Every exchange's symbols × timeframes freshness, on the freshness schedule. */
export function useMarketStatus() {
  return useQuery({
    queryKey: tradingKeys.marketStatus(),
    queryFn: ({ signal }) => tradingApi.marketStatus(signal),
    refetchInterval: FRESHNESS_REFRESH_MS,
    staleTime: FRESHNESS_REFRESH_MS,
  });
}
