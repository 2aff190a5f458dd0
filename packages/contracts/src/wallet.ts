// Platform coins (document 2 §2 deposit/withdraw/profile settings, §3 Transaction, §5, §7, §9):
// the wallet's ledger, deposits, withdrawals, VIP and invitations. 1 coin = 1 USDT.
// Money in answers is always a decimal string (8 decimals, like platform_balance); requests
// accept a number or a decimal string with at most 2 decimals.
// The contract lives in wallet/: constants (amounts, texts, codes, format rules) and schemas.
export * from './wallet/constants.js';
export * from './wallet/schemas.js';
