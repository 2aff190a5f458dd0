import { createHash, randomBytes } from 'node:crypto';
import {
  ERROR_CODES,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_DEFAULTS,
  NOTIFICATION_KINDS,
  NOTIFICATION_MESSAGES,
  type Notification,
  type NotificationChannel,
  type NotificationKind,
  type NotificationLanguage,
  type NotificationList,
  type NotificationListQuery,
  type NotificationReadRequest,
  type NotificationSettings,
  type NotificationSettingsRequest,
  TELEGRAM_LINK_CODE_TTL_SECONDS,
  type TelegramLinkResponse,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import { BadRequest } from '../../common/errors.js';
import { DEFAULT_MESSAGE_LANGUAGE, type MessageLanguage } from '../../common/message-language.js';
import type { NotificationRow } from '../../db/schema/index.js';
import type { BusEvent, EventBus } from '../../events/index.js';
import { announcementParams, type EventNotice, noticeOf } from './notification-drafts.js';

/** Users told of an announcement per transaction. */
const ANNOUNCEMENT_PAGE_USERS = 500;

import type {
  NotificationDraft,
  NotificationsRepository,
  SettingsRow,
} from './notifications.repository.js';

// The notifications' rules: who is told what on which channel (each user's switches), their
// list and read marks, the settings and the Telegram link codes. The only writer of the
// notifications tables (through its repository).

export interface NotificationsLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

type Switches = Record<NotificationChannel, Record<NotificationKind, boolean>>;

/** The user's switches: the stored ones over the defaults. */
export function switchesOf(row: Pick<SettingsRow, 'switches'> | undefined): Switches {
  const result = {} as Switches;
  for (const channel of NOTIFICATION_CHANNELS) {
    const stored = row?.switches[channel] ?? {};
    result[channel] = {} as Record<NotificationKind, boolean>;
    for (const kind of NOTIFICATION_KINDS) {
      const value = stored[kind];
      result[channel][kind] =
        typeof value === 'boolean' ? value : NOTIFICATION_DEFAULTS[channel][kind];
    }
  }
  return result;
}

export const hashLinkCode = (code: string) => createHash('sha256').update(code).digest('hex');

const toNotification = (row: NotificationRow): Notification => ({
  id: row.id,
  kind: row.kind as NotificationKind,
  params: row.params,
  is_read: row.isRead,
  created_at: row.createdAt.toISOString(),
});

/** What the notifications service works with. */
export interface NotificationsServiceDeps {
  repo: NotificationsRepository;
  clock: Clock;
  events: EventBus;
  log: NotificationsLogger;
  /** Whether the Telegram channel exists (TELEGRAM_BOT_TOKEN), and the bot's @username. */
  telegram: { botUsername(): Promise<string> } | undefined;
  /** Called after deliveries were written (the sender looks at once). */
  onDeliveries?: () => void;
}

/** Tells every process's sockets the user's new unread count (after the commit). */
async function announceUnread(
  deps: Pick<NotificationsServiceDeps, 'repo' | 'events' | 'log'>,
  userIds: readonly number[],
): Promise<void> {
  for (const userId of new Set(userIds)) {
    const unread = await deps.repo.unreadCount(userId);
    await deps.events
      .publish('NotificationsChanged', { userId, unread })
      .catch((error: unknown) =>
        deps.log.error({ err: error, userId }, 'NotificationsChanged not published'),
      );
  }
}

/** Drafts of `notices` by each user's switches and contacts. */
async function draftsOf(
  deps: Pick<NotificationsServiceDeps, 'repo' | 'telegram'>,
  notices: readonly EventNotice[],
): Promise<NotificationDraft[]> {
  const userIds = notices.map((n) => n.userId);
  const settings = new Map((await deps.repo.settingsOf(userIds)).map((row) => [row.userId, row]));
  const contacts = new Map((await deps.repo.contactsOf(userIds)).map((row) => [row.userId, row]));
  return notices.flatMap((notice) => {
    const contact = contacts.get(notice.userId);
    if (!contact) return [];
    const on = switchesOf(settings.get(notice.userId));
    const send: ('email' | 'telegram')[] = [];
    if (on.email[notice.kind] && contact.email) send.push('email');
    if (on.telegram[notice.kind] && contact.chatId && deps.telegram) send.push('telegram');
    const isShown = on.in_app[notice.kind];
    if (!isShown && send.length === 0) return [];
    return [{ ...notice, isShown, send }];
  });
}

async function settingsAnswer(
  deps: Pick<NotificationsServiceDeps, 'repo' | 'telegram'>,
  userId: number,
): Promise<NotificationSettings> {
  const [row] = await deps.repo.settingsOf([userId]);
  const [contact] = await deps.repo.contactsOf([userId]);
  return {
    channels: switchesOf(row),
    language: row?.language ?? DEFAULT_MESSAGE_LANGUAGE,
    email: contact?.email ?? null,
    telegram: {
      available: deps.telegram !== undefined,
      linked: Boolean(contact?.chatId),
      chat_name: contact?.chatName ?? null,
    },
  };
}

/** Outbox events to notifications, each handled once. */
function eventHandling(deps: NotificationsServiceDeps) {
  const { repo, clock } = deps;

  /**
   * Handles one outbox event once: a repeat (the relay, another process, a restart's catch-up)
   * finds its receipt and writes nothing.
   */
  async function handle(event: BusEvent): Promise<void> {
    if (event.type === 'AnnouncementPublished') {
      await announce(event as BusEvent<'AnnouncementPublished'>);
      return;
    }
    const notice = noticeOf(event);
    const drafts = notice ? await draftsOf(deps, [notice]) : [];
    const result = await repo.record(event.id, clock.now(), drafts);
    if (!result) return;
    if (drafts.some((d) => d.send.length > 0)) deps.onDeliveries?.();
    await announceUnread(deps, result.userIds);
  }

  /** Every user is told of a new announcement, a page of users per transaction. */
  async function announce(event: BusEvent<'AnnouncementPublished'>): Promise<void> {
    if (await repo.isHandled(event.id)) return;
    const at = clock.now();
    const params = announcementParams(event);
    let afterId = 0;
    let hasDeliveries = false;
    for (;;) {
      const userIds = await repo.userIdsAfter(afterId, ANNOUNCEMENT_PAGE_USERS);
      if (userIds.length === 0) break;
      afterId = userIds.at(-1) ?? afterId;
      const drafts = await draftsOf(
        deps,
        userIds.map((userId) => ({ userId, kind: 'announcement' as const, params })),
      );
      const written = await repo.recordPart(event.id, at, drafts);
      hasDeliveries ||= drafts.some((d) => d.send.length > 0);
      await announceUnread(deps, written.userIds);
    }
    await repo.markHandled(event.id, at);
    if (hasDeliveries) deps.onDeliveries?.();
  }

  return { handle };
}

export function createNotificationsService(deps: NotificationsServiceDeps) {
  const { repo, clock } = deps;

  return {
    ...eventHandling(deps),

    async list(userId: number, query: NotificationListQuery): Promise<NotificationList> {
      const { rows, count } = await repo.list(userId, {
        unreadOnly: query.unread === '1',
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      });
      return {
        results: rows.map(toNotification),
        count,
        unread: await repo.unreadCount(userId),
        page: query.page,
        page_size: query.page_size,
      };
    },

    unreadCount: (userId: number) => repo.unreadCount(userId),

    async markRead(userId: number, body: NotificationReadRequest): Promise<{ unread: number }> {
      const changed = await repo.markRead(userId, body.all === true ? null : (body.ids ?? []));
      const unread = await repo.unreadCount(userId);
      if (changed > 0) {
        await deps.events
          .publish('NotificationsChanged', { userId, unread })
          .catch((error: unknown) =>
            deps.log.error({ err: error, userId }, 'NotificationsChanged not published'),
          );
      }
      return { unread };
    },

    settings: (userId: number) => settingsAnswer(deps, userId),

    async updateSettings(
      userId: number,
      body: NotificationSettingsRequest,
      requestLanguage: MessageLanguage,
    ): Promise<NotificationSettings> {
      const [row] = await repo.settingsOf([userId]);
      const switches: Record<string, Record<string, boolean>> = { ...(row?.switches ?? {}) };
      for (const channel of NOTIFICATION_CHANNELS) {
        const given = body.channels?.[channel];
        if (given) switches[channel] = { ...(switches[channel] ?? {}), ...given };
      }
      const language: NotificationLanguage = body.language ?? row?.language ?? requestLanguage;
      await repo.saveSettings({ userId, switches, language }, clock.now());
      return settingsAnswer(deps, userId);
    },

    /** A one-time code and the bot's link (t.me/<bot>?start=<code>). */
    async telegramLink(userId: number): Promise<TelegramLinkResponse> {
      if (!deps.telegram) {
        throw new BadRequest(
          ERROR_CODES.telegramUnavailable,
          NOTIFICATION_MESSAGES.telegramUnavailable,
        );
      }
      const botUsername = await deps.telegram.botUsername();
      // Telegram's start parameter takes A-Z, a-z, 0-9, _ and -, up to 64 characters.
      const code = randomBytes(18).toString('base64url');
      const expiresAt = new Date(clock.now().getTime() + TELEGRAM_LINK_CODE_TTL_SECONDS * 1000);
      await repo.saveLinkCode(hashLinkCode(code), userId, expiresAt);
      return {
        code,
        link: `https://t.me/${botUsername}?start=${code}`,
        bot_username: botUsername,
        expires_at: expiresAt.toISOString(),
      };
    },

    async unlinkTelegram(userId: number): Promise<NotificationSettings> {
      await repo.unlinkUser(userId);
      return settingsAnswer(deps, userId);
    },

    /** `/start <code>` from a chat: the user linked, with their language; null for a bad code. */
    async linkChat(
      code: string,
      chatId: string,
      chatName: string | null,
    ): Promise<{ userId: number; language: NotificationLanguage } | null> {
      const now = clock.now();
      const userId = await repo.useLinkCode(hashLinkCode(code), now);
      if (userId === null) return null;
      await repo.linkChat(userId, chatId, chatName, now);
      const [row] = await repo.settingsOf([userId]);
      return { userId, language: row?.language ?? DEFAULT_MESSAGE_LANGUAGE };
    },

    /** `/stop` from a chat: the language of the user it was linked to, or null. */
    async unlinkChat(chatId: string): Promise<NotificationLanguage | null> {
      const userId = await repo.unlinkChat(chatId);
      if (userId === null) return null;
      const [row] = await repo.settingsOf([userId]);
      return row?.language ?? DEFAULT_MESSAGE_LANGUAGE;
    },
  };
}
export type NotificationsService = ReturnType<typeof createNotificationsService>;
