// TradingView webhook trading (issue 13; document 2 §2 screens /webhook-trading, /logs,
// /signals; §7 calls). A configuration turns alerts posted to its secret URL into orders on one
// of the user's own exchange accounts, through the execution core (owner = the configuration).
// Money in answers is a decimal string (USDT); latencies are integer milliseconds; times ISO.
// The contract lives in webhooks/: constants and texts, configurations, the alert and dry run,
// the trail.
export * from './webhooks/alerts.js';
export * from './webhooks/configs.js';
export * from './webhooks/constants.js';
export * from './webhooks/trail.js';
