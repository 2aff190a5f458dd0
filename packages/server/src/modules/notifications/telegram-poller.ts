import type { Clock } from '../../common/clock.js';
import type { Leases } from '../../common/leases.js';
import type { TelegramBot, TelegramUpdate } from '../../delivery/telegram-bot.js';
import { TELEGRAM_REPLIES } from './notification-texts.js';
import type { NotificationsRepository } from './notifications.repository.js';
import type { NotificationsLogger, NotificationsService } from './notifications.service.js';

// Reads the bot's messages by getUpdates long polling: `/start <code>` links the chat to the
// user the code was made for, `/stop` unlinks it. Telegram serves one getUpdates at a time per
// bot, so one process polls (under a lease); the offset is kept in the database, so a restart
// neither repeats nor skips an update.

export const TELEGRAM_POLLER_LEASE = 'telegram:poller';
const POLL_TIMEOUT_SECONDS = 10;
const RETRY_MS = 5_000;

const languageOf = (code: string | undefined) => (code?.startsWith('zh') ? 'zh-CN' : 'en');
const chatNameOf = (update: TelegramUpdate): string | null => {
  const chat = update.message?.chat;
  if (!chat) return null;
  if (chat.username) return `@${chat.username}`;
  return chat.title ?? chat.first_name ?? null;
};

export function createTelegramPoller(deps: {
  bot: TelegramBot;
  service: NotificationsService;
  repo: NotificationsRepository;
  clock: Clock;
  leases: Leases | undefined;
  log: NotificationsLogger;
  /** Seconds a getUpdates waits for news (tests shorten it). */
  pollTimeoutSeconds?: number;
}) {
  let stopping = false;
  let loop: Promise<void> | undefined;
  let abort: AbortController | undefined;
  let wake: (() => void) | undefined;
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function reply(chatId: number, text: string): Promise<void> {
    await deps.bot
      .sendMessage(String(chatId), text)
      .catch((error: unknown) =>
        deps.log.warn(
          { err: error instanceof Error ? error.message : error },
          'telegram reply not sent',
        ),
      );
  }

  async function apply(update: TelegramUpdate): Promise<void> {
    const message = update.message;
    const text = message?.text?.trim();
    if (!message || !text) return;
    // Only a private chat with the user: a group's messages are not the user's.
    if (message.chat.type !== 'private') return;
    const chatId = String(message.chat.id);
    const [command = '', argument] = text.split(/\s+/, 2);
    const name = command.split('@')[0]?.toLowerCase();
    const guessed = languageOf(message.from?.language_code);
    if (name === '/start') {
      const linked = argument
        ? await deps.service.linkChat(argument, chatId, chatNameOf(update))
        : null;
      if (linked) await reply(message.chat.id, TELEGRAM_REPLIES[linked.language].linked);
      else await reply(message.chat.id, TELEGRAM_REPLIES[guessed][argument ? 'badCode' : 'help']);
    } else if (name === '/stop') {
      const language = await deps.service.unlinkChat(chatId);
      await reply(message.chat.id, TELEGRAM_REPLIES[language ?? guessed].unlinked);
    }
  }

  async function holdsLease(): Promise<boolean> {
    if (!deps.leases) return true;
    if (deps.leases.isHeld(TELEGRAM_POLLER_LEASE)) {
      await deps.leases.renew();
    } else {
      await deps.leases.acquire([TELEGRAM_POLLER_LEASE]);
    }
    return deps.leases.isHeld(TELEGRAM_POLLER_LEASE);
  }

  async function run(): Promise<void> {
    while (!stopping) {
      try {
        if (!(await holdsLease())) {
          await pause(RETRY_MS);
          continue;
        }
        abort = new AbortController();
        const offset = await deps.repo.pollOffset();
        const updates = await deps.bot.getUpdates(
          offset,
          deps.pollTimeoutSeconds ?? POLL_TIMEOUT_SECONDS,
          abort.signal,
        );
        for (const update of updates) {
          await apply(update);
          await deps.repo.savePollOffset(update.update_id + 1, deps.clock.now());
        }
      } catch (error) {
        if (stopping) break;
        deps.log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'telegram getUpdates failed',
        );
        await pause(RETRY_MS);
      }
    }
  }

  return {
    start(): void {
      if (loop) return;
      stopping = false;
      loop = run();
    },
    async stop(): Promise<void> {
      stopping = true;
      abort?.abort();
      wake?.();
      await loop;
      loop = undefined;
      if (deps.leases?.isHeld(TELEGRAM_POLLER_LEASE)) {
        await deps.leases.release([TELEGRAM_POLLER_LEASE]).catch(() => undefined);
      }
    },
  };
}
