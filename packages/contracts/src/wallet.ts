import { z } from 'zod';
import { profile } from './auth.js';
import { codeSchema } from './common.js';
import { VIP_DURATION_DAYS, VIP_PRICE_COINS } from './limits.js';

// Platform coins (document 2 §2 deposit/withdraw/profile settings, §3 Transaction, §5, §7, §9):
// the wallet's ledger, deposits, withdrawals, VIP and invitations. 1 coin = 1 USDT.
// Money in answers is always a decimal string (8 decimals, like platform_balance); requests
// accept a number or a decimal string with at most 2 decimals.

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

const COIN_AMOUNT_PATTERNS = {
  2: /^\d{1,10}(\.\d{1,2})?$/,
  8: /^\d{1,10}(\.\d{1,8})?$/,
} as const;

/** Any plain decimal, signed: what the amount checks below tell apart. */
const SIGNED_DECIMAL = /^[+-]?\d+(\.\d+)?$/;

/**
 * An amount as a request carries it (JSON number or decimal string), answered as a decimal
 * string; more than `maxDecimals` decimals, signs, exponents and non-numbers are refused with
 * `message`, each with the code of the rule it broke (field_codes): invalid_format (not a
 * number), too_small (zero or below), invalid_step (too many decimals), too_big.
 */
export const coinAmountInput = (
  message: string = WALLET_MESSAGES.invalidAmount,
  maxDecimals: 2 | 8 = 2,
  /** One code for every broken rule instead of the rule's own (a form with one text for all). */
  code?: string,
) =>
  z
    .union([z.number(), z.string()], {
      error: (issue) => (issue.input === undefined ? 'This field is required' : message),
    })
    .transform((value, ctx) => {
      const text = typeof value === 'number' ? String(value) : value.trim();
      if (!COIN_AMOUNT_PATTERNS[maxDecimals].test(text)) {
        const rule = !SIGNED_DECIMAL.test(text)
          ? 'invalid_format'
          : Number(text) <= 0
            ? 'too_small'
            : Number(text) > COIN_AMOUNT_MAX
              ? 'too_big'
              : 'invalid_step';
        ctx.addIssue({ code: 'custom', message, params: { code: code ?? rule } });
        return z.NEVER;
      }
      if (Number(text) > COIN_AMOUNT_MAX) {
        ctx.addIssue({
          code: 'custom',
          message: WALLET_MESSAGES.amountTooLarge,
          params: { code: WALLET_ERROR_CODES.amountTooLarge },
        });
        return z.NEVER;
      }
      return text;
    });

/** An idempotency key chosen by the client: the same key is acted on once. */
export const requestIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { message: WALLET_MESSAGES.requestIdInvalid });

const money = z.string();

/** One ledger row (document 2 §3 Transaction, plus direction, fee, net_amount and note). */
export const walletTransaction = z.object({
  id: z.number().int(),
  type: z.enum(TRANSACTION_TYPES),
  direction: z.enum(TRANSACTION_DIRECTIONS),
  /** What the balance moves by (withdrawals: the whole debit, fee included). */
  amount: money,
  /** The withdrawal fee (1 USDT); "0.00000000" for other types. */
  fee: money,
  /** What arrives: amount − fee for withdrawals, amount otherwise. */
  net_amount: money,
  status: z.enum(TRANSACTION_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  network: z.enum(DEPOSIT_NETWORKS).nullable(),
  tx_hash: z.string().nullable(),
  is_offchain: z.boolean(),
  offchain_reference: z.string().nullable(),
  address: z.string().nullable(),
  /** Why: the adjustment's reason, a rejection or failure reason, the referral's invitee. */
  note: z.string().nullable(),
});
export type WalletTransaction = z.infer<typeof walletTransaction>;

const pageQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1)
    .max(TRANSACTIONS_PAGE_SIZE_MAX)
    .default(TRANSACTIONS_PAGE_SIZE_DEFAULT),
};

/** GET /auth/balance/?page&page_size&type (type filters, e.g. the 5 recent deposits). */
export const coinBalanceQuery = z.strictObject({
  ...pageQuery,
  type: z.enum(TRANSACTION_TYPES).optional(),
});
export type CoinBalanceQuery = z.infer<typeof coinBalanceQuery>;

