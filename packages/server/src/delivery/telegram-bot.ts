// The Telegram Bot API (https://core.telegram.org/bots/api) as the notifications need it:
// getMe, sendMessage and getUpdates long polling. The token is part of every request's path,
// so no URL, request or answer is ever put in an error or a log line.

/** TELEGRAM_BOT_TOKEN and TELEGRAM_API_URL (config.ts). */
export interface TelegramSettings {
  /** A secret: only ever in the request path. */
  readonly botToken: string;
  /** https://api.telegram.org, or a stand-in (tests). */
  readonly apiUrl: string;
}

/** A Bot API refusal or an unreachable API; says what the caller should do. */
export class TelegramError extends Error {
  constructor(
    message: string,
    /** Telegram's error_code (HTTP status), 0 when the API could not be reached. */
    readonly errorCode: number,
    /** 429: wait this many seconds before any further request to this chat (or at all). */
    readonly retryAfterSeconds: number | null,
  ) {
    super(message);
    this.name = 'TelegramError';
  }
  /** The chat is gone for us (blocked the bot, deleted, kicked): unlink, do not retry. */
  get isChatGone(): boolean {
    return this.errorCode === 403;
  }
  /** Worth another try later (rate limit, Telegram's or the network's trouble). */
  get isRetryable(): boolean {
    return this.errorCode === 0 || this.errorCode === 429 || this.errorCode >= 500;
  }
}

export interface TelegramUser {
  readonly id: number;
  readonly username?: string;
  readonly first_name?: string;
  readonly language_code?: string;
}

export interface TelegramChat {
  readonly id: number;
  readonly type: string;
  readonly username?: string;
  readonly first_name?: string;
  readonly title?: string;
}

export interface TelegramUpdate {
  readonly update_id: number;
  readonly message?: {
    readonly message_id: number;
    readonly chat: TelegramChat;
    readonly from?: TelegramUser;
    readonly text?: string;
  };
}

export interface TelegramBot {
  getMe(): Promise<TelegramUser>;
  sendMessage(chatId: string, text: string): Promise<void>;
  /** Long polling: waits up to `timeoutSeconds` for updates from `offset` on. */
  getUpdates(
    offset: number,
    timeoutSeconds: number,
    signal?: AbortSignal,
  ): Promise<TelegramUpdate[]>;
}

const REQUEST_TIMEOUT_MS = 10_000;

export function createTelegramBot(settings: TelegramSettings): TelegramBot {
  async function call<T>(
    method: string,
    body: Record<string, unknown>,
    options: { timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<T> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let response: Response;
    try {
      response = await fetch(`${settings.apiUrl}/bot${settings.botToken}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal,
      });
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Error';
      throw new TelegramError(`Telegram ${method} could not be reached (${name})`, 0, null);
    }
    let answer: {
      ok?: boolean;
      result?: T;
      error_code?: number;
      description?: string;
      parameters?: { retry_after?: number };
    };
    try {
      answer = (await response.json()) as typeof answer;
    } catch {
      throw new TelegramError(
        `Telegram ${method} answered ${response.status} without JSON`,
        response.status,
        null,
      );
    }
    if (!answer.ok) {
      const code = answer.error_code ?? response.status;
      const description = (answer.description ?? '').slice(0, 200);
      throw new TelegramError(
        `Telegram ${method} refused (${code})${description ? `: ${description}` : ''}`,
        code,
        answer.parameters?.retry_after ?? null,
      );
    }
    return answer.result as T;
  }

  return {
    getMe: () => call<TelegramUser>('getMe', {}),
    async sendMessage(chatId, text) {
      await call('sendMessage', {
        chat_id: chatId,
        text,
        link_preview_options: { is_disabled: true },
      });
    },
    getUpdates: (offset, timeoutSeconds, signal) =>
      call<TelegramUpdate[]>(
        'getUpdates',
        { offset, timeout: timeoutSeconds, allowed_updates: ['message'] },
        { timeoutMs: timeoutSeconds * 1000 + REQUEST_TIMEOUT_MS, ...(signal ? { signal } : {}) },
      ),
  };
}
