import {
  COMMENTS_PAGE_SIZE,
  type CommentCreateRequest,
  type CommentList,
  type Exchange,
  type FollowResponse,
  LIVE_TRADES_KEPT,
  type LikeResponse,
  type PublicProfile,
  type ShareSettings,
  type ShareSettingsUpdateRequest,
  type ShareStatusResponse,
  SQUARE_PAGE_SIZE,
  type SquarePeriod,
  type SquareSort,
  type StrategyComment,
  type StrategyDetail,
  type StrategyListResponse,
  type StrategyPositionList,
  type StrategyTradeList,
  type UserStrategyList,
} from '@quantsquare/contracts';
import {
  type InfiniteData,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from './client';
import { useIsLoggedIn } from './tokens';

// The strategy square (document 2 §2, §7 "Strategy square"): list, detail, trades, positions,
// comments, likes, follow, public profiles; and the share settings of an exchange account
// (document 1 §7). The live connection of the detail page is in `strategy-socket.ts`.

export type SearchMode = 'strategy' | 'user';

export interface SquareListParams {
  page: number;
  exchange: Exchange | null;
  sort: SquareSort;
  period: SquarePeriod;
  mode: SearchMode;
  search: string;
  /** Only honest strategies (the quick tag; contracts' HONEST_MIN_LIVE_DAYS and delta). */
  honest: boolean;
}

export const squareKeys = {
  all: ['square'] as const,
  lists: () => [...squareKeys.all, 'list'] as const,
  list: (p: SquareListParams) =>
    [
      ...squareKeys.lists(),
      p.page,
      p.exchange,
      p.sort,
      p.period,
      p.mode,
      p.search,
      p.honest,
    ] as const,
  strategy: (id: number) => [...squareKeys.all, 'strategy', id] as const,
  details: (id: number) => [...squareKeys.strategy(id), 'detail'] as const,
  detail: (id: number, period: SquarePeriod) => [...squareKeys.details(id), period] as const,
  trades: (id: number) => [...squareKeys.strategy(id), 'trades'] as const,
  positions: (id: number) => [...squareKeys.strategy(id), 'positions'] as const,
  comments: (id: number) => [...squareKeys.strategy(id), 'comments'] as const,
  user: (userId: number) => [...squareKeys.all, 'user', userId] as const,
  profile: (userId: number) => [...squareKeys.user(userId), 'profile'] as const,
  userStrategies: (userId: number) => [...squareKeys.user(userId), 'strategies'] as const,
  share: (accountId: number) => [...squareKeys.all, 'share', accountId] as const,
  shareStatus: (accountId: number) => [...squareKeys.share(accountId), 'status'] as const,
  shareSettings: (accountId: number) => [...squareKeys.share(accountId), 'settings'] as const,
};

/** The list query of the spec's client: page, page_size 12, filters, one of the two searches. */
export function listQueryString(p: SquareListParams): string {
  const params = new URLSearchParams({
    page: String(p.page),
    page_size: String(SQUARE_PAGE_SIZE),
    sort: p.sort,
    period: p.period,
    is_public: 'true',
  });
  if (p.exchange) params.set('exchange', p.exchange);
  if (p.honest) params.set('honest', 'true');
  const search = p.search.trim();
  if (search) params.set(p.mode === 'user' ? 'user_search' : 'search', search);
  return params.toString();
}

const base = '/strategy-square';

export const squareApi = {
  list: (p: SquareListParams, signal?: AbortSignal) =>
    api.get<StrategyListResponse>(`${base}/strategies/?${listQueryString(p)}`, signal),
  detail: (id: number, period: SquarePeriod, signal?: AbortSignal) =>
    api.get<StrategyDetail>(`${base}/strategies/${id}/?period=${period}`, signal),
  trades: (id: number, signal?: AbortSignal) =>
    api.get<StrategyTradeList>(
      `${base}/strategies/${id}/trades/?limit=${LIVE_TRADES_KEPT}`,
      signal,
    ),
  positions: (id: number, signal?: AbortSignal) =>
    api.get<StrategyPositionList>(`${base}/strategies/${id}/positions/`, signal),
  comments: (id: number, page: number, signal?: AbortSignal) =>
    api.get<CommentList>(
      `${base}/strategies/${id}/comments/?page=${page}&page_size=${COMMENTS_PAGE_SIZE}`,
      signal,
    ),
  postComment: (id: number, body: CommentCreateRequest) =>
    api.post<StrategyComment>(`${base}/strategies/${id}/comments/`, body),
  like: (commentId: number) => api.post<LikeResponse>(`${base}/comments/${commentId}/like/`),
  unlike: (commentId: number) => api.delete<LikeResponse>(`${base}/comments/${commentId}/like/`),
  follow: (userId: number) => api.post<FollowResponse>(`${base}/users/${userId}/follow/`),
  unfollow: (userId: number) => api.delete<FollowResponse>(`${base}/users/${userId}/follow/`),
  profile: (userId: number, signal?: AbortSignal) =>
    api.get<PublicProfile>(`${base}/users/${userId}/profile/`, signal),
  userStrategies: (userId: number, signal?: AbortSignal) =>
    api.get<UserStrategyList>(`${base}/users/${userId}/strategies/`, signal),
  shareStatus: (accountId: number, signal?: AbortSignal) =>
    api.get<ShareStatusResponse>(`${base}/accounts/${accountId}/check-share-status/`, signal),
  shareSettings: (accountId: number, signal?: AbortSignal) =>
    api.get<ShareSettings>(`${base}/accounts/${accountId}/share-settings/`, signal),
  updateShareSettings: (accountId: number, body: ShareSettingsUpdateRequest) =>
    api.put<ShareSettings>(`${base}/accounts/${accountId}/share-settings/`, body),
};

/** One page of the square. The previous page stays on screen while the next one loads. */
export function useStrategyList(params: SquareListParams) {
  return useQuery({
    queryKey: squareKeys.list(params),
    queryFn: ({ signal }) => squareApi.list(params, signal),
    placeholderData: keepPreviousData,
  });
}

/**
 * A strategy with its equity curve over `period`. Another period of the same strategy keeps the
 * page on screen while its curve loads (another strategy does not).
 */
export function useStrategyDetail(id: number | null, period: SquarePeriod) {
  return useQuery({
    queryKey: squareKeys.detail(id ?? 0, period),
    queryFn: ({ signal }) => squareApi.detail(id ?? 0, period, signal),
    enabled: id !== null,
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[2] === id ? previous : undefined,
  });
}

/** Recent trades, only asked for when the strategy shows them (otherwise the server says 403). */
export function useStrategyTrades(id: number, isShown: boolean) {
  return useQuery({
    queryKey: squareKeys.trades(id),
    queryFn: ({ signal }) => squareApi.trades(id, signal),
    enabled: isShown,
  });
}

/**
 * Mark prices move between fills, and position_update frames come with fills only: the
 * positions are read again this often so their unrealised P&L stays current (a web choice, the
 * spec names no interval).
 */
const POSITIONS_REFRESH_MS = 30_000;

export function useStrategyPositions(id: number, isShown: boolean) {
  return useQuery({
    queryKey: squareKeys.positions(id),
    queryFn: ({ signal }) => squareApi.positions(id, signal),
    enabled: isShown,
    refetchInterval: POSITIONS_REFRESH_MS,
  });
}

/** Comments newest first, a page at a time (each top-level comment with its replies). */
export function useStrategyComments(id: number, isShown: boolean) {
  return useInfiniteQuery({
    queryKey: squareKeys.comments(id),
    queryFn: ({ signal, pageParam }) => squareApi.comments(id, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) =>
      pages.length * COMMENTS_PAGE_SIZE < last.count ? pages.length + 1 : undefined,
    enabled: isShown,
  });
}

type CommentPages = InfiniteData<CommentList, number>;

export function usePostComment(strategyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CommentCreateRequest) => squareApi.postComment(strategyId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: squareKeys.comments(strategyId) }),
  });
}

