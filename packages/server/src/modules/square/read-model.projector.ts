import { retryOnConflict } from '../../db/pg-errors.js';
import type { EventBus } from '../../events/index.js';
import type { ReadModelRepository } from './read-model.repository.js';

export interface ProjectorLogger {
  error(details: object, message: string): void;
}

/**
 * Keeps the square's read model from the event bus: every OrderFilled becomes a trade row and
 * moves its owner's position; every PositionChanged sets it. Events of one account are applied
 * one at a time, in the order they were published (a fill before the change it caused).
 */
export function createReadModelProjector(deps: {
  repo: ReadModelRepository;
  events: EventBus;
  log: ProjectorLogger;
  /** Called after a new fill of the account was recorded (the metrics refresh). */
  onFill: (accountId: number) => void;
}) {
  const queues = new Map<number, Promise<void>>();
  const unsubscribes: (() => void)[] = [];

  function enqueue(accountId: number, work: () => Promise<void>): void {
    const previous = queues.get(accountId) ?? Promise.resolve();
    const next: Promise<void> = previous
      .then(work)
      .catch((error: unknown) =>
        deps.log.error({ err: error, accountId }, 'square read model: event not applied'),
      )
      .finally(() => {
        if (queues.get(accountId) === next) queues.delete(accountId);
      });
    queues.set(accountId, next);
  }

  return {
    start(): void {
      if (unsubscribes.length > 0) return;
      unsubscribes.push(
        deps.events.subscribe('OrderFilled', (event) => {
          enqueue(event.payload.accountId, async () => {
            // A transaction another one rolled back is applied again, not dropped.
            const trade = await retryOnConflict(() =>
              deps.repo.recordFill(event.id, event.payload),
            );
            if (trade) deps.onFill(event.payload.accountId);
          });
        }),
        deps.events.subscribe('PositionChanged', (event) => {
          enqueue(event.payload.accountId, async () => {
            await retryOnConflict(() => deps.repo.recordPositionChange(event.payload));
          });
        }),
      );
    },
    /** Stops listening and waits for the events being applied. */
    async stop(): Promise<void> {
      for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
      await Promise.all(queues.values());
    },
  };
}
export type ReadModelProjector = ReturnType<typeof createReadModelProjector>;
