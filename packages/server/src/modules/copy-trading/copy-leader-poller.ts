// The leader poller and the venue reads: the leader's positions at the exchange against the
// book's (what it traded outside the platform becomes a change the copies follow), its equity,
// and the marks a relation's figures are valued at.
import { leaderChangedAtMs, netPositions } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';
import { ExchangeAdapterError } from '../../exchange/exchange-client.js';
import type { CopyContext } from './copy-engine-context.js';
import type { LeaderSymbolState } from './copy-trading.repository.js';

export function createLeaderPoller(ctx: CopyContext) {
  /**
   * Leader positions the exchange holds and the book does not (traded outside the platform, or a
   * protective order the book has not settled yet), by account|symbol, as the poller last saw
   * them. Newer than the book's own change, they are the leader's position the copies follow.
   */
  const outside = new Map<string, LeaderSymbolState & { seenAtMs: number }>();

  /** The leader account's position per symbol: the book's, or the exchange's where newer. */
  async function leaderBookOf(accountId: number): Promise<LeaderSymbolState[]> {
    const book = await ctx.loaders.leaderBook.run(accountId);
    const merged = new Map(book.map((state) => [state.symbol, state]));
    for (const [key, seen] of outside) {
      if (!key.startsWith(`${accountId}|`)) continue;
      const own = merged.get(seen.symbol);
      if (!own || seen.seenAtMs > leaderChangedAtMs(own.version)) merged.set(seen.symbol, seen);
    }
    return [...merged.values()];
  }

  /**
   * The poller: the leader's positions at the exchange against the book's. A difference the book
   * did not make (the book unchanged since before the look) is the leader's position from now
   * on, with a change of its own, so the timer's heal copies it; an equal one clears it.
   */
  async function pollLeader(accountId: number): Promise<void> {
    const lookedAt = ctx.clock.now().getTime();
    const account = await ctx.accountOf(accountId);
    // In this order: the venue, then the orders on their way, then the book. A fill the venue
    // shows is either settled in the book read after it, or its order is still in flight then
    // (the book is about to move): never taken for a change made outside the platform.
    const held = await ctx.execution.clientOf(account).fetchPositions();
    const inFlight = new Set(await ctx.execution.symbolsInFlight(accountId));
    const book = await ctx.loaders.leaderBook.run(accountId);
    const net = netPositions(held);
    const symbols = new Set([...book.map((s) => s.symbol), ...net.keys()]);
    for (const symbol of symbols) {
      const key = `${accountId}|${symbol}`;
      const own = book.find((s) => s.symbol === symbol);
      const atExchange = net.get(symbol);
      if (inFlight.has(symbol)) continue;
      const exchangeSize = (atExchange?.size ?? new Decimal(0)).toDecimalPlaces(8);
      if (exchangeSize.eq(new Decimal(own?.size ?? 0).toDecimalPlaces(8))) {
        outside.delete(key);
        continue;
      }
      if (own && leaderChangedAtMs(own.version) >= lookedAt) continue; // the book moved meanwhile: next look
      const seen = outside.get(key);
      if (seen && new Decimal(seen.size).eq(exchangeSize)) continue;
      outside.set(key, {
        symbol,
        size: exchangeSize.toString(),
        entryPrice: String(atExchange?.entry ?? 0),
        version: `${lookedAt}|${exchangeSize.toString()}|exchange`,
        seenAtMs: lookedAt,
      });
    }
  }

  async function leaderEquity(leaderAccountId: number): Promise<string> {
    const account = await ctx.accountOf(leaderAccountId);
    const balance = await ctx.execution.clientOf(account).fetchBalance();
    const usdt = balance.USDT;
    if (!usdt || !(usdt.total > 0)) {
      throw new ExchangeAdapterError('unavailable', 'The leader account has no USDT equity');
    }
    return String(usdt.total);
  }

  /** Marks of the account's symbols (the exchange's mark price, when it holds a position). */
  async function marksOf(account: ExchangeAccountRow, symbols: readonly string[]) {
    const marks = new Map<string, number>();
    if (symbols.length === 0) return marks;
    try {
      for (const held of await ctx.execution.clientOf(account).fetchPositions(symbols)) {
        if (held.markPrice !== null) marks.set(held.symbol, held.markPrice);
      }
    } catch {
      // Unmarked positions count at their entry (no unrealised P&L) until the next look.
    }
    return marks;
  }

  return { leaderBookOf, pollLeader, leaderEquity, marksOf };
}
export type LeaderPoller = ReturnType<typeof createLeaderPoller>;
