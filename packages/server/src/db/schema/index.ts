export * from './auth.schema.js';
export * from './bots.schema.js';
export * from './exchange-accounts.schema.js';
export * from './market.schema.js';
export * from './staff.schema.js';
export * from './system.schema.js';
export * from './users.schema.js';
export * from './wallet.schema.js';
