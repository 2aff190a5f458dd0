import type { Clock } from '../common/clock.js';
import type { EventBus, EventBusLogger } from './event-bus.types.js';
import { createInProcessEventBus } from './in-process-event-bus.js';
import { createRedisEventBus } from './redis-event-bus.js';

export * from './event-bus.types.js';
export { createInProcessEventBus } from './in-process-event-bus.js';
export {
  createRedisEventBus,
  DEFAULT_EVENT_PREFIX,
  type RedisEventBus,
} from './redis-event-bus.js';

/** The platform's bus: on Redis when REDIS_URL is set (across processes), else in-process. */
export async function createEventBus(deps: {
  redisUrl: string | undefined;
  /** The deployment's channel prefix (DEFAULT_EVENT_PREFIX by default). */
  redisPrefix?: string | undefined;
  clock: Clock;
  log?: EventBusLogger;
}): Promise<EventBus> {
  const log = deps.log ? { log: deps.log } : {};
  const prefix = deps.redisPrefix ? { prefix: deps.redisPrefix } : {};
  return deps.redisUrl
    ? createRedisEventBus({ url: deps.redisUrl, clock: deps.clock, ...prefix, ...log })
    : createInProcessEventBus({ clock: deps.clock, ...log });
}
