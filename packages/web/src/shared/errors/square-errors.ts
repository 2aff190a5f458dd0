import {
  COMMENT_MAX_LENGTH,
  FIELD_ERROR_CODES,
  SHARE_DESCRIPTION_MAX_LENGTH,
  SQUARE_ERROR_CODES,
  type SQUARE_MESSAGES,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from '../../api/client';
import { errorMessage } from '../../api/errors';

type SquareMessage = keyof typeof SQUARE_MESSAGES;
const CODE_KEYS = new Map<string, SquareMessage>(
  (Object.entries(SQUARE_ERROR_CODES) as [SquareMessage, string][]).map(([key, code]) => [
    code,
    key,
  ]),
);

/** Field rules of the square's forms said in its own words (the shared codes `required`, …). */
const FIELD_KEYS: Readonly<Record<string, Partial<Record<string, SquareMessage>>>> = {
  content: {
    [FIELD_ERROR_CODES.required]: 'commentEmpty',
    [FIELD_ERROR_CODES.tooLong]: 'commentTooLong',
  },
  description: { [FIELD_ERROR_CODES.tooLong]: 'descriptionTooLong' },
  name: { [FIELD_ERROR_CODES.required]: 'nameRequired' },
};

/**
 * The text for a failed square call: the square's codes in the reader's language, else what the
 * shared rules say (network, timeout, rate limit, known codes, else the server's own text, which
 * it writes in the reader's language), else `fallback`.
 */
export function squareErrorText(t: TFunction, error: unknown, fallback: string): string {
  const body = error instanceof ApiRequestError ? error.body : undefined;
  const [field, codes] = Object.entries(body?.field_codes ?? {})[0] ?? [];
  const key =
    (body ? CODE_KEYS.get(body.code) : undefined) ??
    (field === undefined || codes?.[0] === undefined ? undefined : FIELD_KEYS[field]?.[codes[0]]);
  if (key) {
    return t(`squareErrors.${key}`, {
      commentMax: COMMENT_MAX_LENGTH,
      descriptionMax: SHARE_DESCRIPTION_MAX_LENGTH,
    });
  }
  return errorMessage(t, error, fallback);
}