/** Applies `change` to the comment (or reply) with `commentId` in the cached pages. */
function updateComment(
  pages: CommentPages | undefined,
  commentId: number,
  change: (c: { likes_count: number; is_liked: boolean }) => {
    likes_count: number;
    is_liked: boolean;
  },
): CommentPages | undefined {
  if (!pages) return pages;
  return {
    ...pages,
    pages: pages.pages.map((page) => ({
      ...page,
      results: page.results.map((comment) => ({
        ...(comment.id === commentId ? { ...comment, ...change(comment) } : comment),
        replies: comment.replies.map((reply) =>
          reply.id === commentId ? { ...reply, ...change(reply) } : reply,
        ),
      })),
    })),
  };
}

/**
 * Like or unlike a comment: the count moves at once on the page (document 2 §4) and the
 * server's exact count replaces it; a failure puts the previous state back.
 */
export function useToggleLike(strategyId: number) {
  const queryClient = useQueryClient();
  const key = squareKeys.comments(strategyId);
  return useMutation({
    mutationFn: ({ commentId, like }: { commentId: number; like: boolean }) =>
      like ? squareApi.like(commentId) : squareApi.unlike(commentId),
    onMutate: async ({ commentId, like }) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<CommentPages>(key);
      queryClient.setQueryData<CommentPages>(key, (pages) =>
        updateComment(pages, commentId, (c) =>
          c.is_liked === like
            ? c
            : { is_liked: like, likes_count: Math.max(0, c.likes_count + (like ? 1 : -1)) },
        ),
      );
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (answer, { commentId }) => {
      queryClient.setQueryData<CommentPages>(key, (pages) =>
        updateComment(pages, commentId, () => answer),
      );
    },
  });
}

