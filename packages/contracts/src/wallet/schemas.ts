import { z } from 'zod';
import { profile } from '../auth.js';
import { codeSchema } from '../common.js';
import {
  COIN_AMOUNT_MAX,
  DEPOSIT_NETWORKS,
  type DepositNetwork,
  isAddressFormatValid,
  isTxHashFormatValid,
  OFFCHAIN_REFERENCE_MAX_LENGTH,
  TRANSACTION_DIRECTIONS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  TRANSACTIONS_PAGE_SIZE_DEFAULT,
  TRANSACTIONS_PAGE_SIZE_MAX,
  VIP_FEATURES,
  WALLET_ADDRESS_MAX_LENGTH,
  WALLET_ERROR_CODES,
  WALLET_MESSAGES,
  WITHDRAW_MIN_AMOUNT,
  WITHDRAW_NETWORKS,
  type WithdrawNetwork,
} from './constants.js';

// The wallet's request and answer schemas: amounts, the ledger, deposits, withdrawals, VIP.

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
