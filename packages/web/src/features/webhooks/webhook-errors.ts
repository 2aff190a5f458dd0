import {
  FIELD_ERROR_CODES,
  WEBHOOK_AMOUNT_MAX,
  WEBHOOK_AMOUNT_MIN,
  WEBHOOK_FIELD_ERROR_CODES,
  WEBHOOK_IP_ALLOWLIST_MAX,
  WEBHOOK_LEVERAGE_MAX,
  WEBHOOK_LEVERAGE_MIN,
  WEBHOOK_MAX_SIGNAL_AGE_MAX,
  WEBHOOK_MAX_SIGNAL_AGE_MIN,
  WEBHOOK_NAME_MAX_LENGTH,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from '../../api/client';
import { fieldErrorText } from '../../api/field-errors';

// The configuration form's field errors in the reader's language, from the server's field
// codes: the webhook fields' own rules first, then the codes every form shares.

type RuleKey =
  keyof typeof import('../../i18n/locales/webhooks.zh-CN').webhooksZhCN.webhooks.form.rules;

const amountRange = {
  key: 'amountRange',
  values: { min: WEBHOOK_AMOUNT_MIN, max: WEBHOOK_AMOUNT_MAX },
} as const;
const amountRules = {
  [FIELD_ERROR_CODES.tooSmall]: amountRange,
  [FIELD_ERROR_CODES.tooBig]: amountRange,
  [FIELD_ERROR_CODES.invalidStep]: { key: 'amountStep' },
  [FIELD_ERROR_CODES.invalidFormat]: { key: 'amountStep' },
  // The minimum is a refinement of the amount's format (a custom rule).
  [FIELD_ERROR_CODES.invalid]: amountRange,
  [WEBHOOK_FIELD_ERROR_CODES.maxBelowDefault]: { key: 'maxBelowDefault' },
} as const;
const leverageRange = {
  key: 'leverageRange',
  values: { min: WEBHOOK_LEVERAGE_MIN, max: WEBHOOK_LEVERAGE_MAX },
} as const;
const ageRange = {
  key: 'maxAgeRange',
  values: { min: WEBHOOK_MAX_SIGNAL_AGE_MIN, max: WEBHOOK_MAX_SIGNAL_AGE_MAX },
} as const;

const RULES: Readonly<
  Record<string, Readonly<Record<string, { key: RuleKey; values?: Record<string, number> }>>>
> = {
  name: {
    [FIELD_ERROR_CODES.required]: { key: 'nameRequired' },
    [FIELD_ERROR_CODES.tooShort]: { key: 'nameRequired' },
    [FIELD_ERROR_CODES.tooLong]: { key: 'nameTooLong', values: { max: WEBHOOK_NAME_MAX_LENGTH } },
  },
  exchange_api: {
    [FIELD_ERROR_CODES.required]: { key: 'accountRequired' },
    [WEBHOOK_FIELD_ERROR_CODES.unknownAccount]: { key: 'unknownAccount' },
    [WEBHOOK_FIELD_ERROR_CODES.accountInactive]: { key: 'accountInactive' },
  },
  symbol: {
    [FIELD_ERROR_CODES.tooShort]: { key: 'symbolRequired' },
    [FIELD_ERROR_CODES.invalidFormat]: { key: 'invalidSymbol' },
    [FIELD_ERROR_CODES.tooLong]: { key: 'invalidSymbol' },
    [WEBHOOK_FIELD_ERROR_CODES.unknownSymbol]: { key: 'unknownSymbol' },
  },
  default_amount: amountRules,
  max_amount: amountRules,
  leverage: {
    [FIELD_ERROR_CODES.tooSmall]: leverageRange,
    [FIELD_ERROR_CODES.tooBig]: leverageRange,
    [FIELD_ERROR_CODES.notInteger]: leverageRange,
  },
  allowed_actions: {
    [FIELD_ERROR_CODES.tooFew]: { key: 'actionsRequired' },
    [FIELD_ERROR_CODES.required]: { key: 'actionsRequired' },
  },
  max_signal_age: {
    [FIELD_ERROR_CODES.tooSmall]: ageRange,
    [FIELD_ERROR_CODES.tooBig]: ageRange,
    [FIELD_ERROR_CODES.notInteger]: ageRange,
  },
  ip_allowlist: {
    [WEBHOOK_FIELD_ERROR_CODES.invalidIp]: { key: 'invalidIp' },
    [FIELD_ERROR_CODES.invalidFormat]: { key: 'invalidIp' },
    [FIELD_ERROR_CODES.tooLong]: { key: 'invalidIp' },
    [FIELD_ERROR_CODES.tooMany]: { key: 'tooManyIps', values: { max: WEBHOOK_IP_ALLOWLIST_MAX } },
  },
};

/** First error per form field (`ip_allowlist.2` is the allowlist's), in the reader's language. */
export function webhookFieldErrors(t: TFunction, error: unknown): Record<string, string> {
  if (!(error instanceof ApiRequestError) || !error.body?.fields) return {};
  const codes = error.body.field_codes ?? {};
  const result: Record<string, string> = {};
  for (const [path, messages] of Object.entries(error.body.fields)) {
    const field = path.split('.')[0] ?? path;
    const message = messages[0];
    if (message === undefined || result[field] !== undefined) continue;
    const code = codes[path]?.[0];
    const rule = code === undefined ? undefined : RULES[field]?.[code];
    result[field] = rule
      ? t(`webhooks.form.rules.${rule.key}`, rule.values ?? {})
      : fieldErrorText(t, field, code, message);
  }
  return result;
}
