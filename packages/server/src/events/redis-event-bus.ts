import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Clock } from '../common/clock.js';
import type {
  BusEvent,
  EventBus,
  EventBusLogger,
  EventHandler,
  EventPayloads,
  EventType,
} from './event-bus.types.js';
import { createInProcessEventBus } from './in-process-event-bus.js';

// Events across processes on Redis pub/sub: one channel per event type (`{prefix}:{type}`), one
// connection publishing and one subscribed. Every process hears every event, its own included,
// and hands it to its local subscribers as the in-process bus does (later tick, failures logged,
// repeats dropped by id). Pub/sub keeps nothing for a process that is down: its subscribers heal
// on their own timers (reconcile), as they must after any restart.

export interface RedisEventBusOptions {
  readonly url: string;
  readonly clock: Clock;
  readonly log?: EventBusLogger;
  /** Channel prefix: one per deployment (and per test). */
  readonly prefix?: string;
}

export const DEFAULT_EVENT_PREFIX = 'qs:events';

export interface RedisEventBus extends EventBus {
  /** Resolves once Redis has confirmed every subscription asked so far. */
  ready(): Promise<void>;
}

export async function createRedisEventBus(options: RedisEventBusOptions): Promise<RedisEventBus> {
  const prefix = options.prefix ?? DEFAULT_EVENT_PREFIX;
  const local = createInProcessEventBus({
    clock: options.clock,
    ...(options.log ? { log: options.log } : {}),
  });
  const connect = async () => {
    const client = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
    client.on('error', (error: Error) =>
      options.log?.error({ err: error }, 'redis event bus connection error'),
    );
    await client.connect();
    return client;
  };
  const publisher = await connect();
  const subscriber = await connect();
  const channels = new Map<string, Promise<unknown>>();
  const channelOf = (type: EventType) => `${prefix}:${type}`;

  subscriber.on('message', (channel: string, message: string) => {
    if (!channel.startsWith(`${prefix}:`)) return;
    try {
      local.deliver(JSON.parse(message) as BusEvent);
    } catch (error) {
      options.log?.error({ err: error, channel }, 'unreadable event dropped');
    }
  });

  return {
    async publish<K extends EventType>(type: K, payload: EventPayloads[K], id?: string) {
      const event: BusEvent<K> = {
        id: id ?? randomUUID(),
        type,
        at: options.clock.now().toISOString(),
        payload,
      };
      await publisher.publish(channelOf(type), JSON.stringify(event));
    },
    subscribe<K extends EventType>(type: K, handler: EventHandler<K>) {
      const channel = channelOf(type);
      if (!channels.has(channel)) {
        channels.set(
          channel,
          subscriber.subscribe(channel).catch((error: unknown) => {
            channels.delete(channel);
            options.log?.error({ err: error, channel }, 'redis subscribe failed');
          }),
        );
      }
      return local.subscribe(type, handler);
    },
    async ready() {
      await Promise.all(channels.values());
    },
    async close() {
      await local.close();
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
