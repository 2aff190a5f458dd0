import {
  type AccountType,
  BALANCE_CHART_POINTS,
  type BalanceSnapshot,
  EXPERIENCE_ACCOUNT_NAME,
  type Exchange,
  type ExchangeApiCreateRequest,
  PAPER_BALANCE_DEFAULT,
  type PositionMode,
} from '@quantsquare/contracts';
import type { LinePoint } from '../charts/chart-data';

// Pure helpers of the API management and account overview screens (document 1 §5, §9).

/** The tone of a P&L value (a number or decimal string): gains green, losses red, zero neutral. */
export function pnlTone(value: number | string): 'up' | 'down' | 'flat' {
  const number = Number(value);
  if (number > 0) return 'up';
  if (number < 0) return 'down';
  return 'flat';
}

/**
 * The balance chart's points: the last `count` snapshots (document 1 §9) with a valid time and
 * balance, one per second (the chart draws whole seconds), oldest first. The chart itself shifts
 * the labels to UTC+8.
 */
export function balanceChartPoints(
  snapshots: readonly BalanceSnapshot[],
  count: number = BALANCE_CHART_POINTS,
): LinePoint[] {
  const bySecond = new Map<number, LinePoint>();
  for (const snapshot of snapshots) {
    const timeMs = Date.parse(snapshot.time);
    // The chart draws floats: a decimal string becomes one only here.
    const value = Number(snapshot.balance);
    if (!Number.isFinite(timeMs) || snapshot.balance === '' || !Number.isFinite(value)) continue;
    bySecond.set(Math.floor(timeMs / 1000), { timeMs, value });
  }
  const sorted = [...bySecond.values()].sort((a, b) => a.timeMs - b.timeMs);
  return sorted.slice(Math.max(0, sorted.length - count));
}

/** What the Add API form holds. */
export interface ApiFormValues {
  name: string;
  exchange: Exchange;
  account_type: AccountType;
  is_paper: boolean;
  paper_balance?: number | null;
  api_key?: string;
  api_secret?: string;
  api_password?: string;
  is_testnet: boolean;
  position_mode: PositionMode;
  default_leverage: number;
  /** The authenticator code (step-up) when the user has 2FA on. */
  google_code?: string;
}

/**
 * The create payload (document 1 §5): a paper account sends no keys but its paper balance;
 * a live one sends its keys, and api_password only for OKX.
 */
export function buildCreatePayload(values: ApiFormValues): ExchangeApiCreateRequest {
  const base = {
    name: values.name.trim(),
    exchange: values.exchange,
    account_type: values.account_type,
    position_mode: values.position_mode,
    default_leverage: values.default_leverage,
    is_paper: values.is_paper,
    is_active: true,
  };
  if (values.is_paper) {
    return {
      ...base,
      is_testnet: false,
      paper_balance: values.paper_balance ?? PAPER_BALANCE_DEFAULT,
    };
  }
  const payload: ExchangeApiCreateRequest = {
    ...base,
    is_testnet: values.is_testnet,
    api_key: values.api_key?.trim() ?? '',
    api_secret: values.api_secret?.trim() ?? '',
  };
  if (values.exchange === 'okx') payload.api_password = values.api_password?.trim() ?? '';
  if (values.google_code?.trim()) payload.google_code = values.google_code.trim();
  return payload;
}

/**
 * The name to show for an account: the experience account keeps the server's English default
 * name only until its owner renames it, so that default is said in the reader's language.
 */
export function accountName(
  account: { name: string; is_experience?: boolean },
  experienceName: string,
): string {
  return account.is_experience && account.name === EXPERIENCE_ACCOUNT_NAME
    ? experienceName
    : account.name;
}

/**
 * How an API's status reads (document 1: active as normal, inactive as abnormal). A live key
 * no check has tried yet is 'unchecked', never 'normal'.
 */
export type ApiStatus = 'normal' | 'abnormal' | 'disabled' | 'unchecked';

export function apiStatus(api: {
  is_active: boolean;
  is_enabled?: boolean;
  is_paper?: boolean;
  last_check_ok?: boolean | null;
}): ApiStatus {
  if (api.is_enabled === false) return 'disabled';
  if (api.is_paper === false && api.last_check_ok === null) return 'unchecked';
  return api.is_active ? 'normal' : 'abnormal';
}
