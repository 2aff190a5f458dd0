import {
  type CoinBalanceResponse,
  DEPOSIT_LIST_REFRESH_MS,
  type DepositInfoResponse,
  type DepositNetwork,
  type DepositResponse,
  type GenerateInvitationResponse,
  type InvitationStats,
  type Profile,
  type PurchaseVipResponse,
  type ReferralsResponse,
  type TransactionType,
  type VipInfo,
  type WithdrawNetwork,
  type WithdrawResponse,
} from '@quantsquare/contracts';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { authKeys } from './auth';
import { api } from './client';
import { profileKeys } from './profile';

// Platform coins (document 2 §2 deposit, withdraw and profile settings; §7 /auth/balance/,
// /auth/deposit/, /auth/withdraw/, /auth/purchase-vip/, invitations).

/** What the web sends (the contracts' request types are the parsed, server-side shapes). */
export interface DepositBody {
  amount: string;
  network: DepositNetwork;
  tx_hash?: string;
  offchain_reference?: string;
}

export interface WithdrawBody {
  amount: string;
  address: string;
  network: WithdrawNetwork;
  request_id: string;
}

export interface PurchaseVipBody {
  request_id: string;
  expected_price: string;
}

export interface TransactionsQuery {
  page: number;
  page_size: number;
  type?: TransactionType;
}

export const walletKeys = {
  all: ['wallet'] as const,
  transactions: (query: TransactionsQuery) => [...walletKeys.all, 'transactions', query] as const,
  depositInfo: () => [...walletKeys.all, 'deposit-info'] as const,
  vipInfo: () => [...walletKeys.all, 'vip'] as const,
  invitationStats: () => [...walletKeys.all, 'invitation-stats'] as const,
  referrals: (page: number, pageSize: number) =>
    [...walletKeys.all, 'referrals', page, pageSize] as const,
};

function balancePath(query: TransactionsQuery): string {
  const params = new URLSearchParams({
    page: String(query.page),
    page_size: String(query.page_size),
  });
  if (query.type) params.set('type', query.type);
  return `/auth/balance/?${params.toString()}`;
}

export const walletApi = {
  balance: (query: TransactionsQuery, signal?: AbortSignal) =>
    api.get<CoinBalanceResponse>(balancePath(query), signal),
  depositInfo: (signal?: AbortSignal) => api.get<DepositInfoResponse>('/auth/deposit/', signal),
  deposit: (body: DepositBody) => api.post<DepositResponse>('/auth/deposit/', body),
  withdraw: (body: WithdrawBody) => api.post<WithdrawResponse>('/auth/withdraw/', body),
  vipInfo: (signal?: AbortSignal) => api.get<VipInfo>('/auth/vip/', signal),
  purchaseVip: (body: PurchaseVipBody) =>
    api.post<PurchaseVipResponse>('/auth/purchase-vip/', body),
  invitationStats: (signal?: AbortSignal) =>
    api.get<InvitationStats>('/auth/invitation-stats/', signal),
  referrals: (page: number, pageSize: number, signal?: AbortSignal) =>
    api.get<ReferralsResponse>(`/auth/referrals/?page=${page}&page_size=${pageSize}`, signal),
  generateInvitation: () => api.post<GenerateInvitationResponse>('/auth/generate-invitation/'),
};

/**
 * The balance with a page of transactions (latest first); `refetchIntervalMs` for the lists the
 * spec refreshes (recent deposits every 30 s).
 */
export function useTransactions(query: TransactionsQuery, refetchIntervalMs?: number) {
  return useQuery({
    queryKey: walletKeys.transactions(query),
    queryFn: ({ signal }) => walletApi.balance(query, signal),
    refetchInterval: refetchIntervalMs ?? false,
    placeholderData: (previous) => previous,
  });
}

