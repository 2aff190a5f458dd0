export * from './bot-decision.js';
export {
  createBotEngine,
  DEFAULT_BOT_POLL_INTERVAL_MS,
  DEFAULT_CANDLE_LIMIT,
} from './bot-engine.js';
export type { OperationLogEntry } from './bot-engine.repository.js';
export type { BotClients, BotEngine, BotEngineDeps, BotEngineLogger } from './bot-engine.types.js';
export { type BotOrderAction, botClientOrderId } from './client-order-id.js';
