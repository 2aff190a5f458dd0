import type { EventBus } from '../../events/index.js';
import type { OutboxEvent } from '../../events/outbox.js';
import { type BotEngineRepository, createBotEngineRepository } from './bot-engine.repository.js';
import type { BotEngineDeps, RunningBot } from './bot-engine.types.js';

// A bot's status change as the engine records it: the row and its BotStatusChanged event.

/**
 * Sets a bot's status and tells the bus: with the outbox, the event is written in the status's
 * transaction and published after it (the relay publishes it if this process dies first).
 */
export function createStatusRecorder(deps: {
  readonly db: BotEngineDeps['db'];
  readonly outbox?: BotEngineDeps['outbox'];
  readonly logger?: BotEngineDeps['logger'];
  readonly events: EventBus;
  readonly repo: BotEngineRepository;
}) {
  return async function recordStatus(
    bot: RunningBot,
    status: 'stopped' | 'error',
    message: string,
    at: Date,
    mark: (target: BotEngineRepository) => Promise<void>,
  ): Promise<void> {
    const event: OutboxEvent<'BotStatusChanged'> = {
      type: 'BotStatusChanged',
      id: `bot:${bot.id}:${status}:${at.getTime()}`,
      payload: { botId: bot.id, userId: bot.userId, status, error: message, symbol: bot.symbol },
    };
    const outbox = deps.outbox;
    if (outbox) {
      await deps.db.transaction(async (tx) => {
        await mark(createBotEngineRepository(tx));
        await outbox.write(tx, [event]);
      });
    } else {
      await mark(deps.repo);
    }
    const published = outbox
      ? outbox.publish(deps.events, [event])
      : deps.events.publish(event.type, event.payload, event.id);
    await published.catch((publishError: unknown) =>
      deps.logger?.error({ botId: bot.id, err: publishError }, 'BotStatusChanged not published'),
    );
  };
}
