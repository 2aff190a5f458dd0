export { createAccountClientCache } from './account-clients.js';
export { type AccountLanes, createAccountLanes } from './account-lanes.js';
export { clientOrderIdOf } from './client-order-id.js';
export * from './execution.types.js';
export {
  createExecutionCore,
  type ExecutionCore,
  type ExecutionCoreDeps,
  type VenueQuotes,
} from './execution-core.js';
export { adoptLegacyBotRows } from './legacy-bot-rows.js';
export { isFinal } from './order-states.js';
export type { MoveStopRequest, ProtectRequest } from './protective-orders.js';
