import {
  DISPLAY_UTC_OFFSET_HOURS,
  type PeriodMetrics,
  SQUARE_PAGE_NUMBERS_SHOWN,
  SYNTHETIC_CURVE_BASE,
  SYNTHETIC_CURVE_DAYS,
} from '@quantsquare/contracts';
import { formatPercent, formatSignedMoney } from './money';

// Pure display rules of the strategy square, the strategy detail and the public profile
// (document 2 §2, §3, §9). No React and no DOM here, so each rule is unit-tested.

const MILLISECONDS_THRESHOLD = 1e10;
const DISPLAY_OFFSET_MS = DISPLAY_UTC_OFFSET_HOURS * 3_600_000;
const DAY_MS = 86_400_000;

export type PageItem = number | 'gap-start' | 'gap-end';

/**
 * The page buttons (document 2 §9: up to 7 page numbers with ellipses): the first and the last
 * page always, and a window around the current page. `maxNumbers` is odd and at least 5.
 */
export function pageItems(
  current: number,
  totalPages: number,
  maxNumbers = SQUARE_PAGE_NUMBERS_SHOWN,
): PageItem[] {
  if (totalPages <= 0) return [];
  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (totalPages <= maxNumbers) return range(1, totalPages);
  const page = Math.min(Math.max(1, current), totalPages);
  const halfWindow = (maxNumbers - 3) / 2; // numbers either side of the current page
  if (page <= maxNumbers - 3) return [...range(1, maxNumbers - 1), 'gap-end', totalPages];
  if (page >= totalPages - (maxNumbers - 4)) {
    return [1, 'gap-start', ...range(totalPages - (maxNumbers - 2), totalPages)];
  }
  return [1, 'gap-start', ...range(page - halfWindow, page + halfWindow), 'gap-end', totalPages];
}

