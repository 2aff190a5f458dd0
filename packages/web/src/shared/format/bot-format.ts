import {
  BOT_ERROR_CODES,
  BOT_EXISTS_MARKER,
  type BotCreateRequest,
  ERROR_CODES,
  type OperationLogEntry,
  type PositionMode,
  type Timeframe,
} from '@quantsquare/contracts';
import type { TFunction } from 'i18next';

// Pure helpers of the bot area (document 1 §2, §4, §8, §9).

const UTC8_OFFSET_MS = 8 * 60 * 60 * 1000;

/** An ISO time as 'YYYY-MM-DD HH:mm:ss' at UTC+8; '—' when missing or invalid. */
export function formatUtc8(iso: string | null | undefined): string {
  if (!iso) return '—';
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return '—';
  return new Date(ms + UTC8_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** `net` is shown as one-way, anything else as hedge (§3). */
export function positionModeKey(mode: PositionMode): 'oneWay' | 'hedge' {
  return mode === 'net' ? 'oneWay' : 'hedge';
}

/** The entry's P&L (details.pnl) when it is a number. */
export function logPnl(entry: Pick<OperationLogEntry, 'details'>): number | null {
  const pnl = entry.details.pnl;
  if (typeof pnl === 'number' && Number.isFinite(pnl)) return pnl;
  if (typeof pnl === 'string' && pnl.trim() !== '' && Number.isFinite(Number(pnl))) {
    return Number(pnl);
  }
  return null;
}

/** What the Configure Trading Bot form holds. */
export interface BotFormValues {
  exchange_api?: number;
  strategy?: number;
  symbol?: string;
  timeframe: Timeframe;
  trade_amount?: number | null;
  stop_loss_percentage?: number | null;
  take_profit_percentage?: number | null;
}

/**
 * What another screen hands the bot form (the optimisation's "Use these parameters"): the
 * strategy by type, its parameters, the market, and the stop-loss / take-profit it found.
 */
/** A strategy parameter's name in the reader's language, else `fallback` (the server's name). */
export function strategyParameterLabel(t: TFunction, name: string, fallback: string = name) {
  return t(`bots.params.${name}` as never, { defaultValue: fallback }) as string;
}

export interface BotPreset {
  strategyType: string;
  parameters: Record<string, number>;
  symbol: string;
  timeframe: Timeframe;
  stop_loss_percentage?: number;
  take_profit_percentage?: number;
}

/** The create payload; null when a required field is missing. Empty SL/TP are left out. */
export function buildBotPayload(values: BotFormValues): BotCreateRequest | null {
  const { exchange_api, strategy, symbol, timeframe, trade_amount } = values;
  if (exchange_api === undefined || strategy === undefined || !symbol) return null;
  if (typeof trade_amount !== 'number') return null;
  const payload: BotCreateRequest = {
    exchange_api,
    strategy,
    symbol,
    timeframe,
    trade_amount: Math.round(trade_amount * 100) / 100,
  };
  if (typeof values.stop_loss_percentage === 'number') {
    payload.stop_loss_percentage = values.stop_loss_percentage;
  }
  if (typeof values.take_profit_percentage === 'number') {
    payload.take_profit_percentage = values.take_profit_percentage;
  }
  return payload;
}

/** The `bots.server` keys of the bots API's refusals, by their codes. */
export type BotServerKey = 'alreadyExists' | 'vipRequired' | 'stopBeforeDelete';

/**
 * The `bots.server` key of a refusal, from its code (the already-exists answer by the spec's
 * already-exists marker, BOT_EXISTS_MARKER, and its existing bot); null for any other answer.
 */
export function botServerKey(body: unknown): BotServerKey | null {
  if (typeof body !== 'object' || body === null) return null;
  const code = (body as Record<string, unknown>).code;
  if (code === ERROR_CODES.vipRequired) return 'vipRequired';
  if (code === BOT_ERROR_CODES.stopBeforeDelete) return 'stopBeforeDelete';
  if (readBotExists(body)) return 'alreadyExists';
  return null;
}

/** The already-exists answer of a create (HTTP 409): error, details, suggestion and the existing bot. */
export interface BotExists {
  error: string;
  details: string;
  suggestion: string;
  existingBot: { id: number; status: string } | null;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Reads the already-exists fields from an error body; null when the error is not that one. */
export function readBotExists(body: unknown): BotExists | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const error = str(record.error);
  if (!error.includes(BOT_EXISTS_MARKER)) return null;
  const existing = record.existing_bot;
  let existingBot: BotExists['existingBot'] = null;
  if (typeof existing === 'object' && existing !== null) {
    const { id, status } = existing as Record<string, unknown>;
    if (typeof id === 'number') existingBot = { id, status: str(status) };
  }
  return { error, details: str(record.details), suggestion: str(record.suggestion), existingBot };
}
