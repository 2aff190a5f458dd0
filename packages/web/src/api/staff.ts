import type {
  StaffCompleteRequest,
  StaffQueueResponse,
  StaffReasonRequest,
  StaffRequest,
  StaffStatusFilter,
} from '@quantsquare/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';

// The staff console (issue 10): the deposit and withdrawal queues and the decisions on them.

/** Staff see new requests without reloading. */
const STAFF_QUEUE_REFRESH_MS = 30_000;

export type StaffQueue = 'deposits' | 'withdrawals';

export interface StaffQueueParams {
  queue: StaffQueue;
  status: StaffStatusFilter;
  page: number;
  page_size: number;
}

export const staffKeys = {
  all: ['staff'] as const,
  queue: (params: StaffQueueParams) => [...staffKeys.all, params] as const,
};

export type StaffDecisionInput =
  | { queue: 'deposits'; id: number; action: 'approve' }
  | { queue: 'deposits'; id: number; action: 'reject'; body: StaffReasonRequest }
  | { queue: 'withdrawals'; id: number; action: 'processing' }
  | { queue: 'withdrawals'; id: number; action: 'complete'; body: StaffCompleteRequest }
  | { queue: 'withdrawals'; id: number; action: 'fail'; body: StaffReasonRequest };

export const staffApi = {
  queue: ({ queue, status, page, page_size }: StaffQueueParams, signal?: AbortSignal) =>
    api.get<StaffQueueResponse>(
      `/staff/${queue}/?status=${status}&page=${page}&page_size=${page_size}`,
      signal,
    ),
  decide: (input: StaffDecisionInput) =>
    api.post<StaffRequest>(
      `/staff/${input.queue}/${input.id}/${input.action}/`,
      'body' in input ? input.body : {},
    ),
};

export function useStaffQueue(params: StaffQueueParams, enabled: boolean) {
  return useQuery({
    queryKey: staffKeys.queue(params),
    queryFn: ({ signal }) => staffApi.queue(params, signal),
    enabled,
    placeholderData: (previous) => previous,
    refetchInterval: STAFF_QUEUE_REFRESH_MS,
  });
}

/** A decision changes both queues' counts; a conflict (decided meanwhile) reloads them too. */
export function useStaffDecision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: staffApi.decide,
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.all }),
  });
}
