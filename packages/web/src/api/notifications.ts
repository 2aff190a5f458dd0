import {
  LIVE_RECONNECT_MS,
  NOTIFICATIONS_SOCKET_PATH,
  type NotificationList,
  type NotificationReadRequest,
  type NotificationReadResponse,
  type NotificationSettings,
  type NotificationSettingsRequest,
  type TelegramLinkResponse,
} from '@quantsquare/contracts';
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from './client';
import { getAccessToken, useIsLoggedIn } from './tokens';

// Notifications: the list behind the header's bell, read marks, settings and the Telegram link;
// the unread count comes over /ws/notifications (with a slow poll as a safety net).

/** The bell's count is read again this often even when the socket is quiet. */
export const NOTIFICATIONS_UNREAD_POLL_MS = 60_000;
export const NOTIFICATIONS_DROPDOWN_PAGE_SIZE = 10;

export const notificationKeys = {
  all: ['notifications'] as const,
  lists: () => [...notificationKeys.all, 'list'] as const,
  list: (unreadOnly: boolean, pageSize: number) =>
    [...notificationKeys.lists(), { unreadOnly, pageSize }] as const,
  unread: () => [...notificationKeys.all, 'unread'] as const,
  settings: () => [...notificationKeys.all, 'settings'] as const,
};

export const notificationsApi = {
  list: (query: { unreadOnly: boolean; pageSize: number }, signal?: AbortSignal) =>
    api.get<NotificationList>(
      `/notifications/?page=1&page_size=${query.pageSize}${query.unreadOnly ? '&unread=1' : ''}`,
      signal,
    ),
  markRead: (body: NotificationReadRequest) =>
    api.post<NotificationReadResponse>('/notifications/read/', body),
  settings: (signal?: AbortSignal) =>
    api.get<NotificationSettings>('/notifications/settings/', signal),
  updateSettings: (body: NotificationSettingsRequest) =>
    api.put<NotificationSettings>('/notifications/settings/', body),
  telegramLink: () => api.post<TelegramLinkResponse>('/notifications/telegram/link/'),
  telegramUnlink: () => api.delete<NotificationSettings>('/notifications/telegram/link/'),
};

/** The newest notifications (the bell's list); `pageSize` grows with "load more". */
export function useNotifications(unreadOnly: boolean, pageSize: number, enabled = true) {
  return useQuery({
    queryKey: notificationKeys.list(unreadOnly, pageSize),
    queryFn: ({ signal }) => notificationsApi.list({ unreadOnly, pageSize }, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The signed-in user's unread count (0 for visitors and when it cannot be read). */
export function useUnreadNotifications(): number {
  const isLoggedIn = useIsLoggedIn();
  const query = useQuery({
    queryKey: notificationKeys.unread(),
    queryFn: async ({ signal }) =>
      (await notificationsApi.list({ unreadOnly: true, pageSize: 1 }, signal)).unread,
    enabled: isLoggedIn,
    refetchInterval: NOTIFICATIONS_UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
  });
  return isLoggedIn && !query.isError ? (query.data ?? 0) : 0;
}

function applyUnread(queryClient: QueryClient, unread: number): void {
  queryClient.setQueryData(notificationKeys.unread(), unread);
  void queryClient.invalidateQueries({ queryKey: notificationKeys.lists() });
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: notificationsApi.markRead,
    onSuccess: (answer) => applyUnread(queryClient, answer.unread),
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: notificationKeys.settings(),
    queryFn: ({ signal }) => notificationsApi.settings(signal),
  });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: notificationsApi.updateSettings,
    onSuccess: (answer) => queryClient.setQueryData(notificationKeys.settings(), answer),
  });
}

export function useTelegramLink() {
  return useMutation({ mutationFn: notificationsApi.telegramLink });
}

export function useTelegramUnlink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: notificationsApi.telegramUnlink,
    onSuccess: (answer) => queryClient.setQueryData(notificationKeys.settings(), answer),
  });
}

export function notificationsSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${NOTIFICATIONS_SOCKET_PATH}`;
}

/**
 * Follows the user's unread count over /ws/notifications while signed in: the first frame sends
 * the access token (never the URL); every `unread` frame sets the count and reloads the lists.
 * A closed connection (an expired token included: the slow poll renews it) opens again after 5 s.
 */
export function useNotificationsLive(): void {
  const queryClient = useQueryClient();
  const isLoggedIn = useIsLoggedIn();
  useEffect(() => {
    if (!isLoggedIn || typeof WebSocket === 'undefined') return;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let isStopped = false;
    const connect = () => {
      const token = getAccessToken();
      if (!token) return;
      socket = new WebSocket(notificationsSocketUrl(window.location));
      socket.onopen = () => socket?.send(JSON.stringify({ type: 'auth', token }));
      socket.onmessage = (event) => {
        let frame: unknown;
        try {
          frame = JSON.parse(String(event.data));
        } catch {
          return;
        }
        if (
          typeof frame === 'object' &&
          frame !== null &&
          Reflect.get(frame, 'type') === 'unread' &&
          typeof Reflect.get(frame, 'count') === 'number'
        ) {
          applyUnread(queryClient, Reflect.get(frame, 'count') as number);
        }
      };
      socket.onclose = () => {
        if (!isStopped) retry = setTimeout(connect, LIVE_RECONNECT_MS);
      };
    };
    connect();
    return () => {
      isStopped = true;
      clearTimeout(retry);
      socket?.close();
    };
  }, [queryClient, isLoggedIn]);
}
