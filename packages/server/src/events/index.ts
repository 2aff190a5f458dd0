export * from './event-bus.types.js';
export { createInProcessEventBus } from './in-process-event-bus.js';
