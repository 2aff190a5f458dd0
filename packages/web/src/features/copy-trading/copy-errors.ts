import {
  COPY_AMOUNT_MAX,
  COPY_AMOUNT_MIN,
  COPY_ERROR_CODES,
  type COPY_MESSAGES,
  COPY_MIN_BALANCE_COINS,
  FIELD_ERROR_CODES,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from '../../api/client';
import { errorMessage } from '../../api/errors';
import { fieldErrorText } from '../../api/field-errors';
import type { CopyAmountProblem } from './copy-format';

// Copy-trading failures in the reader's language (document 2 §8), from the answer's machine
// codes (`code`, `field_codes`); for a code the page does not know, the server's own text (said
// in the reader's language, Accept-Language), and the spec's fallback only without one.

type CopyMessage = keyof typeof COPY_MESSAGES;

const CODE_MESSAGES = new Map<string, CopyMessage>([
  [COPY_ERROR_CODES.insufficientBalance, 'insufficientBalance'],
  [COPY_ERROR_CODES.alreadyCopying, 'alreadyCopying'],
  [COPY_ERROR_CODES.transitionRefused, 'transitionRefused'],
  [COPY_ERROR_CODES.positionsOpen, 'positionsOpen'],
  [COPY_ERROR_CODES.leaderNotFound, 'leaderNotFound'],
]);

/** Field codes whose copy-specific text says more than the generic one. */
const FIELD_CODE_MESSAGES: Readonly<Record<string, Readonly<Record<string, CopyMessage>>>> = {
  copy_amount: {
    [FIELD_ERROR_CODES.tooSmall]: 'amountTooSmall',
    [FIELD_ERROR_CODES.tooBig]: 'amountTooLarge',
    [FIELD_ERROR_CODES.invalidStep]: 'invalidAmount',
    [FIELD_ERROR_CODES.invalidFormat]: 'invalidAmount',
  },
  max_loss: {
    [FIELD_ERROR_CODES.tooSmall]: 'maxLossNegative',
    [FIELD_ERROR_CODES.tooBig]: 'amountTooLarge',
    [FIELD_ERROR_CODES.invalidStep]: 'invalidAmount',
    [FIELD_ERROR_CODES.invalidFormat]: 'invalidAmount',
  },
  follower_account_id: {
    [FIELD_ERROR_CODES.required]: 'followerAccountRequired',
    [FIELD_ERROR_CODES.unknownAccount]: 'followerAccountNotFound',
    [FIELD_ERROR_CODES.accountInactive]: 'followerAccountInactive',
    [FIELD_ERROR_CODES.accountCheckFailed]: 'followerAccountCheckFailed',
    [COPY_ERROR_CODES.followerIsLeader]: 'followerIsLeader',
  },
  leader_account_id: {
    [FIELD_ERROR_CODES.unknownStrategy]: 'leaderNotFound',
    [COPY_ERROR_CODES.ownStrategy]: 'ownStrategy',
    [COPY_ERROR_CODES.notAcceptingCopies]: 'notAcceptingCopies',
  },
};

function copyMessage(t: TFunction, key: CopyMessage): string {
  return t(`copy.server.${key}`, {
    min: key === 'insufficientBalance' ? COPY_MIN_BALANCE_COINS : COPY_AMOUNT_MIN,
    max: COPY_AMOUNT_MAX,
  });
}

/** One field error: its copy-specific code, or the shared field-code text. */
function copyFieldText(t: TFunction, field: string, code: string | undefined, message: string) {
  const byCode = code === undefined ? undefined : FIELD_CODE_MESSAGES[field]?.[code];
  if (byCode) return copyMessage(t, byCode);
  return fieldErrorText(t, field, code, message);
}

function fieldLabel(t: TFunction, field: string): string {
  const key = `copy.fields.${field}`;
  return i18nHas(t, key) ? (t(key as never) as string) : field;
}

function i18nHas(t: TFunction, key: string): boolean {
  const text = t(key as never, { defaultValue: '' }) as string;
  return text !== '' && text !== key;
}

/**
 * The text of a failed copy call without field errors: the network text, a known code, the
 * shared rules (rate limit, timeout, shared codes, else the server's text), else `fallback`.
 */
export function copyErrorText(t: TFunction, error: unknown, fallback: string): string {
  if (!(error instanceof ApiRequestError)) return fallback;
  if (error.kind === 'network') return t('copy.modal.networkError');
  const byCode = error.body ? CODE_MESSAGES.get(error.body.code) : undefined;
  if (byCode) return copyMessage(t, byCode);
  return errorMessage(t, error, fallback);
}

/**
 * The copy modal's failure (document 2 §8): the field errors as 'field: messages' joined with
 * '; ', else the answer's error, else `copy.modal.createFailed`; no answer at all: `errors.network`.
 */
export function copyCreateErrorText(t: TFunction, error: unknown): string {
  const fallback = t('copy.modal.createFailed');
  if (error instanceof ApiRequestError && error.body?.fields) {
    const codes = error.body.field_codes ?? {};
    const parts = Object.entries(error.body.fields)
      .filter(([, messages]) => messages.length > 0)
      .map(([field, messages]) => {
        const texts = messages.map((message, index) =>
          copyFieldText(t, field, codes[field]?.[index], message),
        );
        return `${fieldLabel(t, field)}: ${[...new Set(texts)].join(', ')}`;
      });
    if (parts.length > 0) return parts.join('; ');
  }
  return copyErrorText(t, error, fallback);
}

/** The copy amount's broken rule in the reader's language (the form keeps the value as typed). */
export function copyAmountRuleText(t: TFunction, problem: CopyAmountProblem): string {
  return copyMessage(
    t,
    problem === 'tooSmall'
      ? 'amountTooSmall'
      : problem === 'tooBig'
        ? 'amountTooLarge'
        : 'invalidAmount',
  );
}
