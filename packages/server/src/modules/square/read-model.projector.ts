import { createKeyedQueue } from '../../common/keyed-queue.js';
import { retryOnConflict } from '../../db/pg-errors.js';
import type { BusEvent, EventBus } from '../../events/index.js';
import type { Outbox } from '../../events/outbox.js';
import type { ReadModelRepository } from './read-model.repository.js';

export interface ProjectorLogger {
  error(details: object, message: string): void;
}

/** The projector's name as a reader of the event outbox. */
const READER = 'square-read-model';
/** Outbox events older than this were delivered live while the projector ran: its cursor moves. */
const CURSOR_LAG_MS = 60_000;
const CURSOR_EVERY_MS = 30_000;

/**
 * Keeps the square's read model from the event bus: every OrderFilled becomes a trade row and
 * moves its owner's position; every PositionChanged sets it. Events of one account are applied
 * one at a time, in the order they were published (a fill before the change it caused).
 *
 * After a restart it first catches up from the event outbox (every fill and position change
 * written since its cursor, in order; a fill already recorded is dropped by its event id), with
 * the events heard live meanwhile held back until then.
 */
export function createReadModelProjector(deps: {
  repo: ReadModelRepository;
  events: EventBus;
  log: ProjectorLogger;
  /** Called after a new fill of the account was recorded (the metrics refresh). */
  onFill: (accountId: number) => void;
  /** The event outbox to catch up from (no catch-up without it). */
  outbox?: Outbox;
}) {
  const queues = createKeyedQueue<number>();
  const unsubscribes: (() => void)[] = [];
  /** Live events heard while catching up: applied after it, in the order heard. */
  let heldBack: BusEvent[] | null = null;
  let caughtUp: Promise<void> = Promise.resolve();
  let cursorTimer: ReturnType<typeof setInterval> | undefined;

  function apply(event: BusEvent): void {
    if (event.type === 'OrderFilled') {
      const payload = (event as BusEvent<'OrderFilled'>).payload;
      enqueue(payload.accountId, async () => {
        // A transaction another one rolled back is applied again, not dropped.
        const trade = await retryOnConflict(() => deps.repo.recordFill(event.id, payload));
        if (trade) deps.onFill(payload.accountId);
      });
    } else if (event.type === 'PositionChanged') {
      const payload = (event as BusEvent<'PositionChanged'>).payload;
      enqueue(payload.accountId, async () => {
        await retryOnConflict(() => deps.repo.recordPositionChange(payload));
      });
    }
  }
  const hear = (event: BusEvent) => {
    if (heldBack) heldBack.push(event);
    else apply(event);
  };

  async function catchUp(outbox: Outbox): Promise<void> {
    let cursor = await outbox.cursor(READER);
    for (;;) {
      const batch = await outbox.after(cursor, ['OrderFilled', 'PositionChanged']);
      if (batch.length === 0) break;
      for (const { event } of batch) apply(event);
      await queues.idle();
      cursor = batch.at(-1)?.id ?? cursor;
      await outbox.saveCursor(READER, cursor);
    }
  }

  /** Moves the cursor past what was surely delivered live (published a while ago). */
  async function advanceCursor(outbox: Outbox): Promise<void> {
    const delivered = await outbox.deliveredBefore(new Date(Date.now() - CURSOR_LAG_MS));
    if (delivered > 0) await outbox.saveCursor(READER, delivered);
  }

  function enqueue(accountId: number, work: () => Promise<void>): void {
    void queues
      .run(accountId, work)
      .catch((error: unknown) =>
        deps.log.error({ err: error, accountId }, 'square read model: event not applied'),
      );
  }

  return {
    start(): void {
      if (unsubscribes.length > 0) return;
      const outbox = deps.outbox;
      if (outbox) heldBack = [];
      unsubscribes.push(
        deps.events.subscribe('OrderFilled', hear),
        deps.events.subscribe('PositionChanged', hear),
      );
      if (!outbox) return;
      caughtUp = catchUp(outbox)
        .catch((error: unknown) =>
          deps.log.error({ err: error }, 'square read model: outbox catch-up failed'),
        )
        .finally(() => {
          const held = heldBack ?? [];
          heldBack = null;
          for (const event of held) apply(event);
        });
      cursorTimer = setInterval(() => {
        void advanceCursor(outbox).catch((error: unknown) =>
          deps.log.error({ err: error }, 'square read model: cursor not saved'),
        );
      }, CURSOR_EVERY_MS);
      cursorTimer.unref();
    },
    /** Resolves once the catch-up after `start` is done (tests, start-up order). */
    ready: (): Promise<void> => caughtUp,
    /** Stops listening and waits for the events being applied. */
    async stop(): Promise<void> {
      for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
      if (cursorTimer) clearInterval(cursorTimer);
      cursorTimer = undefined;
      await caughtUp;
      await queues.idle();
    },
  };
}
export type ReadModelProjector = ReturnType<typeof createReadModelProjector>;
