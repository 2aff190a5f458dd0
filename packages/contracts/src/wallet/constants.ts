import { VIP_DURATION_DAYS, VIP_PRICE_COINS } from '../limits.js';

// The wallet's constants, texts, error codes and format rules (wallet.ts has the map).

/** Every kind of ledger row. The spec's five plus copy trading and support corrections. */
export const TRANSACTION_TYPES = [
  'deposit',
  'withdraw',
  'referral_bonus',
  'vip_purchase',
  'bot_fee',
  'copy_fee',
  'copy_earning',
  'adjustment',
] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

export const TRANSACTION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Whether a row adds to the balance or takes from it; `amount` is always positive. */
export const TRANSACTION_DIRECTIONS = ['credit', 'debit'] as const;
export type TransactionDirection = (typeof TRANSACTION_DIRECTIONS)[number];

export const DEPOSIT_NETWORKS = ['TRC20', 'BEP20', 'OFFCHAIN'] as const;
export type DepositNetwork = (typeof DEPOSIT_NETWORKS)[number];
export const WITHDRAW_NETWORKS = ['TRC20', 'BEP20'] as const;
export type WithdrawNetwork = (typeof WITHDRAW_NETWORKS)[number];
export type ChainNetwork = WithdrawNetwork;

// Constants of document 2 §9.
export const VIP_ORIGINAL_PRICE_COINS = VIP_PRICE_COINS;
/**
 * The limited-time offer: a user's FIRST VIP purchase costs this while their balance is under
 * the price; every later purchase costs the full price.
 */
export const VIP_PROMO_PRICE_COINS = 1;
export const VIP_FEATURES = [
  'unlimited_bot_activation',
  'priority_support',
  'advanced_strategies',
] as const;
export { VIP_DURATION_DAYS, VIP_PRICE_COINS };
/** The inviter's reward: this share of the VIP price the invitee actually paid (50 at 100). */
export const REFERRAL_BONUS_RATE = 0.5;
export const REFERRAL_REWARD_COINS = VIP_PRICE_COINS * REFERRAL_BONUS_RATE;
export const COPY_FEE_COINS = 100;
export const COPY_MIN_BALANCE_COINS = 100;
export const WITHDRAW_MIN_AMOUNT = 2;
export const WITHDRAW_FEE_USDT = 1;
/** Deposit and withdrawal amounts move in steps of 0.01. */
export const COIN_AMOUNT_STEP = 0.01;
/** No single request moves more than this (keeps amounts inside numeric(20, 8)). */
export const COIN_AMOUNT_MAX = 1_000_000_000;
export const RECENT_DEPOSITS_SHOWN = 5;
export const RECENT_WITHDRAWALS_SHOWN = 5;
export const RECENT_TRANSACTIONS_SHOWN = 5;
export const DEPOSIT_LIST_REFRESH_MS = 30_000;
export const BALANCE_POLL_INTERVAL_MS = 5_000;
export const BALANCE_POLL_MAX_ATTEMPTS = 24;
export const COPIED_NOTICE_MS = 2_000;
export const OFFCHAIN_REFERENCE_MAX_LENGTH = 128;
export const WALLET_ADDRESS_MAX_LENGTH = 128;
export const REQUEST_ID_MAX_LENGTH = 64;
/** Open (pending) deposit requests one user may have at a time. */
export const MAX_PENDING_DEPOSITS = 10;
export const TRANSACTIONS_PAGE_SIZE_DEFAULT = 20;
export const TRANSACTIONS_PAGE_SIZE_MAX = 100;

