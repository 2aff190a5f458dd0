import type { BearerAuthentication } from '../../common/bearer-auth.js';
import type { Clock } from '../../common/clock.js';
import type { Leases } from '../../common/leases.js';
import type { Database } from '../../db/database.js';
import type { Mailer } from '../../delivery/delivery.adapters.js';
import { createTelegramBot, type TelegramSettings } from '../../delivery/telegram-bot.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox } from '../../events/outbox.js';
import type { TokensService } from '../auth/tokens.service.js';
import { createNotificationSender } from './notification-sender.js';
import { createNotificationsConsumer } from './notifications.consumer.js';
import { createNotificationsRepository } from './notifications.repository.js';
import { notificationsRoutes } from './notifications.routes.js';
import { createNotificationsService, type NotificationsLogger } from './notifications.service.js';
import { notificationsSocketRoutes } from './notifications.socket.js';
import { createTelegramPoller } from './telegram-poller.js';

// Notifications: in-app (list, read marks, unread count over a websocket), e-mail through the
// mailer, Telegram through the Bot API when TELEGRAM_BOT_TOKEN is set. Built from the outbox's
// events by the consumer; sent after the commit by the sender; the poller links chats.

export function createNotificationsModule(deps: {
  db: Database;
  clock: Clock;
  events: EventBus;
  outbox: Outbox;
  mailer: Mailer;
  telegram: TelegramSettings | undefined;
  leases: Leases | undefined;
  log: NotificationsLogger;
  /** Seconds a Telegram getUpdates waits (tests shorten it). */
  telegramPollTimeoutSeconds?: number;
}) {
  const repo = createNotificationsRepository(deps.db);
  const bot = deps.telegram ? createTelegramBot(deps.telegram) : undefined;
  let username: Promise<string> | undefined;
  const botUsername = () => {
    if (!bot) throw new Error('no Telegram bot');
    // getMe once per process (a failure is asked again next time).
    username ??= bot.getMe().then(
      (me) => me.username ?? String(me.id),
      (error: unknown) => {
        username = undefined;
        throw error;
      },
    );
    return username;
  };
  const sender = createNotificationSender({
    repo,
    clock: deps.clock,
    mailer: deps.mailer,
    telegram: bot,
    log: deps.log,
  });
  const service = createNotificationsService({
    repo,
    clock: deps.clock,
    events: deps.events,
    log: deps.log,
    telegram: bot ? { botUsername } : undefined,
    onDeliveries: () => sender.kick(),
  });
  const consumer = createNotificationsConsumer({
    service,
    events: deps.events,
    outbox: deps.outbox,
    log: deps.log,
  });
  const poller = bot
    ? createTelegramPoller({
        bot,
        service,
        repo,
        clock: deps.clock,
        leases: deps.leases,
        log: deps.log,
        ...(deps.telegramPollTimeoutSeconds === undefined
          ? {}
          : { pollTimeoutSeconds: deps.telegramPollTimeoutSeconds }),
      })
    : undefined;

  return {
    service,
    consumer,
    sender,
    routes: (authentication: BearerAuthentication) =>
      notificationsRoutes({ notifications: service, authentication }),
    socketRoutes: (tokens: TokensService) =>
      notificationsSocketRoutes({
        events: deps.events,
        tokens,
        unreadCount: (userId) => service.unreadCount(userId),
      }),
    /** The consumer, the sender and (with a bot) the poller. */
    start(): void {
      consumer.start();
      sender.start();
      poller?.start();
    },
    async stop(): Promise<void> {
      await poller?.stop();
      await consumer.stop();
      await sender.stop();
    },
  };
}
export type NotificationsModule = ReturnType<typeof createNotificationsModule>;
