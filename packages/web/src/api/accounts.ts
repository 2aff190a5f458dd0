import {
  ACCOUNT_OVERVIEW_REFRESH_MS,
  type AccountOverview,
  type AccountsOverviewResponse,
  type BalanceResponse,
  type ConnectionTestResponse,
  type ExchangeApi,
  type ExchangeApiCreateRequest,
  type ExchangeApiList,
  type RiskSettings,
  type RiskSettingsRequest,
  type ValidateResponse,
} from '@quantsquare/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

// Exchange API accounts (document 1 §2 "API management", §7 /auth/apis/) and the account
// overview (§2 "Account overview", /trading/accounts/).

export const accountKeys = {
  all: ['accounts'] as const,
  apis: () => [...accountKeys.all, 'apis'] as const,
  apiBalance: (id: number) => [...accountKeys.apis(), id, 'balance'] as const,
  overview: () => [...accountKeys.all, 'overview'] as const,
  risk: (id: number) => [...accountKeys.all, 'risk', id] as const,
};

export const accountsApi = {
  list: (signal?: AbortSignal) => api.get<ExchangeApiList>('/auth/apis/', signal),
  create: (body: ExchangeApiCreateRequest) => api.post<ExchangeApi>('/auth/apis/', body),
  remove: (id: number) => api.delete<unknown>(`/auth/apis/${id}/`),
  testConnection: (id: number) =>
    api.post<ConnectionTestResponse>(`/auth/apis/${id}/test_connection/`),
  validate: (id: number) => api.post<ValidateResponse>(`/auth/apis/${id}/validate/`),
  balance: (id: number, signal?: AbortSignal) =>
    api.get<BalanceResponse>(`/auth/apis/${id}/balance/`, signal),
  overview: (signal?: AbortSignal) =>
    api.get<AccountsOverviewResponse>('/trading/accounts/', signal),
  refreshAccount: (id: number) => api.post<AccountOverview>(`/trading/accounts/${id}/refresh/`),
  risk: (id: number, signal?: AbortSignal) =>
    api.get<RiskSettings>(`/trading/accounts/${id}/risk/`, signal),
  updateRisk: ({ id, body }: { id: number; body: RiskSettingsRequest }) =>
    api.put<RiskSettings>(`/trading/accounts/${id}/risk/`, body),
  halt: (id: number) => api.post<RiskSettings>(`/trading/accounts/${id}/risk/halt/`),
  resume: (id: number) => api.post<RiskSettings>(`/trading/accounts/${id}/risk/resume/`),
};

/** An account's risk gate: its limits and state (a breach may change it: polled with the page). */
export function useAccountRisk(id: number) {
  return useQuery({
    queryKey: accountKeys.risk(id),
    queryFn: ({ signal }) => accountsApi.risk(id, signal),
    refetchInterval: ACCOUNT_OVERVIEW_REFRESH_MS,
  });
}

/** Saving limits, halting or resuming answers the new risk state: the cache takes it at once. */
function useRiskMutation<V>(mutationFn: (variables: V) => Promise<RiskSettings>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (risk) => queryClient.setQueryData(accountKeys.risk(risk.account_id), risk),
  });
}

export const useUpdateRisk = () => useRiskMutation(accountsApi.updateRisk);
export const useHaltAccount = () => useRiskMutation(accountsApi.halt);
export const useResumeAccount = () => useRiskMutation(accountsApi.resume);

export function useExchangeApis() {
  return useQuery({
    queryKey: accountKeys.apis(),
    queryFn: ({ signal }) => accountsApi.list(signal),
  });
}

/** Adding or deleting an API changes both the list and the overview. */
function useInvalidateAccounts() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.all });
}

export function useCreateExchangeApi() {
  const invalidate = useInvalidateAccounts();
  return useMutation({ mutationFn: accountsApi.create, onSuccess: invalidate });
}

export function useDeleteExchangeApi() {
  const invalidate = useInvalidateAccounts();
  return useMutation({ mutationFn: accountsApi.remove, onSuccess: invalidate });
}

/** Test and validate may clear or set the API's last error, so the list is reloaded after. */
export function useTestConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: accountsApi.testConnection,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.apis() }),
  });
}

export function useValidateExchangeApi() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: accountsApi.validate,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.apis() }),
  });
}

/** The balance of one API, fetched while its modal is open (`id` null: closed). */
export function useApiBalance(id: number | null) {
  return useQuery({
    queryKey: id === null ? [...accountKeys.apis(), 'balance'] : accountKeys.apiBalance(id),
    queryFn: ({ signal }) => {
      if (id === null) throw new Error('no api');
      return accountsApi.balance(id, signal);
    },
    enabled: id !== null,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** Every exchange account with its balance, P&L, snapshots and positions, every 30 s (§9). */
export function useAccountsOverview() {
  return useQuery({
    queryKey: accountKeys.overview(),
    queryFn: ({ signal }) => accountsApi.overview(signal),
    refetchInterval: ACCOUNT_OVERVIEW_REFRESH_MS,
    staleTime: ACCOUNT_OVERVIEW_REFRESH_MS,
  });
}

/** Reloads one account (the retry of a failed one) and puts its answer into the overview. */
export function useRefreshAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: accountsApi.refreshAccount,
    onSuccess: (account) => {
      queryClient.setQueryData<AccountsOverviewResponse>(accountKeys.overview(), (current) =>
        current
          ? {
              ...current,
              accounts: current.accounts.map((a) => (a.id === account.id ? account : a)),
            }
          : current,
      );
    },
  });
}
