import {
  BOT_LIST_REFRESH_MS,
  type BotAction,
  type BotActionResponse,
  type BotCreateRequest,
  type BotList,
  type DataFreshness,
  type Exchange,
  type LiveVsBacktest,
  OPERATION_LOG_REFRESH_MS,
  type OperationLogList,
  type OperationLogType,
  type Timeframe,
} from '@quantsquare/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from './client';
import { tradingApi, tradingKeys } from './trading';

// Trading bots and the operation log (document 1 §2 bot list, §7 /trading/bots/ and
// /trading/logs/, §9 refresh intervals).

/** The operation log's filters and page. */
export interface OperationLogParams {
  type?: OperationLogType;
  page: number;
  pageSize: number;
}

export const botKeys = {
  all: ['bots'] as const,
  list: () => [...botKeys.all, 'list'] as const,
  liveVsBacktest: (id: number) => [...botKeys.all, 'live-vs-backtest', id] as const,
  logsAll: () => [...botKeys.all, 'logs'] as const,
  logs: (p: OperationLogParams) =>
    [...botKeys.logsAll(), p.type ?? 'all', p.page, p.pageSize] as const,
};

const logQuery = (p: OperationLogParams) => {
  const params = new URLSearchParams({ page: String(p.page), page_size: String(p.pageSize) });
  if (p.type) params.set('type', p.type);
  return params.toString();
};

export const botsApi = {
  list: (signal?: AbortSignal) => api.get<BotList>('/trading/bots/', signal),
  create: (body: BotCreateRequest) => api.post<BotActionResponse>('/trading/bots/', body),
  action: (id: number, action: BotAction) =>
    api.post<BotActionResponse>(`/trading/bots/${id}/${action}/`),
  liveVsBacktest: (id: number, signal?: AbortSignal) =>
    api.get<LiveVsBacktest>(`/trading/bots/${id}/live-vs-backtest/`, signal),
  remove: (id: number) => api.delete<{ success: boolean; message: string }>(`/trading/bots/${id}/`),
  logs: (p: OperationLogParams, signal?: AbortSignal) =>
    api.get<OperationLogList>(`/trading/logs/?${logQuery(p)}`, signal),
};

/** The user's bots, every 30 s (§9). */
export function useBots() {
  return useQuery({
    queryKey: botKeys.list(),
    queryFn: ({ signal }) => botsApi.list(signal),
    refetchInterval: BOT_LIST_REFRESH_MS,
    staleTime: BOT_LIST_REFRESH_MS,
  });
}

/** A bot's live trades against its backtest (the bot card's details), with the bot list's 30 s. */
export function useLiveVsBacktest(id: number) {
  return useQuery({
    queryKey: botKeys.liveVsBacktest(id),
    queryFn: ({ signal }) => botsApi.liveVsBacktest(id, signal),
    refetchInterval: BOT_LIST_REFRESH_MS,
    staleTime: BOT_LIST_REFRESH_MS,
  });
}

/** One page of the operation log, every 5 s (§9); the previous page stays while the next loads. */
export function useOperationLogs(params: OperationLogParams) {
  return useQuery({
    queryKey: botKeys.logs(params),
    queryFn: ({ signal }) => botsApi.logs(params, signal),
    refetchInterval: OPERATION_LOG_REFRESH_MS,
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** Any bot change reloads the list (§4 "after start or stop the list reloads") and the log. */
function useInvalidateBots() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: botKeys.all });
}

export function useCreateBot() {
  const invalidate = useInvalidateBots();
  return useMutation({ mutationFn: botsApi.create, onSuccess: invalidate });
}

export function useBotAction() {
  const invalidate = useInvalidateBots();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: BotAction }) => botsApi.action(id, action),
    onSettled: invalidate,
  });
}

export function useDeleteBot() {
  const invalidate = useInvalidateBots();
  return useMutation({ mutationFn: botsApi.remove, onSuccess: invalidate });
}

/** A fresh data-freshness answer for one market (the check before creating a bot, §4). */
export function useFreshnessCheck() {
  const queryClient = useQueryClient();
  return useCallback(
    (market: {
      exchange: Exchange;
      symbol: string;
      timeframe: Timeframe;
    }): Promise<DataFreshness> =>
      queryClient.fetchQuery({
        queryKey: tradingKeys.freshness(market),
        queryFn: ({ signal }) => tradingApi.dataFreshness(market, signal),
        staleTime: 0,
        retry: false,
      }),
    [queryClient],
  );
}