/** Latest first. */
export const coinBalanceResponse = z.object({
  balance: money,
  transactions: z.array(walletTransaction),
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type CoinBalanceResponse = z.infer<typeof coinBalanceResponse>;

export const depositNetworkInfo = z.object({
  network: z.enum(DEPOSIT_NETWORKS),
  network_name: z.string(),
  address: z.string(),
  /** A PNG data URL of the address. */
  qr_code: z.string(),
  min_amount: money,
  is_offchain: z.boolean(),
});
export type DepositNetworkInfo = z.infer<typeof depositNetworkInfo>;

/** GET /auth/deposit/: the offered networks keyed by network (TRC20, BEP20, OFFCHAIN). */
export const depositInfoResponse = z.partialRecord(z.enum(DEPOSIT_NETWORKS), depositNetworkInfo);
export type DepositInfoResponse = z.infer<typeof depositInfoResponse>;

const isDepositNetwork = (v: unknown): v is DepositNetwork =>
  typeof v === 'string' && (DEPOSIT_NETWORKS as readonly string[]).includes(v);
const isWithdrawNetwork = (v: unknown): v is WithdrawNetwork =>
  typeof v === 'string' && (WITHDRAW_NETWORKS as readonly string[]).includes(v);

/**
 * POST /auth/deposit/. The minimum amount is the network's (configuration), checked by the
 * server; the hash's shape per network is checked here. Answers 201 with the pending row.
 */
export const depositRequest = z
  .strictObject({
    amount: coinAmountInput(),
    network: z.string().optional(),
    tx_hash: z.string().trim().max(WALLET_ADDRESS_MAX_LENGTH).optional(),
    offchain_reference: z.string().trim().max(OFFCHAIN_REFERENCE_MAX_LENGTH).optional(),
  })
  .superRefine((v, ctx) => {
    if (!isDepositNetwork(v.network)) {
      ctx.addIssue({
        code: 'custom',
        path: ['network'],
        message: WALLET_MESSAGES.selectNetwork,
        params: { code: WALLET_ERROR_CODES.selectNetwork },
      });
      return;
    }
    if (v.network === 'OFFCHAIN') {
      if (!v.offchain_reference) {
        ctx.addIssue({
          code: 'custom',
          path: ['offchain_reference'],
          message: WALLET_MESSAGES.offchainReferenceRequired,
          params: { code: WALLET_ERROR_CODES.offchainReferenceRequired },
        });
      }
      if (v.tx_hash) {
        ctx.addIssue({
          code: 'custom',
          path: ['tx_hash'],
          message: WALLET_MESSAGES.txHashNotForOffchain,
          params: { code: WALLET_ERROR_CODES.txHashNotForOffchain },
        });
      }
      return;
    }
    if (!v.tx_hash) {
      ctx.addIssue({
        code: 'custom',
        path: ['tx_hash'],
        message: WALLET_MESSAGES.txHashRequired,
        params: { code: WALLET_ERROR_CODES.txHashRequired },
      });
    } else if (!isTxHashFormatValid(v.network, v.tx_hash)) {
      ctx.addIssue({
        code: 'custom',
        path: ['tx_hash'],
        message: WALLET_MESSAGES.txHashInvalid,
        params: { code: WALLET_ERROR_CODES.txHashInvalid },
      });
    }
    if (v.offchain_reference) {
      ctx.addIssue({
        code: 'custom',
        path: ['offchain_reference'],
        message: WALLET_MESSAGES.offchainReferenceNotForChain,
        params: { code: WALLET_ERROR_CODES.offchainReferenceNotForChain },
      });
    }
  })
  .transform((v) => ({
    amount: v.amount,
    network: v.network as DepositNetwork,
    tx_hash: v.network === 'OFFCHAIN' ? undefined : v.tx_hash,
    offchain_reference: v.network === 'OFFCHAIN' ? v.offchain_reference : undefined,
  }));
export type DepositRequest = z.infer<typeof depositRequest>;
/** What a client sends (before the schema's transforms). */
export type DepositRequestBody = z.input<typeof depositRequest>;

export const depositResponse = z.object({
  message: z.string(),
  transaction: walletTransaction,
});
export type DepositResponse = z.infer<typeof depositResponse>;

/**
 * POST /auth/withdraw/. Amount at least 2 and at most the balance (the server checks the
 * balance), else 'Invalid withdrawal amount'. The whole amount is debited at once; amount − 1
 * arrives. `request_id` makes a retried submit act once.
 */
export const withdrawRequest = z
  .strictObject({
    amount: coinAmountInput(
      WALLET_MESSAGES.invalidWithdrawalAmount,
      2,
      WALLET_ERROR_CODES.invalidWithdrawalAmount,
    ),
    address: z.string().trim().max(WALLET_ADDRESS_MAX_LENGTH).optional(),
    network: z.string().optional(),
    request_id: requestIdSchema.optional(),
    /** The authenticator code: required when the user has 2FA on (step-up). */
    google_code: codeSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (Number(v.amount) < WITHDRAW_MIN_AMOUNT) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: WALLET_MESSAGES.invalidWithdrawalAmount,
        params: { code: WALLET_ERROR_CODES.invalidWithdrawalAmount },
      });
    }
    if (!isWithdrawNetwork(v.network)) {
      ctx.addIssue({
        code: 'custom',
        path: ['network'],
        message: WALLET_MESSAGES.selectNetwork,
        params: { code: WALLET_ERROR_CODES.selectNetwork },
      });
    }
    if (!v.address) {
      ctx.addIssue({
        code: 'custom',
        path: ['address'],
        message: WALLET_MESSAGES.addressRequired,
        params: { code: WALLET_ERROR_CODES.addressRequired },
      });
    } else if (isWithdrawNetwork(v.network) && !isAddressFormatValid(v.network, v.address)) {
      ctx.addIssue({
        code: 'custom',
        path: ['address'],
        message: WALLET_MESSAGES.addressInvalid,
        params: { code: WALLET_ERROR_CODES.addressInvalid },
      });
    }
  })
  .transform((v) => ({
    amount: v.amount,
    address: v.address ?? '',
    network: v.network as WithdrawNetwork,
    request_id: v.request_id,
    google_code: v.google_code,
  }));
