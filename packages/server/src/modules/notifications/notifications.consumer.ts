import { retryOnConflict } from '../../db/pg-errors.js';
import type { BusEvent, EventBus } from '../../events/index.js';
import type { Outbox } from '../../events/outbox.js';
import { NOTIFIED_EVENT_TYPES } from './notification-drafts.js';
import type { NotificationsLogger, NotificationsService } from './notifications.service.js';

/** The consumer's name as a reader of the event outbox. */
const READER = 'notifications';
/** Outbox events older than this were heard live while the consumer ran: its cursor moves. */
const CURSOR_LAG_MS = 60_000;
const CURSOR_EVERY_MS = 30_000;

/**
 * Turns the outbox's events into notifications, each event once: the service records the id of
 * every event it handled (unique), so an event heard twice — from the bus and the relay, in two
 * processes, or again in the catch-up after a restart — writes nothing the second time. After a
 * start it first catches up from the outbox (from its cursor), then follows the bus.
 */
export function createNotificationsConsumer(deps: {
  service: NotificationsService;
  events: EventBus;
  outbox: Outbox;
  log: NotificationsLogger;
}) {
  const unsubscribes: (() => void)[] = [];
  let queue: Promise<void> = Promise.resolve();
  let caughtUp: Promise<void> = Promise.resolve();
  let cursorTimer: ReturnType<typeof setInterval> | undefined;

  /** One event at a time, in the order heard (a failure is logged; the catch-up heals it). */
  function enqueue(event: BusEvent): Promise<void> {
    queue = queue
      .then(() => retryOnConflict(() => deps.service.handle(event)))
      .catch((error: unknown) =>
        deps.log.error({ err: error, eventId: event.id }, 'notification not written'),
      );
    return queue;
  }

  async function catchUp(): Promise<void> {
    let cursor = await deps.outbox.cursor(READER);
    if (cursor === 0) {
      // First start: the notifications begin now, not with the week of events the outbox keeps.
      cursor = await deps.outbox.deliveredBefore(new Date(Date.now() + 86_400_000));
      await deps.outbox.saveCursor(READER, cursor);
    }
    for (;;) {
      const batch = await deps.outbox.after(cursor, NOTIFIED_EVENT_TYPES);
      if (batch.length === 0) break;
      for (const { event } of batch) await enqueue(event);
      cursor = batch.at(-1)?.id ?? cursor;
      await deps.outbox.saveCursor(READER, cursor);
    }
  }

  return {
    start(): void {
      if (unsubscribes.length > 0) return;
      for (const type of NOTIFIED_EVENT_TYPES) {
        unsubscribes.push(deps.events.subscribe(type, (event) => void enqueue(event as BusEvent)));
      }
      caughtUp = catchUp().catch((error: unknown) =>
        deps.log.error({ err: error }, 'notifications: outbox catch-up failed'),
      );
      cursorTimer = setInterval(() => {
        void deps.outbox
          .deliveredBefore(new Date(Date.now() - CURSOR_LAG_MS))
          .then((delivered) =>
            delivered > 0 ? deps.outbox.saveCursor(READER, delivered) : undefined,
          )
          .catch((error: unknown) =>
            deps.log.error({ err: error }, 'notifications: cursor not saved'),
          );
      }, CURSOR_EVERY_MS);
      cursorTimer.unref();
    },
    /** Resolves once the catch-up and the events heard so far are handled (tests, shutdown). */
    async idle(): Promise<void> {
      await caughtUp;
      await queue;
    },
    async stop(): Promise<void> {
      for (const unsubscribe of unsubscribes.splice(0)) unsubscribe();
      if (cursorTimer) clearInterval(cursorTimer);
      cursorTimer = undefined;
      await caughtUp;
      await queue;
    },
  };
}
export type NotificationsConsumer = ReturnType<typeof createNotificationsConsumer>;
