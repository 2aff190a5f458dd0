import type {
  OptimisationAnswer,
  OptimisationRequest,
  OptimisationSocketFrame,
} from '@quantsquare/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from './client';
import { getAccessToken } from './tokens';

const PATH = '/trading/optimisations/';
/** While a run goes on without its socket (e.g. it runs on another server), poll this often. */
const POLL_WHILE_RUNNING_MS = 3_000;

export const optimisationKeys = {
  all: ['optimisations'] as const,
  one: (id: number) => [...optimisationKeys.all, id] as const,
};

export const optimisationsApi = {
  create: (body: OptimisationRequest) => api.post<{ id: number }>(PATH, body),
  get: (id: number, signal?: AbortSignal) => api.get<OptimisationAnswer>(`${PATH}${id}/`, signal),
  cancel: (id: number) => api.delete<OptimisationAnswer>(`${PATH}${id}/`),
};

const isRunning = (answer: OptimisationAnswer | undefined) =>
  answer?.status === 'running' || answer?.status === 'queued';

export function useOptimisation(id: number | null) {
  return useQuery({
    queryKey: optimisationKeys.one(id ?? 0),
    queryFn: ({ signal }) => optimisationsApi.get(id ?? 0, signal),
    enabled: id !== null,
    refetchInterval: (query) => (isRunning(query.state.data) ? POLL_WHILE_RUNNING_MS : false),
  });
}

export function useCreateOptimisation() {
  return useMutation({ mutationFn: (body: OptimisationRequest) => optimisationsApi.create(body) });
}

export function useCancelOptimisation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => optimisationsApi.cancel(id),
    onSuccess: (answer) => queryClient.setQueryData(optimisationKeys.one(answer.id), answer),
  });
}

/** The socket of a run on the page's own origin (ws or wss alike). */
export function optimisationSocketUrl(
  location: Pick<Location, 'protocol' | 'host'>,
  id: number,
  accessToken: string,
) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws/optimisations/${id}?access_token=${encodeURIComponent(accessToken)}`;
}

/** A frame applied to the run's answer: new results appended, progress and status updated. */
export function applyFrame(
  answer: OptimisationAnswer | undefined,
  frame: OptimisationSocketFrame,
): OptimisationAnswer | undefined {
  if (frame.type !== 'progress') return frame.data;
  if (!answer) return answer;
  const known = new Set(answer.results.map((r) => r.index));
  const added = frame.data.results.filter((r) => !known.has(r.index));
  return {
    ...answer,
    status: frame.data.status,
    progress: frame.data.progress,
    completed_count: frame.data.completed_count,
    results: [...answer.results, ...added].sort((a, b) => a.index - b.index),
  };
}

/**
 * Follows a run over its websocket while the page shows it; each frame updates the query's
 * answer (the best and the warning are recomputed by the server's final answer).
 */
export function useOptimisationSocket(id: number | null, isActive: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const token = getAccessToken();
    if (id === null || !isActive || !token) return;
    const socket = new WebSocket(optimisationSocketUrl(window.location, id, token));
    socket.onmessage = (event) => {
      let frame: OptimisationSocketFrame;
      try {
        frame = JSON.parse(String(event.data)) as OptimisationSocketFrame;
      } catch {
        return;
      }
      queryClient.setQueryData<OptimisationAnswer>(optimisationKeys.one(id), (answer) =>
        applyFrame(answer, frame),
      );
    };
    return () => socket.close();
  }, [id, isActive, queryClient]);
}