/** Epoch seconds or milliseconds (values above 1e10 are milliseconds) or a date string → ms. */
export function toEpochMs(time: unknown): number | null {
  if (typeof time === 'number') {
    if (!Number.isFinite(time) || time < 0) return null;
    return time > MILLISECONDS_THRESHOLD ? time : time * 1000;
  }
  if (typeof time === 'string' && time.trim() !== '') {
    const asNumber = Number(time);
    if (Number.isFinite(asNumber)) return toEpochMs(asNumber);
    const parsed = Date.parse(time);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

export interface CurvePoint {
  timeMs: number;
  value: number;
}

/**
 * The equity points of a strategy (document 2 §3 "Equity point"): time from `time` (or
 * `timestamp`), value from `equity` (or `value`, or `balance`). Invalid entries are dropped,
 * one point per second is kept (the chart draws whole seconds), sorted ascending.
 */
export function equityPoints(raw: readonly unknown[] | null | undefined): CurvePoint[] {
  if (!Array.isArray(raw)) return [];
  const bySecond = new Map<number, CurvePoint>();
  for (const entry of raw) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const timeMs = toEpochMs(e.time ?? e.timestamp);
    const rawValue = e.equity ?? e.value ?? e.balance;
    const value = typeof rawValue === 'string' ? Number(rawValue) : rawValue;
    if (timeMs === null || typeof value !== 'number' || !Number.isFinite(value)) continue;
    bySecond.set(Math.floor(timeMs / 1000), { timeMs, value });
  }
  return [...bySecond.values()].sort((a, b) => a.timeMs - b.timeMs);
}

/** A small deterministic generator (mulberry32), so a strategy's illustration never changes. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The illustrative curve of a strategy without snapshots (document 2 §2): 30 daily points from
 * 10,000 that end at the strategy's total return, with a little seeded noise. Only ever drawn
 * with an "illustrative" label, never as real history.
 */
export function syntheticCurve(
  seed: number,
  totalReturnPercent: number | null | undefined,
  nowMs: number,
): CurvePoint[] {
  const random = seededRandom(seed);
  const rate =
    typeof totalReturnPercent === 'number' && Number.isFinite(totalReturnPercent)
      ? totalReturnPercent / 100
      : 0;
  const end = SYNTHETIC_CURVE_BASE * (1 + rate);
  const points: CurvePoint[] = [];
  const startMs = nowMs - (SYNTHETIC_CURVE_DAYS - 1) * DAY_MS;
  for (let day = 0; day < SYNTHETIC_CURVE_DAYS; day += 1) {
    const share = day / (SYNTHETIC_CURVE_DAYS - 1);
    const trend = SYNTHETIC_CURVE_BASE + (end - SYNTHETIC_CURVE_BASE) * share;
    // The noise is zero at both ends, so the curve starts at the base and ends at the return.
    const noise = (random() - 0.5) * 0.02 * SYNTHETIC_CURVE_BASE * Math.sin(Math.PI * share);
    points.push({ timeMs: startMs + day * DAY_MS, value: trend + noise });
  }
  return points;
}

/** The SVG path of a sparkline through `values`, inside width × height (with a 1 px margin). */
export function sparklinePath(rawValues: readonly number[], width: number, height: number): string {
  if (rawValues.length === 0) return '';
  // One value is a flat line across the box.
  const values = rawValues.length === 1 ? [rawValues[0] ?? 0, rawValues[0] ?? 0] : rawValues;
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const stepX = values.length > 1 ? (width - 2) / (values.length - 1) : 0;
  return values
    .map((value, index) => {
      const x = 1 + index * stepX;
      // A flat series is drawn along the middle.
      const y = max === min ? height / 2 : 1 + (height - 2) * (1 - (value - min) / span);
      return `${index === 0 ? 'M' : 'L'}${x.toFixed(1)} ${y.toFixed(1)}`;
    })
    .join(' ');
}

export interface TradeMarker {
  timeMs: number;
  side: 'buy' | 'sell';
}

/**
 * Buy/sell markers from the detail's trades (document 2 §3 "Trade marker": timestamp or time,
 * type buy or sell), each moved onto the first equity point at or after it, the one that shows
 * it (a marker must sit on a point of the line), inside the curve's time range only, sorted.
 */
export function tradeMarkers(
  raw: readonly unknown[] | null | undefined,
  points: readonly CurvePoint[],
): TradeMarker[] {
  if (!Array.isArray(raw) || points.length === 0) return [];
  const first = points[0]?.timeMs ?? 0;
  const markers: TradeMarker[] = [];
  for (const entry of raw) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const side = e.type ?? e.side;
    const timeMs = toEpochMs(e.timestamp ?? e.time);
    if ((side !== 'buy' && side !== 'sell') || timeMs === null || timeMs < first) continue;
    // The first point at or after the trade: the equity that shows it (marks follow fills);
    // a trade after the last point sits on the last one.
    let low = 0;
    let high = points.length - 1;
    while (low < high) {
      const mid = Math.floor((low + high) / 2);
      if ((points[mid]?.timeMs ?? 0) >= timeMs) high = mid;
      else low = mid + 1;
    }
    const at = points[low];
    if (at) markers.push({ timeMs: at.timeMs, side });
  }
  return markers.sort((a, b) => a.timeMs - b.timeMs);
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * "MM/DD HH:mm" of a chart time that is already shifted to UTC+8 (the charts draw shifted
 * times as if they were UTC, see `toDisplayTime`), in whole seconds.
 */
export function displayTimeLabel(displaySeconds: number): string {
  const d = new Date(displaySeconds * 1000);
  return `${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(
    d.getUTCMinutes(),
  )}`;
}

/** "MM/DD HH:mm" of an instant at UTC+8 (the strategy chart's labels, document 2 §9). */
export function formatChartTime(timeMs: number): string {
  return displayTimeLabel(Math.floor((timeMs + DISPLAY_OFFSET_MS) / 1000));
}

/** "MM/DD HH:mm:ss" at UTC+8, for the live trade table. */
export function formatTradeTime(timeMs: number): string {
  const d = new Date(timeMs + DISPLAY_OFFSET_MS);
  return `${formatChartTime(timeMs)}:${two(d.getUTCSeconds())}`;
}

export type RelativeTime =
  | { unit: 'justNow' }
  | { unit: 'minutes' | 'hours' | 'days'; count: number }
  | { unit: 'date'; timeMs: number };

/**
 * How long ago (document 2 §9): just now under a minute, then minutes, hours, days up to 7
 * days, then a date. A time in the future (clock skew) counts as just now.
 */
export function relativeTime(timeMs: number, nowMs: number): RelativeTime {
  const ago = nowMs - timeMs;
  if (ago < 60_000) return { unit: 'justNow' };
  if (ago < 3_600_000) return { unit: 'minutes', count: Math.floor(ago / 60_000) };
  if (ago < DAY_MS) return { unit: 'hours', count: Math.floor(ago / 3_600_000) };
  if (ago < 7 * DAY_MS) return { unit: 'days', count: Math.floor(ago / DAY_MS) };
  return { unit: 'date', timeMs };
}

/** A trade's time (document 2 §3 "Realtime trade": timestamp or created_at) in ms. */
export function tradeTimeMs(trade: {
  timestamp?: string | number | null;
  created_at?: string | number | null;
}): number | null {
  return toEpochMs(trade.timestamp ?? trade.created_at);
}

/**
 * The live trade list after a trade_update: the new fill first, a fill already listed (same
 * `id`; partial fills of one order have their own ids) replacing its row, at most `keep` rows
 * (document 2 §9: 20).
 */
export function prependTrade<T extends { id: string }>(
  trades: readonly T[],
  trade: T,
  keep: number,
): T[] {
  return [trade, ...trades.filter((t) => t.id !== trade.id)].slice(0, keep);
}

/** What a viewer may do with the Copy Trade button of a strategy (document 2 §2, §6). */
export type CopyButtonState = 'hidden' | 'login' | 'copy' | 'copying';

export function copyButtonState(input: {
  acceptsCopy: boolean;
  isOwner: boolean;
  isLoggedIn: boolean;
  isCopying: boolean;
}): CopyButtonState {
  if (!input.acceptsCopy || input.isOwner) return 'hidden';
  if (!input.isLoggedIn) return 'login';
  return input.isCopying ? 'copying' : 'copy';
}

/** Visible characters of editor HTML (tags dropped, entities counted once), as the counter. */
export function visibleLength(html: string): number {
  const text = html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, '_');
  return [...text].length;
}

