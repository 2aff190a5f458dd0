import { z } from 'zod';

// Notifications (in-app, e-mail, Telegram): what the platform tells a user about their trading,
// wallet and the announcements. A notification is stored as its kind and parameters, never as a
// sentence, so every reader sees it in their own language.

/** The kinds of event a user may be told about (one switch per channel and kind). */
export const NOTIFICATION_KINDS = [
  'order_filled',
  'protective_triggered',
  'bot_status',
  'copy_status',
  'webhook_signal',
  'risk_state',
  'wallet_status',
  'announcement',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_CHANNELS = ['in_app', 'email', 'telegram'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_LANGUAGES = ['zh-CN', 'en'] as const;
export type NotificationLanguage = (typeof NOTIFICATION_LANGUAGES)[number];

/** Each channel's switches when the user has set none (e-mail only for what needs action). */
export const NOTIFICATION_DEFAULTS: Readonly<
  Record<NotificationChannel, Readonly<Record<NotificationKind, boolean>>>
> = {
  in_app: {
    order_filled: true,
    protective_triggered: true,
    bot_status: true,
    copy_status: true,
    webhook_signal: true,
    risk_state: true,
    wallet_status: true,
    announcement: true,
  },
  email: {
    order_filled: false,
    protective_triggered: true,
    bot_status: true,
    copy_status: true,
    webhook_signal: false,
    risk_state: true,
    wallet_status: true,
    announcement: false,
  },
  telegram: {
    order_filled: true,
    protective_triggered: true,
    bot_status: true,
    copy_status: true,
    webhook_signal: true,
    risk_state: true,
    wallet_status: true,
    announcement: true,
  },
};

export const NOTIFICATIONS_PAGE_SIZE = 20;
export const NOTIFICATIONS_PAGE_SIZE_MAX = 100;
/** Ids one mark-read call may name. */
export const NOTIFICATIONS_READ_IDS_MAX = 200;
/** A Telegram link code is good for this long. */
export const TELEGRAM_LINK_CODE_TTL_SECONDS = 600;

/** /ws/notifications: the signed-in user's unread count, pushed on every change. */
export const NOTIFICATIONS_SOCKET_PATH = '/ws/notifications';

export const NOTIFICATION_MESSAGES = {
  readNothing: 'Name the notifications to mark read, or all',
  telegramUnavailable: 'Telegram notifications are not available on this server',
} as const;

/** Parameters of a notification: plain values the reader's words are built from. */
export const notificationParams = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.null()]),
);
export type NotificationParams = z.infer<typeof notificationParams>;

export const notification = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  params: notificationParams,
  is_read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof notification>;

/** GET /notifications/?page&page_size&unread=1 (newest first). */
export const notificationListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(NOTIFICATIONS_PAGE_SIZE_MAX)
    .default(NOTIFICATIONS_PAGE_SIZE),
  unread: z.enum(['0', '1']).optional(),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

export const notificationList = z.object({
  results: z.array(notification),
  count: z.number().int(),
  /** Unread notifications in all (whatever the filter). */
  unread: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationList>;

/** POST /notifications/read/: `{ids: [...]}` or `{all: true}`. */
export const notificationReadRequest = z
  .strictObject({
    ids: z.array(z.number().int().min(1).max(2_147_483_647)).max(NOTIFICATIONS_READ_IDS_MAX),
    all: z.literal(true),
  })
  .partial()
  .refine((body) => body.all === true || (body.ids?.length ?? 0) > 0, {
    message: NOTIFICATION_MESSAGES.readNothing,
    path: ['ids'],
  });
export type NotificationReadRequest = z.input<typeof notificationReadRequest>;

export const notificationReadResponse = z.object({ unread: z.number().int() });
export type NotificationReadResponse = z.infer<typeof notificationReadResponse>;

const channelSwitches = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.boolean()])) as Record<
    NotificationKind,
    z.ZodBoolean
  >,
);

export const notificationSettings = z.object({
  channels: z.object({
    in_app: channelSwitches,
    email: channelSwitches,
    telegram: channelSwitches,
  }),
  /** The language of e-mails and Telegram messages. */
  language: z.enum(NOTIFICATION_LANGUAGES),
  /** Where e-mails go (null: the account has no e-mail). */
  email: z.string().nullable(),
  telegram: z.object({
    /** The server has a Telegram bot. */
    available: z.boolean(),
    linked: z.boolean(),
    /** The linked chat's @username or name, when Telegram told us one. */
    chat_name: z.string().nullable(),
  }),
});
export type NotificationSettings = z.infer<typeof notificationSettings>;

/** PUT /notifications/settings/: any channels' switches and the language; the rest is kept. */
export const notificationSettingsRequest = z.strictObject({
  channels: z
    .strictObject({
      in_app: channelSwitches.partial().strict().optional(),
      email: channelSwitches.partial().strict().optional(),
      telegram: channelSwitches.partial().strict().optional(),
    })
    .optional(),
  language: z.enum(NOTIFICATION_LANGUAGES).optional(),
});
export type NotificationSettingsRequest = z.input<typeof notificationSettingsRequest>;

/** POST /notifications/telegram/link/: send `/start <code>` to the bot, or open `link`. */
export const telegramLinkResponse = z.object({
  code: z.string(),
  link: z.string(),
  bot_username: z.string(),
  expires_at: z.string(),
});
export type TelegramLinkResponse = z.infer<typeof telegramLinkResponse>;

/** Frames of /ws/notifications. The client first sends `{"type":"auth","token":<access>}`. */
export interface NotificationsUnreadFrame {
  readonly type: 'unread';
  readonly count: number;
}
