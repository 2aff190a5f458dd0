import type { CopyMissReason } from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import { unrealizedPnl } from '../position/pnl.js';

// The copy engine's planning maths beside `copyDecision` (pure): the keys its orders answer to,
// when a missed change is tried again, what a relation's copied book is worth, what a decision's
// orders moved, and the leader's net position at a venue. The server's copy engine only reads,
// sends and writes around these.

/**
 * The key of one copy decision: what its orders answer to — the leader's change on the symbol
 * (`symbol|book version`) at the relation's sizing (copy amount over the leader's equity base,
 * which only the follower's edit moves). Never a try count or a time: a decision is one key,
 * so a retry, a restart or a second worker finds its orders instead of sending others.
 */
export function decisionKey(
  changeKey: string,
  relation: { readonly copyAmount: Decimal.Value; readonly leaderEquityBase: Decimal.Value },
): string {
  return `${changeKey}|${new Decimal(relation.copyAmount).toString()}/${new Decimal(relation.leaderEquityBase).toString()}`;
}

/** The key of a stop's close on a symbol: the stop is the relation's one stop (its time). */
export const stopKey = (symbol: string, stoppedAt: Date | null) =>
  `stop|${symbol}|${stoppedAt?.getTime() ?? 'open'}`;

/** Misses the timer tries again (while the relation is active); the others wait for a change. */
export const RETRYABLE_MISSES: ReadonlySet<CopyMissReason> = new Set([
  'capped',
  'insufficient_margin',
  'invalid_key',
  'rate_limited',
  'paused',
  'exchange_error',
]);

/** A retried miss waits 5 s, 10 s, 20 s … up to 10 minutes (by the clock). */
export const MISS_RETRY_BASE_MS = 5_000;
const MISS_RETRY_MAX_MS = 10 * 60_000;

export function missRetryBackoffMs(attempts: number): number {
  return Math.min(MISS_RETRY_MAX_MS, MISS_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/** When the leader's book changed, from its version (`changedAtMs|size|…`); 0 when unknown. */
export const leaderChangedAtMs = (version: string) => Number(version.split('|')[0]) || 0;

/** One row of a relation's own book on its follower account. */
export interface CopiedBookRow {
  readonly symbol: string;
  readonly size: Decimal.Value;
  readonly entryPrice: Decimal.Value;
  readonly entryFee: Decimal.Value;
  readonly realizedPnl: Decimal.Value;
}

/** Copied P&L: realised + unrealised (at `marks`, else the entry) − entry fees held. */
export function copiedPnl(
  book: readonly CopiedBookRow[],
  marks: ReadonlyMap<string, number>,
): Decimal {
  let pnl = new Decimal(0);
  for (const row of book) {
    pnl = pnl.plus(row.realizedPnl);
    const size = new Decimal(row.size);
    if (size.isZero()) continue;
    const entryPrice = new Decimal(row.entryPrice);
    const mark = marks.get(row.symbol) ?? entryPrice;
    pnl = pnl.plus(unrealizedPnl({ size, entryPrice }, mark)).minus(row.entryFee);
  }
  return pnl;
}

/** What a decision's orders moved the follower by: their filled amounts, signed by side. */
export function filledDelta(
  orders: readonly { readonly filledAmount: Decimal.Value | null; readonly side: 'buy' | 'sell' }[],
): Decimal {
  return orders.reduce(
    (sum, o) => sum.plus(new Decimal(o.filledAmount ?? 0).times(o.side === 'buy' ? 1 : -1)),
    new Decimal(0),
  );
}

/** The leader's net size per symbol at a venue (a hedged account's two sides summed). */
export function netPositions(
  held: readonly {
    readonly symbol: string;
    readonly amount: Decimal.Value;
    readonly side: 'long' | 'short';
    readonly entryPrice: number;
  }[],
): Map<string, { size: Decimal; entry: number }> {
  const net = new Map<string, { size: Decimal; entry: number }>();
  for (const position of held) {
    const signed = new Decimal(position.amount).times(position.side === 'long' ? 1 : -1);
    const sum = net.get(position.symbol);
    net.set(position.symbol, {
      size: (sum?.size ?? new Decimal(0)).plus(signed),
      entry: position.entryPrice,
    });
  }
  return net;
}
