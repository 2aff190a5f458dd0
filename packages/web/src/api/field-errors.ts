import '../i18n/field-errors-texts';
import {
  ACCOUNT_NAME_MAX_LENGTH,
  API_CREDENTIAL_MAX_LENGTH,
  BIO_MAX_LENGTH,
  CODE_LENGTH,
  EMAIL_MAX_LENGTH,
  FIELD_ERROR_CODES,
  type FieldErrorCode,
  INVITATION_CODE_MAX_LENGTH,
  LEVERAGE_MAX,
  LEVERAGE_MIN,
  NICKNAME_MAX_LENGTH,
  PAPER_BALANCE_MAX,
  PAPER_BALANCE_MIN,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  RISK_LIMITS,
  STOP_LOSS_MAX,
  STOP_LOSS_MIN,
  TAKE_PROFIT_MAX,
  TAKE_PROFIT_MIN,
  TRADE_AMOUNT_MAX,
  TRADE_AMOUNT_MIN,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';
import { ApiRequestError } from './client';

// Field errors of an error answer, said in the reader's language from their machine codes
// (`field_codes`, contracts' FIELD_ERROR_CODES): per field in forms, and for the one-line
// message of any validation answer (api/errors.ts).

type FieldCodeKey =
  keyof typeof import('../i18n/locales/field-errors.zh-CN').fieldErrorsZhCN.fieldErrors.codes;
type FieldRuleKey =
  keyof typeof import('../i18n/locales/field-errors.zh-CN').fieldErrorsZhCN.fieldErrors.rules;

const FIELD_CODE_KEYS = new Map<string, FieldCodeKey>(
  (Object.entries(FIELD_ERROR_CODES) as [FieldCodeKey, FieldErrorCode][]).map(([key, code]) => [
    code,
    key,
  ]),
);

/** A field rule's text and the limits it names. */
interface FieldRuleText {
  key: FieldRuleKey;
  values?: Record<string, number>;
}

const range = (key: FieldRuleKey, min: number, max: number): FieldRuleText => ({
  key,
  values: { min, max },
});
const maxLength = (max: number): FieldRuleText => ({ key: 'tooLong', values: { max } });
const code: FieldRuleText = { key: 'codeFormat', values: { length: CODE_LENGTH } };
const password = {
  too_short: { key: 'passwordTooShort', values: { min: PASSWORD_MIN_LENGTH } },
  too_long: { key: 'passwordTooLong', values: { max: PASSWORD_MAX_LENGTH } },
} satisfies Partial<Record<FieldErrorCode, FieldRuleText>>;

/**
 * Field errors whose text names the field's own limit (the limits are the contracts'); every
 * other code has one text for all fields (`errors.fieldCodes`). Field names are the API's, the
 * same on every route.
 */
const FIELD_RULES: Readonly<Record<string, Partial<Record<FieldErrorCode, FieldRuleText>>>> = {
  password,
  password2: password,
  new_password: password,
  code: { invalid_format: code, too_short: code, too_long: code },
  email_code: { invalid_format: code, too_short: code, too_long: code },
  google_code: { invalid_format: code, too_short: code, too_long: code },
  email: { too_long: maxLength(EMAIL_MAX_LENGTH) },
  nickname: { too_long: maxLength(NICKNAME_MAX_LENGTH) },
  bio: { too_long: maxLength(BIO_MAX_LENGTH) },
  invitation_code: { too_long: maxLength(INVITATION_CODE_MAX_LENGTH) },
  name: { too_long: maxLength(ACCOUNT_NAME_MAX_LENGTH) },
  api_key: { too_long: maxLength(API_CREDENTIAL_MAX_LENGTH) },
  api_secret: { too_long: maxLength(API_CREDENTIAL_MAX_LENGTH) },
  api_password: { too_long: maxLength(API_CREDENTIAL_MAX_LENGTH) },
  default_leverage: {
    too_small: range('leverageRange', LEVERAGE_MIN, LEVERAGE_MAX),
    too_big: range('leverageRange', LEVERAGE_MIN, LEVERAGE_MAX),
    not_integer: { key: 'leverageWhole' },
  },
  paper_balance: {
    too_small: range('paperBalanceRange', PAPER_BALANCE_MIN, PAPER_BALANCE_MAX),
    too_big: range('paperBalanceRange', PAPER_BALANCE_MIN, PAPER_BALANCE_MAX),
    invalid_step: { key: 'twoDecimals' },
  },
  trade_amount: {
    too_small: range('tradeAmountRange', TRADE_AMOUNT_MIN, TRADE_AMOUNT_MAX),
    too_big: range('tradeAmountRange', TRADE_AMOUNT_MIN, TRADE_AMOUNT_MAX),
    invalid_step: { key: 'twoDecimals' },
  },
  stop_loss_percentage: {
    too_small: range('stopLossRange', STOP_LOSS_MIN, STOP_LOSS_MAX),
    too_big: range('stopLossRange', STOP_LOSS_MIN, STOP_LOSS_MAX),
  },
  daily_loss_limit_pct: {
    too_small: range('dailyLossRange', RISK_LIMITS.dailyLossPct.min, RISK_LIMITS.dailyLossPct.max),
    too_big: range('dailyLossRange', RISK_LIMITS.dailyLossPct.min, RISK_LIMITS.dailyLossPct.max),
  },
  trailing_drawdown_pct: {
    too_small: range(
      'trailingDrawdownRange',
      RISK_LIMITS.trailingDrawdownPct.min,
      RISK_LIMITS.trailingDrawdownPct.max,
    ),
    too_big: range(
      'trailingDrawdownRange',
      RISK_LIMITS.trailingDrawdownPct.min,
      RISK_LIMITS.trailingDrawdownPct.max,
    ),
  },
  max_order_notional: { too_small: { key: 'positiveAmount' }, too_big: { key: 'positiveAmount' } },
  max_open_notional: { too_small: { key: 'positiveAmount' }, too_big: { key: 'positiveAmount' } },
  take_profit_percentage: {
    too_small: range('takeProfitRange', TAKE_PROFIT_MIN, TAKE_PROFIT_MAX),
    too_big: range('takeProfitRange', TAKE_PROFIT_MIN, TAKE_PROFIT_MAX),
  },
};

const limitFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

function formatLimits(values: Record<string, number> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(values ?? {}))
    result[name] = limitFormat.format(value);
  return result;
}

/**
 * One field error in the reader's language, from its machine code (`field_codes`): the field's
 * own rule when it names a limit, else the code's text; without a known code, the server's
 * message as written.
 */
export function fieldErrorText(
  t: TFunction,
  field: string,
  code: string | undefined,
  message: string,
): string {
  if (code !== undefined) {
    const rule = FIELD_RULES[field]?.[code as FieldErrorCode];
    // Each rule's placeholders are checked by the locale tests (same in both languages).
    if (rule)
      return t(`fieldErrors.rules.${rule.key}` as never, formatLimits(rule.values)) as string;
    const key = FIELD_CODE_KEYS.get(code);
    if (key) return t(`fieldErrors.codes.${key}`);
  }
  return message;
}

/** First error per field, in the reader's language (the spec shows one line per field). */
export function fieldErrors(t: TFunction, error: unknown): Record<string, string> {
  if (!(error instanceof ApiRequestError) || !error.body?.fields) return {};
  const codes = error.body.field_codes ?? {};
  const result: Record<string, string> = {};
  for (const [field, messages] of Object.entries(error.body.fields)) {
    const first = messages[0];
    if (first !== undefined) result[field] = fieldErrorText(t, field, codes[field]?.[0], first);
  }
  return result;
}
