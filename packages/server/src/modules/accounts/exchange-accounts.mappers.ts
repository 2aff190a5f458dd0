import type { ExchangeApi, ExchangeApiBot } from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';

const SHORT_KEY_LENGTH = 8;

/** First 4 … last 4 characters; a key of 8 characters or fewer shows nothing of itself. */
export function maskApiKey(apiKey: string): string {
  if (apiKey.length <= SHORT_KEY_LENGTH) return '****';
  return `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;
}

/**
 * The status the spec shows as normal / abnormal: the user's switch is on and the account's
 * last check (test, validate, balance, overview load) did not fail.
 */
export const isAccountActive = (row: ExchangeAccountRow): boolean =>
  row.isActive && row.lastCheckOk !== false;

/** An account as answered: never a secret, the key only masked. */
export function toExchangeApi(
  row: ExchangeAccountRow,
  bots: readonly ExchangeApiBot[] = [],
): ExchangeApi {
  return {
    id: row.id,
    name: row.name,
    exchange: row.exchange,
    account_type: row.accountType,
    is_testnet: row.isTestnet,
    is_paper: row.isPaper,
    position_mode: row.positionMode,
    default_leverage: row.defaultLeverage,
    is_active: isAccountActive(row),
    is_enabled: row.isActive,
    is_experience: row.isExperience,
    api_key: row.isPaper ? null : row.apiKeyMasked,
    has_api_password: row.apiPasswordEncrypted !== null,
    paper_balance: row.isPaper ? new Decimal(row.paperBalance ?? '0').toString() : null,
    last_error: row.lastError,
    last_error_kind: row.lastErrorKind,
    last_checked_at: row.lastCheckedAt?.toISOString() ?? null,
    last_check_ok: row.lastCheckOk,
    bots: [...bots],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