export type WithdrawRequest = z.infer<typeof withdrawRequest>;
export type WithdrawRequestBody = z.input<typeof withdrawRequest>;

export const withdrawResponse = z.object({
  message: z.string(),
  transaction: walletTransaction,
});
export type WithdrawResponse = z.infer<typeof withdrawResponse>;

/**
 * POST /auth/purchase-vip/ (body optional). `request_id`: a retried purchase with the same id
 * is charged once. `expected_price`: the price the user confirmed; when the price has changed
 * meanwhile (the balance crossed 100) the server answers 409 `price_changed` instead of charging.
 */
export const purchaseVipRequest = z
  .strictObject({
    request_id: requestIdSchema.optional(),
    /** As /auth/vip/ answered it (8 decimals) or as typed. */
    expected_price: coinAmountInput(WALLET_MESSAGES.invalidAmount, 8).optional(),
  })
  // No body at all arrives as null or undefined.
  .nullish();
export type PurchaseVipRequest = z.infer<typeof purchaseVipRequest>;
export type PurchaseVipRequestBody = z.input<typeof purchaseVipRequest>;

/** GET /auth/vip/: the price this user would pay now and their VIP state. */
export const vipInfo = z.object({
  price: money,
  original_price: money,
  promotional_price: money,
  is_promotional: z.boolean(),
  duration_days: z.number().int(),
  features: z.array(z.enum(VIP_FEATURES)),
  is_vip_active: z.boolean(),
  vip_expires_at: z.string().nullable(),
});
export type VipInfo = z.infer<typeof vipInfo>;

/** POST /auth/purchase-vip/ answers the new profile, the price charged and the success text. */
export const purchaseVipResponse = profile.extend({
  price_paid: money,
  message: z.string(),
});
export type PurchaseVipResponse = z.infer<typeof purchaseVipResponse>;

/** GET /auth/invitation-stats/. Rewards are decimal strings. */
export const invitationStats = z.object({
  total_referrals: z.number().int(),
  /** Referral bonuses credited. */
  total_rewards: money,
  /** Referrals whose VIP is active now. */
  vip_count: z.number().int(),
  /** Bonuses not yet credited (bonuses are credited with the purchase, so "0.00000000"). */
  pending_bonus: money,
});
export type InvitationStats = z.infer<typeof invitationStats>;

/** GET /auth/referrals/?page&page_size. */
export const referralsQuery = z.strictObject(pageQuery);
export type ReferralsQuery = z.infer<typeof referralsQuery>;

export const referral = z.object({
  id: z.number().int(),
  /** Masked: first 2 characters + *** + @domain; null for phone-registered invitees. */
  email: z.string().nullable(),
  /** Masked (middle four digits); null for e-mail-registered invitees. */
  phone: z.string().nullable(),
  created_at: z.string(),
  is_vip: z.boolean(),
});
export type Referral = z.infer<typeof referral>;

export const referralsResponse = z.object({
  results: z.array(referral),
  count: z.number().int(),
});
export type ReferralsResponse = z.infer<typeof referralsResponse>;

export const generateInvitationResponse = z.object({
  invitation_code: z.string(),
  message: z.string(),
});
export type GenerateInvitationResponse = z.infer<typeof generateInvitationResponse>;

/** Masks an e-mail as the referral list shows it: first 2 characters + *** + @domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return `${email.slice(0, 2)}***`;
  return `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
}

/**
 * Masks the middle four digits of a phone number (document 2 §2): the four before the last four,
 * so 13812345678 reads 138****5678 and +8613812345678 reads +86138****5678.
 */
export function maskPhone(phone: string): string {
  if (phone.length < 9) return `${phone.slice(0, 2)}****`;
  return `${phone.slice(0, phone.length - 8)}****${phone.slice(phone.length - 4)}`;
}
