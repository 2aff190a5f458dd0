export * from './accounts.js';
export * from './auth.js';
export * from './bots.js';
export * from './common.js';
export * from './errors.js';
export * from './limits.js';
export * from './system.js';
export * from './trading.js';
