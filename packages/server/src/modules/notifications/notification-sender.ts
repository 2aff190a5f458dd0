import type { Clock } from '../../common/clock.js';
import type { Mailer } from '../../delivery/delivery.adapters.js';
import { type TelegramBot, TelegramError } from '../../delivery/telegram-bot.js';
import { notificationSubject, notificationText } from './notification-texts.js';
import type { DueDelivery, NotificationsRepository } from './notifications.repository.js';
import type { NotificationsLogger } from './notifications.service.js';

// Sends the e-mails and Telegram messages the notifications wrote, after their commit and apart
// from any trading: a failure here is retried or given up, never felt by an order. Rows are
// claimed (FOR UPDATE SKIP LOCKED, with a claim that runs out), so several processes may run a
// sender and each message goes once.

/** Telegram's limits: about 30 messages a second in all, one a second per chat. */
export const TELEGRAM_GLOBAL_INTERVAL_MS = 1000 / 30;
export const TELEGRAM_CHAT_INTERVAL_MS = 1_000;
const BATCH = 50;
/** A claimed row another sender may take again after this (this one died mid-send). */
const CLAIM_MS = 60_000;
const MAX_ATTEMPTS = 6;
const LOOK_EVERY_MS = 2_000;

const backoffMs = (attempts: number) => Math.min(300_000, 2_000 * 2 ** Math.max(0, attempts - 1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type SenderDeps = Parameters<typeof createNotificationSender>[0];

/** An e-mail notification sent in its reader's language; false when there is no address. */
async function sendEmail(
  deps: Pick<SenderDeps, 'repo' | 'mailer'>,
  delivery: DueDelivery,
): Promise<boolean> {
  if (!delivery.email) {
    await deps.repo.markFailed(delivery.id, 'no e-mail address');
    return false;
  }
  const language = delivery.language ?? 'zh-CN';
  await deps.mailer.send({
    to: delivery.email,
    subject: notificationSubject(language),
    text: notificationText(delivery.kind, delivery.params, language),
  });
  return true;
}

/** A failed send: tried again later with backoff while it may succeed, else given up. */
async function recordFailure(
  deps: Pick<SenderDeps, 'repo' | 'clock' | 'log'>,
  delivery: DueDelivery,
  error: unknown,
  message: string,
): Promise<void> {
  const retryable = !(error instanceof TelegramError) || error.isRetryable;
  if (retryable && delivery.attempts < MAX_ATTEMPTS) {
    const at = new Date(deps.clock.now().getTime() + backoffMs(delivery.attempts));
    await deps.repo.retryLater(delivery.id, at, message);
  } else {
    await deps.repo.markFailed(delivery.id, message);
  }
  deps.log.warn(
    { deliveryId: delivery.id, channel: delivery.channel, err: message },
    'notification not delivered',
  );
}

export function createNotificationSender(deps: {
  repo: NotificationsRepository;
  clock: Clock;
  mailer: Mailer;
  telegram: TelegramBot | undefined;
  log: NotificationsLogger;
  /** Monotonic milliseconds for the rate limits (the process's by default). */
  nowMs?: () => number;
}) {
  const nowMs = deps.nowMs ?? (() => performance.now());
  const channels = deps.telegram ? (['email', 'telegram'] as const) : (['email'] as const);
  /** When the next Telegram message may go at the earliest (overall, and per chat). */
  let telegramNextMs = 0;
  const chatNextMs = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const later = (ms: number) => new Date(deps.clock.now().getTime() + ms);

  async function sendTelegram(delivery: DueDelivery, bot: TelegramBot): Promise<void> {
    if (!delivery.chatId) {
      await deps.repo.markFailed(delivery.id, 'no linked Telegram chat');
      return;
    }
    const now = nowMs();
    const chatNext = chatNextMs.get(delivery.chatId) ?? 0;
    if (chatNext > now + 5_000) {
      // This chat is held back for a while (a 429): the row waits, the others go.
      await deps.repo.retryLater(delivery.id, later(chatNext - now), null);
      return;
    }
    const waitMs = Math.max(telegramNextMs, chatNext) - now;
    if (waitMs > 0) await sleep(waitMs);
    const sentAt = nowMs();
    telegramNextMs = sentAt + TELEGRAM_GLOBAL_INTERVAL_MS;
    chatNextMs.set(delivery.chatId, sentAt + TELEGRAM_CHAT_INTERVAL_MS);
    if (chatNextMs.size > 10_000) {
      for (const [chat, next] of chatNextMs) if (next < sentAt) chatNextMs.delete(chat);
    }
    const text = notificationText(delivery.kind, delivery.params, delivery.language ?? 'zh-CN');
    await bot.sendMessage(delivery.chatId, text);
  }

  async function sendOne(delivery: DueDelivery): Promise<void> {
    try {
      if (delivery.channel === 'telegram') {
        if (!deps.telegram) return;
        await sendTelegram(delivery, deps.telegram);
      } else {
        if (!(await sendEmail(deps, delivery))) return;
      }
      await deps.repo.markSent(delivery.id, deps.clock.now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof TelegramError && error.retryAfterSeconds !== null) {
        // Telegram's flood control: nothing more until retry_after, for any chat.
        const pauseMs = error.retryAfterSeconds * 1000;
        telegramNextMs = nowMs() + pauseMs;
        if (delivery.chatId) chatNextMs.set(delivery.chatId, nowMs() + pauseMs);
        await deps.repo.retryLater(delivery.id, later(pauseMs), message);
        return;
      }
      await recordFailure(deps, delivery, error, message);
    }
  }

  async function pass(): Promise<void> {
    for (;;) {
      const due = await deps.repo.claimDue(channels, deps.clock.now(), BATCH, CLAIM_MS);
      if (due.length === 0) return;
      // E-mails go side by side; Telegram messages one after the other under its limits.
      await Promise.all([
        Promise.all(due.filter((d) => d.channel === 'email').map(sendOne)),
        (async () => {
          for (const d of due.filter((d) => d.channel === 'telegram')) await sendOne(d);
        })(),
      ]);
    }
  }

  /** Runs a pass now (or once more after the current one). */
  function kick(): void {
    if (running) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => deps.log.error({ err: error }, 'notification sender failed'))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          kick();
        }
      });
  }

  return {
    kick,
    start(): void {
      if (timer) return;
      timer = setInterval(kick, LOOK_EVERY_MS);
      timer.unref();
      kick();
    },
    /** Resolves when no pass is running (tests). */
    async idle(): Promise<void> {
      while (running) await running;
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      while (running) await running;
    },
  };
}
export type NotificationSender = ReturnType<typeof createNotificationSender>;