/** The initial of a name for an avatar without a picture. */
export function initialOf(name: string | null | undefined): string {
  const first = [...(name ?? '').trim()][0];
  // A digit or sign is no initial (a phone user's name is their number): the caller shows a
  // person icon instead.
  return first && /\p{L}/u.test(first) ? first.toUpperCase() : '';
}

/** A route id: a positive whole number, or null. */
export function parseRouteId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return id > 0 ? id : null;
}

/** A drawdown (answered as a positive percent) as the page shows it: negative, never "-0". */
export function drawdownShown(maxDrawdown: number): number {
  return maxDrawdown === 0 ? 0 : -Math.abs(maxDrawdown);
}

/**
 * A strategy's copy figures as its stat cards show them: the copiers' P&L in USDT with 2
 * decimals (signed), the copy efficiency (a ratio, 1 = the copiers matched the leader) as a
 * percent, or a dash where it is not defined.
 */
export function copyFigureTexts(
  metrics: Pick<PeriodMetrics, 'copier_pnl' | 'copy_efficiency'>,
  locale: string,
): { pnl: string; efficiency: string } {
  const pnl = formatSignedMoney(metrics.copier_pnl, locale);
  return {
    pnl: pnl === '—' ? pnl : `${pnl} USDT`,
    efficiency:
      metrics.copy_efficiency === null ? '—' : formatPercent(metrics.copy_efficiency * 100, locale),
  };
}