/** Server texts of the wallet (document 2 §5 and §8); the web shows them as sent. */
export const WALLET_MESSAGES = {
  selectNetwork: 'Please select a network',
  networkUnavailable: 'This network is not available for deposits',
  invalidAmount: 'Enter an amount in steps of 0.01',
  belowMinimumDeposit: 'The amount is below the minimum deposit of this network',
  amountTooLarge: `The amount may not exceed ${COIN_AMOUNT_MAX}`,
  txHashRequired: 'Transaction hash is required for on-chain deposits',
  txHashInvalid: 'Invalid transaction hash for this network',
  txHashUsed: 'This transaction hash has already been submitted',
  txHashNotForOffchain: 'Off-chain deposits take a reference, not a transaction hash',
  offchainReferenceRequired: 'Reference is required for off-chain deposits',
  offchainReferenceNotForChain: 'On-chain deposits take a transaction hash, not a reference',
  tooManyPendingDeposits: `At most ${MAX_PENDING_DEPOSITS} deposit requests may wait for review at a time`,
  depositSubmitted: 'Deposit request submitted. It will be credited within 1-24 hours.',
  invalidWithdrawalAmount: 'Invalid withdrawal amount',
  addressRequired: 'Address is required',
  addressInvalid: 'Invalid address for this network',
  withdrawalSubmitted: 'Withdrawal request submitted successfully!',
  insufficientBalance: 'Insufficient balance',
  vipActivated: 'VIP membership activated!',
  vipPriceChanged: 'The VIP price has changed; confirm the purchase again',
  requestIdReused: 'This request_id was already used for a different request',
  requestIdInvalid: 'request_id may hold letters, digits, - and _ (at most 64)',
  invitationCodeGenerated: 'Invitation code generated',
} as const;

/**
 * The wallet's, staff queue's and profile's own error codes: answer codes and field codes
 * (`field_codes`) of the rules above, one per rule, so a client says each in its own words.
 */
export const WALLET_ERROR_CODES = {
  insufficientBalance: 'insufficient_balance',
  priceChanged: 'price_changed',
  notPending: 'not_pending',
  requestIdReused: 'request_id_reused',
  selectNetwork: 'select_network',
  networkUnavailable: 'network_unavailable',
  belowMinimumDeposit: 'below_minimum_deposit',
  amountTooLarge: 'amount_too_large',
  txHashRequired: 'tx_hash_required',
  txHashInvalid: 'tx_hash_invalid',
  txHashUsed: 'tx_hash_used',
  txHashNotForOffchain: 'tx_hash_not_for_offchain',
  offchainReferenceRequired: 'offchain_reference_required',
  offchainReferenceNotForChain: 'offchain_reference_not_for_chain',
  tooManyPendingDeposits: 'too_many_pending_deposits',
  invalidWithdrawalAmount: 'invalid_withdrawal_amount',
  addressRequired: 'address_required',
  addressInvalid: 'address_invalid',
  /** Staff: a request that is not in the queue, and one of their own. */
  requestNotFound: 'request_not_found',
  ownRequest: 'own_request',
  /** Profile: an avatar_url not uploaded by the user, and an upload over the size limit. */
  avatarNotOwn: 'avatar_not_own',
  fileTooLarge: 'file_too_large',
} as const;

/**
 * The VIP price a user sees and pays (document 2 §9): the promotional price is a limited-time
 * offer for a first purchase with a balance under the price, never for a later one.
 */
export function vipPriceFor(balance: string | number, hasBoughtVip: boolean): number {
  return !hasBoughtVip && Number(balance) < VIP_PRICE_COINS
    ? VIP_PROMO_PRICE_COINS
    : VIP_PRICE_COINS;
}

const TRC20_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const BEP20_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TRC20_TX_HASH = /^[0-9a-fA-F]{64}$/;
const BEP20_TX_HASH = /^0x[0-9a-fA-F]{64}$/;

/**
 * Whether an address has the network's shape: TRC20 base58 starting with T, 34 characters;
 * BEP20 0x + 40 hex. (The server also verifies the TRC20 checksum.)
 */
export function isAddressFormatValid(network: WithdrawNetwork, address: string): boolean {
  return network === 'TRC20' ? TRC20_ADDRESS.test(address) : BEP20_ADDRESS.test(address);
}

/** Whether a transaction hash has the network's shape: TRC20 64 hex, BEP20 0x + 64 hex. */
export function isTxHashFormatValid(network: ChainNetwork, hash: string): boolean {
  return network === 'TRC20' ? TRC20_TX_HASH.test(hash) : BEP20_TX_HASH.test(hash);
}
