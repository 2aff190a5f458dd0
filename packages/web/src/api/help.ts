import {
  ANNOUNCEMENT_PAGE_SIZE,
  ANNOUNCEMENT_UNREAD_POLL_MS,
  ANNOUNCEMENTS_SOCKET_PATH,
  type Announcement,
  type AnnouncementList,
  type AnnouncementPublishedFrame,
  type AnnouncementWriteRequest,
  type HelpContact,
  type HelpImageUpload,
  LIVE_RECONNECT_MS,
  type MarkReadResponse,
  type UnreadCount,
} from '@quantsquare/contracts';
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from './client';
import { useIsLoggedIn } from './tokens';

// Help centre and announcements (document 2 §2 "Help centre", §7 "Help and announcements").

export const helpKeys = {
  all: ['help'] as const,
  announcements: () => [...helpKeys.all, 'announcements'] as const,
  page: (page: number) => [...helpKeys.announcements(), 'page', page] as const,
  detail: (id: number) => [...helpKeys.announcements(), 'detail', id] as const,
  unread: () => [...helpKeys.all, 'unread-count'] as const,
  contact: () => [...helpKeys.all, 'contact'] as const,
};

export const helpApi = {
  list: (page: number, signal?: AbortSignal) =>
    api.get<AnnouncementList>(
      `/help/announcements/?page=${page}&page_size=${ANNOUNCEMENT_PAGE_SIZE}`,
      signal,
    ),
  detail: (id: number, signal?: AbortSignal) =>
    api.get<Announcement>(`/help/announcements/${id}/`, signal),
  create: (body: AnnouncementWriteRequest) => api.post<Announcement>('/help/announcements/', body),
  update: (id: number, body: AnnouncementWriteRequest) =>
    api.put<Announcement>(`/help/announcements/${id}/`, body),
  remove: (id: number) => api.delete<null>(`/help/announcements/${id}/`),
  markRead: (id: number) => api.post<MarkReadResponse>(`/help/announcements/${id}/mark-read/`),
  unreadCount: (signal?: AbortSignal) =>
    api.get<UnreadCount>('/help/announcements/unread-count/', signal),
  uploadImage: (file: File) => {
    const form = new FormData();
    form.append('image', file);
    return api.upload<HelpImageUpload>('/help/upload-image/', form);
  },
  contact: (signal?: AbortSignal) => api.get<HelpContact>('/help/contact/', signal),
};

/** One page of announcements, newest first; the previous page stays shown while the next loads. */
export function useAnnouncements(page: number) {
  return useQuery({
    queryKey: helpKeys.page(page),
    queryFn: ({ signal }) => helpApi.list(page, signal),
    placeholderData: keepPreviousData,
  });
}

/** One announcement, read when its overlay opens (the server counts the view). */
export function useAnnouncement(id: number | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: id === null ? [...helpKeys.announcements(), 'detail'] : helpKeys.detail(id),
    queryFn: async ({ signal }) => {
      if (id === null) throw new Error('no announcement');
      const answer = await helpApi.detail(id, signal);
      // The list behind the overlay shows the view just counted, not the count before it.
      queryClient.setQueriesData<AnnouncementList>(
        { queryKey: [...helpKeys.announcements(), 'page'] },
        (current) =>
          current && {
            ...current,
            results: current.results.map((a) =>
              a.id === answer.id ? { ...a, views: answer.views } : a,
            ),
          },
      );
      return answer;
    },
    enabled: id !== null,
    staleTime: 0,
  });
}

/**
 * The signed-in reader's unread count, polled every 60 s (the live socket makes it sooner).
 * Visitors have none. A failed read counts as 0 (document 2 §8).
 */
export function useUnreadCount(): number {
  const isLoggedIn = useIsLoggedIn();
  const query = useQuery({
    queryKey: helpKeys.unread(),
    queryFn: ({ signal }) => helpApi.unreadCount(signal),
    enabled: isLoggedIn,
    refetchInterval: ANNOUNCEMENT_UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
  });
  return isLoggedIn && !query.isError ? (query.data?.count ?? 0) : 0;
}

/** Clears an announcement's new flag in every cached page and sets the unread count. */
function applyRead(queryClient: QueryClient, answer: MarkReadResponse) {
  queryClient.setQueriesData<AnnouncementList>(
    { queryKey: [...helpKeys.announcements(), 'page'] },
    (current) =>
      current && {
        ...current,
        results: current.results.map((a) => (a.id === answer.id ? { ...a, is_new: false } : a)),
      },
  );
  queryClient.setQueryData<Announcement>(
    helpKeys.detail(answer.id),
    (current) => current && { ...current, is_new: false },
  );
  queryClient.setQueryData<UnreadCount>(helpKeys.unread(), { count: answer.unread_count });
}

export function useMarkAnnouncementRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: helpApi.markRead,
    onSuccess: (answer) => applyRead(queryClient, answer),
  });
}

/** Publishing, editing and deleting change the list (and maybe the unread count). */
function useInvalidateAnnouncements() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: helpKeys.all });
}

export function useCreateAnnouncement() {
  const invalidate = useInvalidateAnnouncements();
  return useMutation({ mutationFn: helpApi.create, onSuccess: invalidate });
}

export function useUpdateAnnouncement() {
  const invalidate = useInvalidateAnnouncements();
  return useMutation({
    mutationFn: (input: { id: number; body: AnnouncementWriteRequest }) =>
      helpApi.update(input.id, input.body),
    onSuccess: invalidate,
  });
}

export function useDeleteAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: helpApi.remove,
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: helpKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: helpKeys.all });
    },
  });
}

export function useUploadHelpImage() {
  return useMutation({ mutationFn: helpApi.uploadImage });
}

/** Support e-mail, Telegram, X and website, as the server is configured. */
export function useHelpContact() {
  return useQuery({
    queryKey: helpKeys.contact(),
    queryFn: ({ signal }) => helpApi.contact(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** The announcements socket on the page's own origin. */
export function announcementsSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${ANNOUNCEMENTS_SOCKET_PATH}`;
}

export function isAnnouncementPublished(value: unknown): value is AnnouncementPublishedFrame {
  if (typeof value !== 'object' || value === null) return false;
  const frame = value as { type?: unknown; data?: { id?: unknown; title?: unknown } };
  return (
    frame.type === 'announcement_published' &&
    typeof frame.data?.id === 'number' &&
    typeof frame.data.title === 'string'
  );
}

/**
 * Listens for new announcements while mounted: each one reloads the list and the unread count
 * and is handed to `onPublished`. A closed connection is opened again after 5 s; meanwhile the
 * unread count's 60 s polling keeps the badge right.
 */
export function useAnnouncementsLive(onPublished?: (frame: AnnouncementPublishedFrame) => void) {
  const queryClient = useQueryClient();
  const callback = useRef(onPublished);
  callback.current = onPublished;

  useEffect(() => {
    if (typeof WebSocket === 'undefined') return;
    let socket: WebSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let isStopped = false;

    let hasOpened = false;
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey: helpKeys.announcements() });
      void queryClient.invalidateQueries({ queryKey: helpKeys.unread() });
    };

    const connect = () => {
      socket = new WebSocket(announcementsSocketUrl(window.location));
      socket.onopen = () => {
        // Whatever was published while the connection was down.
        if (hasOpened) refresh();
        hasOpened = true;
      };
      socket.onmessage = (event) => {
        let frame: unknown;
        try {
          frame = JSON.parse(String(event.data));
        } catch {
          return;
        }
        if (!isAnnouncementPublished(frame)) return;
        refresh();
        callback.current?.(frame);
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
  }, [queryClient]);
}
