import { isIP } from 'node:net';
import {
  FIELD_ERROR_CODES,
  WEBHOOK_FIELD_ERROR_CODES,
  WEBHOOK_MESSAGES,
} from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import { FieldErrorList } from '../../common/errors.js';
import type { WebhookConfigRow } from '../../db/schema/index.js';
import type { MarketFeed } from '../../market/market.types.js';
import { normaliseSymbol } from './webhook-alert.js';
import type { WebhooksRepository } from './webhooks.repository.js';

// What a configuration's fields must satisfy beyond their schema, checked against the user's
// accounts and the venue's symbols; and the address form the allowlist keeps.

/** An IPv4 or IPv6 address, normalised (IPv4-mapped IPv6 as IPv4). */
export function normaliseIp(text: string): string | null {
  const trimmed = text.trim().toLowerCase();
  const unmapped =
    trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
  return isIP(unmapped) ? unmapped : null;
}

/** What checking a configuration's fields uses. */
export interface ConfigRulesDeps {
  readonly repo: WebhooksRepository;
  readonly feed: MarketFeed;
}

/** The checks beyond the schema: the account, the symbol, the amounts, the addresses. */
export async function checkRules(
  deps: ConfigRulesDeps,
  userId: number,
  input: {
    exchange_api?: number | undefined;
    symbol?: string | null | undefined;
    default_amount?: string | undefined;
    max_amount?: string | null | undefined;
    ip_allowlist?: string[] | undefined;
  },
  current?: WebhookConfigRow,
) {
  const { repo } = deps;
  const errors = new FieldErrorList();
  const accountId = input.exchange_api ?? current?.exchangeAccountId;
  const account =
    accountId === undefined ? undefined : await repo.findOwnedAccount(userId, accountId);
  if (input.exchange_api !== undefined) {
    if (!account) {
      errors.add(
        'exchange_api',
        WEBHOOK_MESSAGES.accountNotFound,
        WEBHOOK_FIELD_ERROR_CODES.unknownAccount,
      );
    } else if (!account.isActive) {
      errors.add(
        'exchange_api',
        WEBHOOK_MESSAGES.accountInactive,
        WEBHOOK_FIELD_ERROR_CODES.accountInactive,
      );
    }
  }
  let symbol: string | null | undefined;
  if (input.symbol !== undefined) {
    symbol = input.symbol === null ? null : normaliseSymbol(input.symbol);
    if (input.symbol !== null && !symbol) {
      errors.add('symbol', WEBHOOK_MESSAGES.invalidSymbol, FIELD_ERROR_CODES.invalidFormat);
    } else if (symbol && account) {
      const listed = await deps.feed.symbols(account.exchange).catch(() => undefined);
      if (listed && !listed.symbols.includes(symbol)) {
        errors.add(
          'symbol',
          WEBHOOK_MESSAGES.unknownSymbol,
          WEBHOOK_FIELD_ERROR_CODES.unknownSymbol,
        );
      }
    }
  }
  const defaultAmount = input.default_amount ?? current?.defaultAmount;
  const maxAmount =
    input.max_amount !== undefined ? input.max_amount : (current?.maxAmount ?? null);
  if (
    defaultAmount !== undefined &&
    maxAmount !== null &&
    new Decimal(maxAmount).lt(defaultAmount)
  ) {
    errors.add(
      input.max_amount !== undefined ? 'max_amount' : 'default_amount',
      WEBHOOK_MESSAGES.maxBelowDefault,
      WEBHOOK_FIELD_ERROR_CODES.maxBelowDefault,
    );
  }
  let ips: string[] | undefined;
  if (input.ip_allowlist !== undefined) {
    ips = [];
    for (const text of input.ip_allowlist) {
      const ip = normaliseIp(text);
      if (!ip) {
        errors.add('ip_allowlist', WEBHOOK_MESSAGES.invalidIp, WEBHOOK_FIELD_ERROR_CODES.invalidIp);
      } else if (!ips.includes(ip)) ips.push(ip);
    }
  }
  if (!errors.isEmpty) throw errors.failure();
  return { symbol, ips };
}