/**
 * Follow or unfollow a user. The answer's exact count goes into every cached place that shows
 * it: the strategy details of that owner and the owner's profile.
 */
export function useToggleFollow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, follow }: { userId: number; follow: boolean }) =>
      follow ? squareApi.follow(userId) : squareApi.unfollow(userId),
    onSuccess: (answer, { userId }) => {
      queryClient.setQueriesData<StrategyDetail>(
        { queryKey: squareKeys.all, predicate: (query) => query.queryKey[3] === 'detail' },
        (current) =>
          current?.user_id === userId
            ? { ...current, user_profile: { ...current.user_profile, ...answer } }
            : current,
      );
      queryClient.setQueriesData<PublicProfile>(
        { queryKey: squareKeys.profile(userId) },
        (current) => (current ? { ...current, ...answer } : current),
      );
    },
  });
}

export function usePublicProfile(userId: number | null) {
  const isLoggedIn = useIsLoggedIn();
  return useQuery({
    // The answer says whether the viewer follows: it depends on who is looking.
    queryKey: [...squareKeys.profile(userId ?? 0), isLoggedIn],
    queryFn: ({ signal }) => squareApi.profile(userId ?? 0, signal),
    enabled: userId !== null,
  });
}

export function useUserStrategies(userId: number | null) {
  return useQuery({
    queryKey: squareKeys.userStrategies(userId ?? 0),
    queryFn: ({ signal }) => squareApi.userStrategies(userId ?? 0, signal),
    enabled: userId !== null,
  });
}

export function useShareStatus(accountId: number) {
  return useQuery({
    queryKey: squareKeys.shareStatus(accountId),
    queryFn: ({ signal }) => squareApi.shareStatus(accountId, signal),
  });
}

/** The full share settings, read while a sharing dialog is open. */
export function useShareSettings(accountId: number | null) {
  return useQuery({
    queryKey: squareKeys.shareSettings(accountId ?? 0),
    queryFn: ({ signal }) => squareApi.shareSettings(accountId ?? 0, signal),
    enabled: accountId !== null,
    staleTime: 0,
  });
}

/** Saves share settings; the answer updates the status and settings of that account. */
export function useUpdateShareSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ accountId, body }: { accountId: number; body: ShareSettingsUpdateRequest }) =>
      squareApi.updateShareSettings(accountId, body),
    onSuccess: (settings, { accountId }) => {
      queryClient.setQueryData(squareKeys.shareSettings(accountId), settings);
      queryClient.setQueryData<ShareStatusResponse>(squareKeys.shareStatus(accountId), {
        has_share_settings: true,
        is_public: settings.is_public,
        updated_at: settings.updated_at,
      });
      // The square and the strategy page show what was just changed.
      void queryClient.invalidateQueries({ queryKey: squareKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: squareKeys.strategy(accountId) });
    },
  });
}
