import {
  MAX_PENDING_DEPOSITS,
  PROFILE_MESSAGES,
  STAFF_MESSAGES,
  WALLET_ERROR_CODES,
  WALLET_MESSAGES,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from '../../api/client';
import { errorMessage, translateServerText } from '../../api/errors';
import type { walletZhCN } from '../../i18n/locales/wallet.zh-CN';

type WalletErrorKey = keyof typeof walletZhCN.wallet.errors;

// The wallet, staff and profile texts of the server (contracts) mapped to this area's keys, so a
// Chinese reader sees them in Chinese. Texts not listed go through the shared translation, then
// show as the server wrote them.
const TEXTS: ReadonlyArray<readonly [string, WalletErrorKey]> = [
  [WALLET_MESSAGES.selectNetwork, 'selectNetwork'],
  [WALLET_MESSAGES.networkUnavailable, 'networkUnavailable'],
  [WALLET_MESSAGES.invalidAmount, 'invalidAmount'],
  [WALLET_MESSAGES.belowMinimumDeposit, 'amountBelowMinimum'],
  [WALLET_MESSAGES.amountTooLarge, 'amountTooLarge'],
  [WALLET_MESSAGES.txHashRequired, 'txHashRequired'],
  [WALLET_MESSAGES.txHashInvalid, 'txHashInvalid'],
  [WALLET_MESSAGES.txHashUsed, 'txHashUsed'],
  [WALLET_MESSAGES.txHashNotForOffchain, 'txHashNotForOffchain'],
  [WALLET_MESSAGES.offchainReferenceRequired, 'offchainReferenceRequired'],
  [WALLET_MESSAGES.offchainReferenceNotForChain, 'offchainReferenceNotForChain'],
  [WALLET_MESSAGES.invalidWithdrawalAmount, 'invalidWithdrawalAmount'],
  [WALLET_MESSAGES.addressRequired, 'addressRequired'],
  [WALLET_MESSAGES.addressInvalid, 'addressInvalid'],
  [WALLET_MESSAGES.insufficientBalance, 'insufficientBalance'],
  [WALLET_MESSAGES.vipPriceChanged, 'vipPriceChanged'],
  [WALLET_MESSAGES.requestIdInvalid, 'requestIdInvalid'],
  [WALLET_MESSAGES.requestIdReused, 'requestIdReused'],
  [WALLET_MESSAGES.tooManyPendingDeposits, 'tooManyPendingDeposits'],
  [STAFF_MESSAGES.notPending, 'notPending'],
  [STAFF_MESSAGES.ownRequest, 'ownRequest'],
  [STAFF_MESSAGES.reasonRequired, 'reasonRequired'],
  [STAFF_MESSAGES.txHashRequired, 'staffTxHashRequired'],
  [STAFF_MESSAGES.notFound, 'requestNotFound'],
  [PROFILE_MESSAGES.fileTooLarge, 'fileTooLarge'],
  [PROFILE_MESSAGES.unsupportedFormat, 'unsupportedFormat'],
  [PROFILE_MESSAGES.fileRequired, 'fileRequired'],
  [PROFILE_MESSAGES.avatarNotOwn, 'avatarNotOwn'],
];
const KEYS = new Map<string, WalletErrorKey>(TEXTS);

/** Our translation of a wallet/staff/profile server text, or null when it is not one of them. */
export function walletText(t: TFunction, text: string): string | null {
  const key = KEYS.get(text);
  if (!key) return null;
  return t(`wallet.errors.${key}`, { max: MAX_PENDING_DEPOSITS });
}

/** The message for a failed wallet call: ours, the shared translation, or the fallback. */
export function walletErrorMessage(t: TFunction, error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError && error.body) {
    const { body } = error;
    if (body.code === WALLET_ERROR_CODES.notPending) return t('wallet.errors.notPending');
    if (body.code === WALLET_ERROR_CODES.insufficientBalance) {
      return t('wallet.errors.insufficientBalance');
    }
    const own = walletText(t, body.error);
    if (own) return own;
    if (error.status === 403) return t('wallet.errors.staffOnly');
    // A validation answer names the field; its first message says more than "invalid request".
    const firstField = body.fields ? Object.values(body.fields)[0]?.[0] : undefined;
    if (firstField) return walletText(t, firstField) ?? translateServerText(t, firstField);
  }
  return errorMessage(t, error, fallback);
}

/** First message per field, translated where we know the text. */
export function walletFieldErrors(t: TFunction, error: unknown): Record<string, string> {
  if (!(error instanceof ApiRequestError) || !error.body?.fields) return {};
  const result: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.body.fields)) {
    const first = messages[0];
    if (first) result[field] = walletText(t, first) ?? translateServerText(t, first);
  }
  return result;
}
