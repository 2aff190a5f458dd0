import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in for the Telegram Bot API (https://core.telegram.org/bots/api) on a local port:
// getMe, sendMessage and getUpdates (long polling: held until an update comes or the timeout
// runs out; updates below `offset` are confirmed and dropped), answering `{ok, result}` or
// `{ok: false, error_code, description, parameters?}` as Telegram does.

export interface SentMessage {
  readonly chatId: string;
  readonly text: string;
}

export class TelegramStandIn {
  readonly sent: SentMessage[] = [];
  readonly username: string;
  /** Answers the next sendMessage calls with 429 and this retry_after. */
  floodNext: { count: number; retryAfter: number } | undefined;
  url = '';
  private server: Server | undefined;
  private updates: Record<string, unknown>[] = [];
  private nextUpdateId = 1000;
  private waiting: (() => void)[] = [];

  constructor(
    readonly token: string,
    username = 'qs_test_bot',
  ) {
    this.username = username;
  }

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A user's message to the bot in a private chat. */
  userSends(chatId: number, text: string, options: { username?: string; language?: string } = {}) {
    this.updates.push({
      update_id: this.nextUpdateId++,
      message: {
        message_id: this.nextUpdateId,
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: 'private', username: options.username ?? `user${chatId}` },
        from: {
          id: chatId,
          is_bot: false,
          first_name: 'Test',
          language_code: options.language ?? 'en',
        },
        text,
      },
    });
    for (const wake of this.waiting.splice(0)) wake();
  }

  /** Updates not yet confirmed by a later offset. */
  get pendingUpdates(): number {
    return this.updates.length;
  }

  messagesTo(chatId: number): string[] {
    return this.sent.filter((m) => m.chatId === String(chatId)).map((m) => m.text);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += chunk;
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    const answer = (status: number, payload: unknown) => {
      if (response.writableEnded) return;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(request.url ?? '');
    if (!match || match[1] !== this.token) {
      answer(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      return;
    }
    switch (match[2]) {
      case 'getMe':
        answer(200, {
          ok: true,
          result: { id: 424242, is_bot: true, first_name: 'QS', username: this.username },
        });
        return;
      case 'sendMessage': {
        if (this.floodNext && this.floodNext.count > 0) {
          this.floodNext.count--;
          answer(429, {
            ok: false,
            error_code: 429,
            description: `Too Many Requests: retry after ${this.floodNext.retryAfter}`,
            parameters: { retry_after: this.floodNext.retryAfter },
          });
          return;
        }
        if (typeof body.text !== 'string' || body.text.length === 0) {
          answer(400, {
            ok: false,
            error_code: 400,
            description: 'Bad Request: message text is empty',
          });
          return;
        }
        const chatId = String(body.chat_id);
        this.sent.push({ chatId, text: body.text });
        answer(200, {
          ok: true,
          result: {
            message_id: this.sent.length,
            chat: { id: Number(chatId), type: 'private' },
            text: body.text,
          },
        });
        return;
      }
      case 'getUpdates': {
        const offset = Number(body.offset ?? 0);
        this.updates = this.updates.filter((u) => Number(u.update_id) >= offset);
        if (this.updates.length === 0) {
          const timeoutMs = Number(body.timeout ?? 0) * 1000;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            this.waiting.push(() => {
              clearTimeout(timer);
              resolve();
            });
            response.on('close', () => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        answer(200, { ok: true, result: this.updates.slice(0, 100) });
        return;
      }
      default:
        answer(404, { ok: false, error_code: 404, description: 'Not Found' });
    }
  }

  async stop(): Promise<void> {
    for (const wake of this.waiting.splice(0)) wake();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
