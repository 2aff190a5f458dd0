import {
  WALLET_ERROR_CODES as C,
  ERROR_CODES,
  FIELD_ERROR_CODES,
  MAX_PENDING_DEPOSITS,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { fieldErrorText } from '../../api/field-errors';
import type { walletZhCN } from '../../i18n/locales/wallet.zh-CN';

type WalletErrorKey = keyof typeof walletZhCN.wallet.errors;

// The wallet's, staff queue's and profile's error codes (answer codes and field codes, contracts'
// WALLET_ERROR_CODES) mapped to this area's texts, so a Chinese reader sees them in Chinese.
const CODE_KEYS: Readonly<Record<string, WalletErrorKey>> = {
  [C.selectNetwork]: 'selectNetwork',
  [C.networkUnavailable]: 'networkUnavailable',
  [C.belowMinimumDeposit]: 'amountBelowMinimum',
  [C.amountTooLarge]: 'amountTooLarge',
  [C.txHashRequired]: 'txHashRequired',
  [C.txHashInvalid]: 'txHashInvalid',
  [C.txHashUsed]: 'txHashUsed',
  [C.txHashNotForOffchain]: 'txHashNotForOffchain',
  [C.offchainReferenceRequired]: 'offchainReferenceRequired',
  [C.offchainReferenceNotForChain]: 'offchainReferenceNotForChain',
  [C.invalidWithdrawalAmount]: 'invalidWithdrawalAmount',
  [C.addressRequired]: 'addressRequired',
  [C.addressInvalid]: 'addressInvalid',
  [C.insufficientBalance]: 'insufficientBalance',
  [C.priceChanged]: 'vipPriceChanged',
  [C.requestIdReused]: 'requestIdReused',
  [C.tooManyPendingDeposits]: 'tooManyPendingDeposits',
  [C.notPending]: 'notPending',
  [C.ownRequest]: 'ownRequest',
  [C.requestNotFound]: 'requestNotFound',
  [C.fileTooLarge]: 'fileTooLarge',
  [FIELD_ERROR_CODES.unsupportedFormat]: 'unsupportedFormat',
  [C.avatarNotOwn]: 'avatarNotOwn',
};

/** Generic field codes that this area says in its own words, per field. */
const amountRules: Partial<Record<string, WalletErrorKey>> = {
  invalid_format: 'invalidAmount',
  too_small: 'invalidAmount',
  invalid_step: 'invalidAmount',
  too_big: 'amountTooLarge',
};
const FIELD_KEYS: Readonly<Record<string, Partial<Record<string, WalletErrorKey>>>> = {
  amount: amountRules,
  expected_price: amountRules,
  request_id: { invalid_format: 'requestIdInvalid' },
  reason: { required: 'reasonRequired' },
  tx_hash: { required: 'staffTxHashRequired' },
  avatar: { required: 'fileRequired' },
};

const own = (code: string | undefined, field?: string): WalletErrorKey | undefined => {
  if (code === undefined) return undefined;
  if (Object.hasOwn(CODE_KEYS, code)) return CODE_KEYS[code];
  return field === undefined ? undefined : FIELD_KEYS[field]?.[code];
};

const say = (t: TFunction, key: WalletErrorKey) =>
  t(`wallet.errors.${key}`, { max: MAX_PENDING_DEPOSITS });

/** One field error: the area's text for its code, else the shared field text. */
function fieldText(t: TFunction, field: string, code: string | undefined, message: string) {
  const key = own(code, field);
  return key ? say(t, key) : fieldErrorText(t, field, code, message);
}

/** The message for a failed wallet call: ours, the shared translation, or the fallback. */
export function walletErrorMessage(t: TFunction, error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError && error.body) {
    const { body } = error;
    const key = own(body.code);
    if (key) return say(t, key);
    if (error.status === 403 && body.code === ERROR_CODES.forbidden) {
      return t('wallet.errors.staffOnly');
    }
    // A validation answer names the field; its first message says more than "invalid request".
    const [field, messages] = Object.entries(body.fields ?? {})[0] ?? [];
    if (field !== undefined && messages?.[0] !== undefined) {
      return fieldText(t, field, body.field_codes?.[field]?.[0], messages[0]);
    }
  }
  return errorMessage(t, error, fallback);
}

/** First message per field, in the reader's language. */
export function walletFieldErrors(t: TFunction, error: unknown): Record<string, string> {
  if (!(error instanceof ApiRequestError) || !error.body?.fields) return {};
  const codes = error.body.field_codes ?? {};
  const result: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.body.fields)) {
    const first = messages[0];
    if (first) result[field] = fieldText(t, field, codes[field]?.[0], first);
  }
  return result;
}
