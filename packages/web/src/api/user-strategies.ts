import {
  type BacktestRequest,
  type BacktestResponse,
  CANDLE_LIMIT_DEFAULT,
  DEFAULT_EXCHANGE,
  DEFAULT_SYMBOLS,
  DEFAULT_TIMEFRAME,
  type UserStrategy,
  type UserStrategyListAnswer,
  type UserStrategyPayload,
} from '@quantsquare/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { tradingApi, tradingKeys } from './trading';

const PATH = '/trading/user-strategies/';

export const userStrategyKeys = {
  all: ['user-strategies'] as const,
  list: () => [...userStrategyKeys.all, 'list'] as const,
};

/** The market a builder preview backtests on: the dashboard's defaults. */
export const PREVIEW_MARKET = {
  exchange: DEFAULT_EXCHANGE,
  symbol: DEFAULT_SYMBOLS[0] ?? 'BTC/USDT:USDT',
  timeframe: DEFAULT_TIMEFRAME,
  limit: CANDLE_LIMIT_DEFAULT,
} as const;

export const userStrategiesApi = {
  list: (signal?: AbortSignal) => api.get<UserStrategyListAnswer>(PATH, signal),
  create: (body: UserStrategyPayload) => api.post<UserStrategy>(PATH, body),
  update: (id: number, body: UserStrategyPayload) => api.put<UserStrategy>(`${PATH}${id}/`, body),
  remove: (id: number) => api.delete<null>(`${PATH}${id}/`),
};

export function useUserStrategies() {
  return useQuery({
    queryKey: userStrategyKeys.list(),
    queryFn: ({ signal }) => userStrategiesApi.list(signal),
  });
}

/** Writes refresh the list and the strategy catalogue (the dashboard and bot form offer them). */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: userStrategyKeys.all }),
      queryClient.invalidateQueries({ queryKey: tradingKeys.strategies() }),
    ]);
}

export function useSaveUserStrategy() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: UserStrategyPayload }) =>
      id === null ? userStrategiesApi.create(body) : userStrategiesApi.update(id, body),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteUserStrategy() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => userStrategiesApi.remove(id),
    onSuccess: () => invalidate(),
  });
}

/** What the builder previews: the rules being edited and their protections. */
export interface RulesPreview {
  readonly rules: Record<string, unknown>;
  readonly stopLossPct: number | null;
  readonly takeProfitPct: number | null;
  readonly trailingStopPct: number | null;
}

/**
 * The backtest of rules not saved yet on PREVIEW_MARKET (null: none to run). The caller
 * debounces; the previous answer stays on screen while the next one loads.
 */
export function useRulesPreview(preview: RulesPreview | null) {
  const body: BacktestRequest | null = preview && {
    symbol: PREVIEW_MARKET.symbol,
    timeframe: PREVIEW_MARKET.timeframe,
    exchange: PREVIEW_MARKET.exchange,
    limit: PREVIEW_MARKET.limit,
    strategy_type: 'custom',
    rules: preview.rules,
    settings: {
      ...(preview.stopLossPct ? { stop_loss_percentage: preview.stopLossPct } : {}),
      ...(preview.takeProfitPct ? { take_profit_percentage: preview.takeProfitPct } : {}),
      ...(preview.trailingStopPct ? { trailing_stop_percentage: preview.trailingStopPct } : {}),
    },
  };
  return useQuery({
    queryKey: [...userStrategyKeys.all, 'preview', JSON.stringify(body)],
    queryFn: (): Promise<BacktestResponse> => {
      if (!body) throw new Error('no rules');
      return tradingApi.backtest(body);
    },
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
