import {
  type BacktestResponse,
  CANDLE_LIMIT_DEFAULT,
  DEFAULT_EXCHANGE,
  DEFAULT_SYMBOLS,
  DEFAULT_TIMEFRAME,
  type UserStrategy,
  type UserStrategyListAnswer,
  type UserStrategyPayload,
} from '@quantsquare/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { tradingApi, tradingKeys } from './trading';

const PATH = '/trading/user-strategies/';

export const userStrategyKeys = {
  all: ['user-strategies'] as const,
  list: () => [...userStrategyKeys.all, 'list'] as const,
  preview: (id: number, updatedAt: string) =>
    [...userStrategyKeys.all, 'preview', id, updatedAt] as const,
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

/** The saved strategy's backtest on PREVIEW_MARKET; a new save (updated_at) runs it again. */
export function useStrategyPreview(strategy: UserStrategy | null) {
  return useQuery({
    queryKey: strategy
      ? userStrategyKeys.preview(strategy.id, strategy.updated_at)
      : [...userStrategyKeys.all, 'preview'],
    queryFn: (): Promise<BacktestResponse> => {
      if (!strategy) throw new Error('no strategy');
      return tradingApi.backtest({
        symbol: PREVIEW_MARKET.symbol,
        timeframe: PREVIEW_MARKET.timeframe,
        exchange: PREVIEW_MARKET.exchange,
        limit: PREVIEW_MARKET.limit,
        strategy_type: strategy.type,
      });
    },
    enabled: strategy !== null,
    retry: false,
  });
}
