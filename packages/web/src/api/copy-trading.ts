import type {
  CopyAction,
  CopyCreateRequest,
  CopyDetailResponse,
  CopyFollowersResponse,
  CopyFollowingResponse,
  CopyMode,
  CopyRelation,
  CopySimulationDays,
  CopySimulationResponse,
  CopySimulationVenue,
  CopyUpdateRequest,
  StrategyDetail,
} from '@quantsquare/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from './client';
import { squareKeys } from './square';
import { invalidateCoins } from './wallet';

// Copy trading (document 2 §1 copy modal, §4 copy management, §7 calls): create a copy relation,
// the following and followers lists, one relation's detail, pause/resume/stop, edit, delete.

export const copyKeys = {
  all: ['copy-trading'] as const,
  following: () => [...copyKeys.all, 'following'] as const,
  followers: () => [...copyKeys.all, 'followers'] as const,
  detail: (id: number) => [...copyKeys.all, 'detail', id] as const,
  simulation: (params: CopySimulationParams, language: string) =>
    [...copyKeys.all, 'simulation', params, language] as const,
};

/** What the copy simulator is asked: a strategy, an amount, a mode, a period and a venue. */
export interface CopySimulationParams {
  strategyId: number;
  copyAmount: number;
  mode: CopyMode;
  days: CopySimulationDays;
  venue: CopySimulationVenue;
}

const base = '/strategy-square/copy-trading';

export const copyApi = {
  create: (body: CopyCreateRequest) => api.post<CopyRelation>(`${base}/create/`, body),
  following: (signal?: AbortSignal) => api.get<CopyFollowingResponse>(`${base}/following/`, signal),
  followers: (signal?: AbortSignal) => api.get<CopyFollowersResponse>(`${base}/followers/`, signal),
  detail: (id: number, signal?: AbortSignal) =>
    api.get<CopyDetailResponse>(`${base}/${id}/`, signal),
  act: (id: number, action: CopyAction) => api.put<CopyRelation>(`${base}/${id}/${action}/`),
  update: (id: number, body: CopyUpdateRequest) =>
    api.patch<CopyRelation>(`${base}/${id}/update/`, body),
  remove: (id: number) => api.delete<unknown>(`${base}/${id}/delete/`),
  simulation: (p: CopySimulationParams, signal?: AbortSignal) =>
    api.get<CopySimulationResponse>(
      `/strategy-square/strategies/${p.strategyId}/copy-simulation/?${new URLSearchParams({
        copy_amount: String(p.copyAmount),
        copy_mode: p.mode,
        days: String(p.days),
        exchange: p.venue,
      }).toString()}`,
      signal,
    ),
};

/**
 * The simulated copy of a strategy (the copy modal's preview, a running copy's comparison). The
 * assumptions come in the reader's language, so the language is part of the key.
 */
export function useCopySimulation(params: CopySimulationParams | null) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: copyKeys.simulation(
      params ?? { strategyId: 0, copyAmount: 0, mode: 'normal', days: 30, venue: 'paper' },
      i18n.language,
    ),
    queryFn: ({ signal }) => copyApi.simulation(params as CopySimulationParams, signal),
    enabled: params !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** How often an open relation's figures are read again (P&L moves with the mark price). */
const COPY_REFRESH_MS = 30_000;

export function useCopyFollowing() {
  return useQuery({
    queryKey: copyKeys.following(),
    queryFn: ({ signal }) => copyApi.following(signal),
    refetchInterval: COPY_REFRESH_MS,
  });
}

export function useCopyFollowers(enabled = true) {
  return useQuery({
    queryKey: copyKeys.followers(),
    queryFn: ({ signal }) => copyApi.followers(signal),
    enabled,
  });
}

export function useCopyDetail(id: number | null) {
  return useQuery({
    queryKey: copyKeys.detail(id ?? 0),
    queryFn: ({ signal }) => copyApi.detail(id ?? 0, signal),
    enabled: id !== null,
    refetchInterval: COPY_REFRESH_MS,
  });
}

/**
 * Copies a strategy. The strategy's pages show it copied with one more copier at once (document 2
 * §4), the fee leaves the coin balance, and the copy lists are read again.
 */
export function useCreateCopy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: copyApi.create,
    onSuccess: (_relation, body) => {
      const strategyId = body.leader_account_id;
      queryClient.setQueriesData<StrategyDetail>(
        { queryKey: squareKeys.details(strategyId) },
        (current) =>
          current
            ? {
                ...current,
                is_copying: true,
                share_settings: {
                  ...current.share_settings,
                  copiers_count: current.share_settings.copiers_count + 1,
                },
              }
            : current,
      );
      void queryClient.invalidateQueries({ queryKey: squareKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: copyKeys.all });
      void invalidateCoins(queryClient);
    },
  });
}

/** Puts a changed relation into every cached place that shows it. */
function useStoreRelation() {
  const queryClient = useQueryClient();
  return (relation: CopyRelation) => {
    queryClient.setQueryData<CopyFollowingResponse>(copyKeys.following(), (current) =>
      current
        ? {
            ...current,
            results: current.results.map((r) => (r.id === relation.id ? relation : r)),
          }
        : current,
    );
    queryClient.setQueryData<CopyDetailResponse>(copyKeys.detail(relation.id), (current) =>
      current ? { ...current, relation } : current,
    );
    void queryClient.invalidateQueries({ queryKey: copyKeys.all });
  };
}

export function useCopyAction() {
  const store = useStoreRelation();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: CopyAction }) => copyApi.act(id, action),
    onSuccess: store,
  });
}

export function useUpdateCopy() {
  const store = useStoreRelation();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CopyUpdateRequest }) => copyApi.update(id, body),
    onSuccess: store,
  });
}

export function useDeleteCopy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => copyApi.remove(id),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<CopyFollowingResponse>(copyKeys.following(), (current) =>
        current
          ? {
              results: current.results.filter((r) => r.id !== id),
              count: Math.max(0, current.count - 1),
            }
          : current,
      );
      queryClient.removeQueries({ queryKey: copyKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: copyKeys.following() });
      // The strategy may be copied again now.
      void queryClient.invalidateQueries({ queryKey: squareKeys.all });
    },
  });
}