/** The recent deposits list of /deposit, refreshed every 30 s (§9). */
export function useRecentDeposits(count: number) {
  return useTransactions({ page: 1, page_size: count, type: 'deposit' }, DEPOSIT_LIST_REFRESH_MS);
}

export function useDepositInfo() {
  return useQuery({
    queryKey: walletKeys.depositInfo(),
    queryFn: ({ signal }) => walletApi.depositInfo(signal),
    staleTime: 5 * 60_000,
  });
}

/** Every coin movement changes the balance, the lists and the shell's profile. */
export function invalidateCoins(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: walletKeys.all }),
    queryClient.invalidateQueries({ queryKey: authKeys.profile() }),
    queryClient.invalidateQueries({ queryKey: profileKeys.all }),
  ]);
}

function useInvalidateCoins() {
  const queryClient = useQueryClient();
  return () => invalidateCoins(queryClient);
}

export function useSubmitDeposit() {
  const invalidate = useInvalidateCoins();
  return useMutation({ mutationFn: walletApi.deposit, onSuccess: invalidate });
}

export function useSubmitWithdrawal() {
  const invalidate = useInvalidateCoins();
  return useMutation({ mutationFn: walletApi.withdraw, onSuccess: invalidate });
}

export function usePurchaseVip() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateCoins();
  return useMutation({
    mutationFn: walletApi.purchaseVip,
    onSuccess: ({ price_paid: _paid, message: _message, ...profile }) => {
      queryClient.setQueryData<Profile>(authKeys.profile(), (current) =>
        current ? { ...current, ...profile } : profile,
      );
      return invalidate();
    },
  });
}

/** The VIP price this user pays now (the promotional one under 100 coins) and their VIP state. */
export function useVipInfo() {
  return useQuery({
    queryKey: walletKeys.vipInfo(),
    queryFn: ({ signal }) => walletApi.vipInfo(signal),
  });
}

export function useInvitationStats() {
  return useQuery({
    queryKey: walletKeys.invitationStats(),
    queryFn: ({ signal }) => walletApi.invitationStats(signal),
  });
}

export function useReferrals(page: number, pageSize: number) {
  return useQuery({
    queryKey: walletKeys.referrals(page, pageSize),
    queryFn: ({ signal }) => walletApi.referrals(page, pageSize, signal),
    placeholderData: (previous) => previous,
  });
}

/** A new code replaces the old one in the profile (the old one stops working). */
export function useGenerateInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: walletApi.generateInvitation,
    onSuccess: (answer) => {
      queryClient.setQueryData<Profile>(authKeys.profile(), (current) =>
        current ? { ...current, invitation_code: answer.invitation_code } : current,
      );
      return queryClient.invalidateQueries({ queryKey: authKeys.profile() });
    },
  });
}

/** How often the shell re-reads the balance while a deposit or withdrawal awaits staff. */
export const PENDING_REQUEST_REFRESH_MS = 30_000;

export function hasPendingRequest(queryClient: QueryClient): boolean {
  return queryClient
    .getQueryCache()
    .findAll({ queryKey: [...walletKeys.all, 'transactions'] })
    .some((query) => {
      const data = query.state.data as CoinBalanceResponse | undefined;
      return (
        data?.transactions.some(
          (row) =>
            (row.type === 'deposit' || row.type === 'withdraw') &&
            (row.status === 'pending' || row.status === 'processing'),
        ) ?? false
      );
    });
}

/**
 * Whether a deposit or withdrawal this tab has seen still awaits staff (read from the cached
 * lists, no request of its own): the shell then re-reads the balance now and then.
 */
export function usePendingCoinRequest(): boolean {
  const queryClient = useQueryClient();
  return useSyncExternalStore(
    (listener) => queryClient.getQueryCache().subscribe(listener),
    () => hasPendingRequest(queryClient),
    () => false,
  );
}

/** After the shell saw the balance move: every cached list, shown or not, is read again. */
export function refreshCoinLists(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: walletKeys.all, refetchType: 'all' });
}
