export * from './auth.schema.js';
export * from './bots.schema.js';
export * from './exchange-accounts.schema.js';
export * from './market.schema.js';
export * from './square.schema.js';
export * from './system.schema.js';
export * from './users.schema.js';
