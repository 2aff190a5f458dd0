import { randomUUID } from 'node:crypto';
import type { Clock } from '../common/clock.js';
import type {
  BusEvent,
  EventBus,
  EventBusLogger,
  EventHandler,
  EventPayloads,
  EventType,
} from './event-bus.types.js';

/** How many recent event ids a bus remembers to drop a repeat. */
export const RECENT_EVENT_IDS = 10_000;

/**
 * Events within one process. Handlers run on a later tick (a slow or failing handler never
 * delays or breaks the publisher); a handler's error is logged and the others still run. An
 * event whose id was delivered recently is a repeat (a publisher's retry) and is dropped.
 */
export function createInProcessEventBus(deps: {
  clock: Clock;
  log?: EventBusLogger;
}): EventBus & { deliver<K extends EventType>(event: BusEvent<K>): void } {
  const handlers = new Map<EventType, Set<EventHandler<EventType>>>();
  const recentIds = new Set<string>();
  let isClosed = false;

  function isRepeat(id: string): boolean {
    if (recentIds.has(id)) return true;
    recentIds.add(id);
    if (recentIds.size > RECENT_EVENT_IDS) {
      const oldest = recentIds.values().next().value;
      if (oldest !== undefined) recentIds.delete(oldest);
    }
    return false;
  }

  function deliver<K extends EventType>(event: BusEvent<K>): void {
    if (isClosed || isRepeat(event.id)) return;
    const set = handlers.get(event.type);
    if (!set) return;
    for (const handler of [...set]) {
      setImmediate(() => {
        Promise.resolve()
          .then(() => (handler as EventHandler<K>)(event))
          .catch((error: unknown) =>
            deps.log?.error(
              { err: error, event: event.type, id: event.id },
              'event handler failed',
            ),
          );
      });
    }
  }

  return {
    deliver,
    async publish<K extends EventType>(type: K, payload: EventPayloads[K], id?: string) {
      deliver({ id: id ?? randomUUID(), type, at: deps.clock.now().toISOString(), payload });
    },
    subscribe<K extends EventType>(type: K, handler: EventHandler<K>) {
      const set = handlers.get(type) ?? new Set();
      set.add(handler as EventHandler<EventType>);
      handlers.set(type, set);
      return () => {
        set.delete(handler as EventHandler<EventType>);
      };
    },
    async close() {
      isClosed = true;
      handlers.clear();
    },
  };
}
