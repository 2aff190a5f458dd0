import {
  COMMENT_MAX_LENGTH,
  SHARE_DESCRIPTION_MAX_LENGTH,
  SQUARE_MESSAGES,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from '../../api/client';
import { errorMessage } from '../../api/errors';

type SquareMessage = keyof typeof SQUARE_MESSAGES;
const KNOWN = new Map<string, SquareMessage>(
  Object.entries(SQUARE_MESSAGES).map(([key, text]) => [text, key as SquareMessage]),
);

/**
 * The text for a failed square call: the square's server texts in the reader's language, else
 * what the shared rules say (network, timeout, rate limit, known texts), else `fallback` — a
 * server text the page does not know is not shown raw.
 */
export function squareErrorText(t: TFunction, error: unknown, fallback: string): string {
  const serverText = error instanceof ApiRequestError ? error.body?.error : undefined;
  const key = serverText === undefined ? undefined : KNOWN.get(serverText);
  if (key) {
    return t(`squareErrors.${key}`, {
      commentMax: COMMENT_MAX_LENGTH,
      descriptionMax: SHARE_DESCRIPTION_MAX_LENGTH,
    });
  }
  const shared = errorMessage(t, error, fallback);
  return shared === serverText ? fallback : shared;
}
