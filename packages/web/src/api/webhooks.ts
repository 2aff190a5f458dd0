import {
  WEBHOOK_PENDING_STATUSES,
  type WebhookBatchActionRequest,
  type WebhookBatchActionResponse,
  type WebhookConfig,
  type WebhookConfigCreateRequest,
  type WebhookConfigListResponse,
  type WebhookConfigUpdateRequest,
  type WebhookLogLevel,
  type WebhookLogListResponse,
  type WebhookSignal,
  type WebhookSignalListResponse,
  type WebhookSignalStatus,
  type WebhookStatsResponse,
  type WebhookTestRequest,
  type WebhookTestResponse,
} from '@quantsquare/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

// TradingView webhook trading (issue 13; document 2 §7 "Webhook trading"): configurations, the
// dry run, the signal trail, logs and stats.

/** While a signal is still on its way to a fill, its list and trail are read this often. */
export const WEBHOOK_PENDING_REFRESH_MS = 2_000;
/** Otherwise lists and stats are read this often, so new alerts appear by themselves. */
export const WEBHOOK_IDLE_REFRESH_MS = 15_000;

export interface WebhookSignalsParams {
  page: number;
  pageSize: number;
  config?: number;
  status?: WebhookSignalStatus;
}

export interface WebhookLogsParams {
  page: number;
  pageSize: number;
  config?: number;
  status?: WebhookLogLevel;
  /** ISO times: inclusive since, exclusive until. */
  since?: string;
  until?: string;
}

export const webhookKeys = {
  all: ['webhooks'] as const,
  configs: () => [...webhookKeys.all, 'configs'] as const,
  signalLists: () => [...webhookKeys.all, 'signals'] as const,
  signals: (p: WebhookSignalsParams) =>
    [...webhookKeys.signalLists(), p.page, p.pageSize, p.config, p.status] as const,
  signal: (id: number) => [...webhookKeys.all, 'signal', id] as const,
  logLists: () => [...webhookKeys.all, 'logs'] as const,
  logs: (p: WebhookLogsParams) =>
    [...webhookKeys.logLists(), p.page, p.pageSize, p.config, p.status, p.since, p.until] as const,
  stats: () => [...webhookKeys.all, 'stats'] as const,
};

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  return search.toString();
}

const base = '/webhook-trading';

export const webhooksApi = {
  configs: (signal?: AbortSignal) => api.get<WebhookConfigListResponse>(`${base}/configs/`, signal),
  create: (body: WebhookConfigCreateRequest) => api.post<WebhookConfig>(`${base}/configs/`, body),
  update: (id: number, body: WebhookConfigUpdateRequest) =>
    api.patch<WebhookConfig>(`${base}/configs/${id}/`, body),
  remove: (id: number) => api.delete<unknown>(`${base}/configs/${id}/`),
  /** `google_code`: the step-up code of a user with 2FA on. */
  regenerateKey: ({ id, google_code }: { id: number; google_code?: string | undefined }) =>
    api.post<WebhookConfig>(
      `${base}/configs/${id}/regenerate-key/`,
      google_code ? { google_code } : undefined,
    ),
  test: (id: number, body: WebhookTestRequest) =>
    api.post<WebhookTestResponse>(`${base}/configs/${id}/test/`, body),
  batch: (body: WebhookBatchActionRequest) =>
    api.post<WebhookBatchActionResponse>(`${base}/configs/batch-action/`, body),
  signals: (p: WebhookSignalsParams, signal?: AbortSignal) =>
    api.get<WebhookSignalListResponse>(
      `${base}/signals/?${query({ page: p.page, page_size: p.pageSize, config: p.config, status: p.status })}`,
      signal,
    ),
  signal: (id: number, signal?: AbortSignal) =>
    api.get<WebhookSignal>(`${base}/signals/${id}/`, signal),
  logs: (p: WebhookLogsParams, signal?: AbortSignal) =>
    api.get<WebhookLogListResponse>(
      `${base}/logs/?${query({
        page: p.page,
        page_size: p.pageSize,
        config: p.config,
        status: p.status,
        since: p.since,
        until: p.until,
      })}`,
      signal,
    ),
  stats: (signal?: AbortSignal) => api.get<WebhookStatsResponse>(`${base}/stats/`, signal),
};

export function isPendingSignal(status: WebhookSignalStatus): boolean {
  return WEBHOOK_PENDING_STATUSES.includes(status);
}

export function useWebhookConfigs() {
  return useQuery({
    queryKey: webhookKeys.configs(),
    queryFn: ({ signal }) => webhooksApi.configs(signal),
    refetchInterval: WEBHOOK_IDLE_REFRESH_MS,
  });
}

export function useWebhookStats() {
  return useQuery({
    queryKey: webhookKeys.stats(),
    queryFn: ({ signal }) => webhooksApi.stats(signal),
    refetchInterval: WEBHOOK_IDLE_REFRESH_MS,
  });
}

/** A page of signals, read every 2 s while one of them is still in progress. */
export function useWebhookSignals(params: WebhookSignalsParams) {
  return useQuery({
    queryKey: webhookKeys.signals(params),
    queryFn: ({ signal }) => webhooksApi.signals(params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.results.some((s) => isPendingSignal(s.status))
        ? WEBHOOK_PENDING_REFRESH_MS
        : WEBHOOK_IDLE_REFRESH_MS,
  });
}

/** One signal's whole trail (`id` null: none open), read every 2 s until it is final. */
export function useWebhookSignal(id: number | null) {
  return useQuery({
    queryKey: webhookKeys.signal(id ?? 0),
    queryFn: ({ signal }) => webhooksApi.signal(id ?? 0, signal),
    enabled: id !== null,
    refetchInterval: (q) =>
      q.state.data && isPendingSignal(q.state.data.status) ? WEBHOOK_PENDING_REFRESH_MS : false,
  });
}

export function useWebhookLogs(params: WebhookLogsParams) {
  return useQuery({
    queryKey: webhookKeys.logs(params),
    queryFn: ({ signal }) => webhooksApi.logs(params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: WEBHOOK_IDLE_REFRESH_MS,
  });
}

/** Every change of a configuration may change the list, the stats and the logs. */
function useInvalidateWebhooks() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
}

export function useCreateWebhookConfig() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({ mutationFn: webhooksApi.create, onSuccess: invalidate });
}

export function useUpdateWebhookConfig() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: WebhookConfigUpdateRequest }) =>
      webhooksApi.update(id, body),
    onSuccess: invalidate,
  });
}

export function useDeleteWebhookConfig() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({ mutationFn: webhooksApi.remove, onSuccess: invalidate });
}

export function useRegenerateWebhookKey() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({ mutationFn: webhooksApi.regenerateKey, onSuccess: invalidate });
}

export function useWebhookBatchAction() {
  const invalidate = useInvalidateWebhooks();
  return useMutation({ mutationFn: webhooksApi.batch, onSuccess: invalidate });
}

/** The dry run: nothing is ordered or recorded, so nothing is reloaded after it. */
export function useTestWebhookAlert() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: WebhookTestRequest }) =>
      webhooksApi.test(id, body),
  });
}
