// The copy engine: copies by position reconciliation on the execution core. Each active relation
// holds, per symbol, target = leader's net position × (copy_amount / leader equity at the base),
// negated for reverse, on the follower market's step. It is recomputed from the execution book
// (never from an event's payload) on every leader PositionChanged, on a timer (a missed event
// heals itself) and on resume, so a repeated or re-ordered event finds the target held already.
// Orders carry deterministic keys (leader change, symbol, try) and owner {copy, relation}.
import type { CopyMissReason, CopyPosition } from '@quantsquare/contracts';
import {
  copyDecision,
  copyJoins,
  copyRatio,
  isWithinEntryDistance,
  leaderDriftPercent,
  slippageBps as slippageOf,
} from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { createBatcher } from '../../common/batcher.js';
import type { Clock } from '../../common/clock.js';
import {
  copyLease,
  createLeases,
  isCopyLease,
  LEASE_RENEW_MS,
  type Leases,
} from '../../common/leases.js';
import type { Database } from '../../db/database.js';
import type {
  CopyReceiptRow,
  CopyRelationRow,
  ExchangeAccountRow,
  ExecutionOrderRow,
  NewCopyReceiptRow,
} from '../../db/schema/index.js';
import type { BusEvent, EventBus } from '../../events/index.js';
import { ExchangeAdapterError, type MarketFacts } from '../../exchange/exchange-client.js';
import {
  type ExecutionCore,
  ExecutionError,
  type IntentResult,
  type OrderOwner,
} from '../../execution/index.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import { createCopyLifecycle } from './copy-lifecycle.js';
import { type CopyStatusOutbox, transitionTelling } from './copy-status-events.js';
import { slippageCapPercent } from './copy-trading.mappers.js';
import {
  type CopyBookRow,
  type CopyTradingQueries,
  copyTradingQueries,
  type LeaderSymbolState,
} from './copy-trading.repository.js';
import {
  type CloseOutcome,
  type CopyEnginePort,
  type CopySquarePort,
  stopRelation,
} from './copy-trading.service.js';

export interface CopyEngineLogger {
  error(details: object, message: string): void;
}

export interface CopyEngineDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly execution: ExecutionCore;
  readonly events: EventBus;
  readonly operationLog: OperationLogWriter;
  /** With `strategy`, copies of a leader that withdrew its strategy end (copy-lifecycle.ts). */
  readonly square: Pick<CopySquarePort, 'adjustCopyFigures'> &
    Partial<Pick<CopySquarePort, 'strategy'>>;
  readonly log?: CopyEngineLogger;
  /** The reconcile timer's period (real time); default 15 s. */
  readonly reconcileIntervalMs?: number;
  /** Relations reconciled at once by a fan-out (each account's orders still one at a time). */
  readonly concurrency?: number;
  /**
   * A relation is driven by the one process holding its lease (`workers/leases.ts`): events,
   * the timer and closes act on held relations only; a dead holder's relations move to another
   * process within the lease's time to live. Default: leases of a holder of its own.
   */
  readonly leases?: Leases;
  /** How often leases are renewed and free ones taken (default LEASE_RENEW_MS). */
  readonly leaseRenewMs?: number;
  /** CopyStatusChanged events go to the outbox with each change (notifications). */
  readonly copyStatus?: CopyStatusOutbox | undefined;
}

export const DEFAULT_COPY_RECONCILE_INTERVAL_MS = 15_000;
const DEFAULT_CONCURRENCY = 256;
/** A retried miss waits 5 s, 10 s, 20 s … up to 10 minutes (by the clock). */
const RETRY_BASE_MS = 5_000;
const RETRY_MAX_MS = 10 * 60_000;
/** Misses the timer tries again (while the relation is active); the others wait for a change. */
const RETRYABLE: ReadonlySet<CopyMissReason> = new Set([
  'capped',
  'insufficient_margin',
  'invalid_key',
  'rate_limited',
  'paused',
  'exchange_error',
]);

type Trigger =
  /** A leader event (or its duplicate): acts once per change. */
  | { readonly kind: 'event' }
  /** The timer, a resume or an edit: heals what is not at its target. */
  | { readonly kind: 'heal'; readonly ignoreBackoff: boolean }
  /** Late join: the leader's current positions, within the entry distance. */
  | { readonly kind: 'late_join' };

interface Failure {
  readonly reason: CopyMissReason;
  readonly errorKind: string | null;
  readonly message: string;
}

const ownerOf = (relationId: number): OrderOwner => ({ kind: 'copy', id: relationId });

/**
 * The key of one copy decision: what its orders answer to — the leader's change on the symbol
 * (`symbol|book version`) at the relation's sizing (copy amount over the leader's equity base,
 * which only the follower's edit moves). Never a try count or a time: a decision is one key,
 * so a retry, a restart or a second worker finds its orders instead of sending others.
 */
export function decisionKey(
  changeKey: string,
  relation: Pick<CopyRelationRow, 'copyAmount' | 'leaderEquityBase'>,
): string {
  return `${changeKey}|${new Decimal(relation.copyAmount).toString()}/${new Decimal(relation.leaderEquityBase).toString()}`;
}

/** The key of a stop's close on a symbol: the stop is the relation's one stop (its time). */
export const stopKey = (symbol: string, stoppedAt: Date | null) =>
  `stop|${symbol}|${stoppedAt?.getTime() ?? 'open'}`;
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** An order failure as the relation names it (invalid key, margin, rate limit, …). */
export function classifyCopyFailure(error: unknown): Failure {
  const adapter =
    error instanceof ExchangeAdapterError
      ? error
      : error instanceof ExecutionError && error.cause instanceof ExchangeAdapterError
        ? error.cause
        : undefined;
  const message = errorText(error);
  if (!adapter) {
    const kind = error instanceof ExecutionError ? error.kind : null;
    return { reason: 'exchange_error', errorKind: kind, message };
  }
  const reason: CopyMissReason =
    adapter.kind === 'invalid_key'
      ? 'invalid_key'
      : adapter.kind === 'insufficient_funds'
        ? 'insufficient_margin'
        : adapter.kind === 'rate_limited'
          ? 'rate_limited'
          : 'exchange_error';
  return { reason, errorKind: adapter.kind, message };
}

/** The engine's reads and writes, shared by the relations a fan-out moves at once. */
function createLoaders(repo: CopyTradingQueries) {
  const options = { maxSize: 1000 };
  const keyOf = (relationId: number, text: string) => `${relationId}|${text}`;
  return {
    /** Active and paused relations copying an account (every fill's event asks: most none). */
    copiersOf: createBatcher(async (accountIds: readonly number[]) => {
      const rows = await repo.relationsOfLeaders([...new Set(accountIds)], ['active', 'paused']);
      return accountIds.map((id) => rows.filter((r) => r.leaderAccountId === id));
    }, options),
    relation: createBatcher(async (ids: readonly number[]) => {
      const rows = new Map((await repo.relationsByIds([...new Set(ids)])).map((r) => [r.id, r]));
      return ids.map((id) => rows.get(id));
    }, options),
    leaderBook: createBatcher(async (accountIds: readonly number[]) => {
      const books = await repo.leaderBooks([...new Set(accountIds)]);
      return accountIds.map((id): readonly LeaderSymbolState[] => books.get(id) ?? []);
    }, options),
    receipt: createBatcher(
      async (changes: readonly { relationId: number; changeKey: string }[]) => {
        const rows = new Map(
          (await repo.receiptsOfChanges(changes)).map((r) => [keyOf(r.relationId, r.changeKey), r]),
        );
        return changes.map((c) => rows.get(keyOf(c.relationId, c.changeKey)));
      },
      options,
    ),
    /** The two latest receipts of a relation on a symbol, newest first. */
    latestOnSymbol: createBatcher(
      async (pairs: readonly { relationId: number; symbol: string }[]) => {
        const bySymbol = new Map<string, CopyReceiptRow[]>();
        for (const row of await repo.latestReceiptsOnSymbols(pairs)) {
          const key = keyOf(row.relationId, row.symbol);
          bySymbol.set(key, [...(bySymbol.get(key) ?? []), row]);
        }
        return pairs.map((p) => bySymbol.get(keyOf(p.relationId, p.symbol)) ?? []);
      },
      options,
    ),
    copyBook: createBatcher(
      async (relations: readonly { relationId: number; followerAccountId: number }[]) => {
        const books = await repo.copyBooks(relations);
        return relations.map((r): readonly CopyBookRow[] => books.get(r.relationId) ?? []);
      },
      options,
    ),
    saveReceipt: createBatcher(async (rows: readonly NewCopyReceiptRow[]) => {
      // One row per (relation, change) in a statement: the last one given wins.
      const last = new Map(rows.map((r) => [keyOf(r.relationId, r.changeKey), r]));
      const saved = new Map(
        (await repo.saveReceipts([...last.values()])).map((r) => [
          keyOf(r.relationId, r.changeKey),
          r,
        ]),
      );
      return rows.map((r) => saved.get(keyOf(r.relationId, r.changeKey)) as CopyReceiptRow);
    }, options),
    figures: createBatcher(
      async (items: readonly { id: number; totalProfitLoss: string; clearError: boolean }[]) => {
        const last = new Map(items.map((i) => [i.id, i]));
        const saved = new Map((await repo.saveFigures([...last.values()])).map((r) => [r.id, r]));
        return items.map((i) => saved.get(i.id));
      },
      options,
    ),
  };
}

export function createCopyEngine(deps: CopyEngineDeps) {
  const { clock, execution } = deps;
  const repo: CopyTradingQueries = copyTradingQueries(deps.db);
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  /** Per relation, the work queued on it (an event and the timer never interleave). */
  const chains = new Map<number, Promise<unknown>>();
  const inFlight = new Set<Promise<unknown>>();
  /** The leader's last fill per account|symbol (the slippage cap's reference). */
  const lastFills = new Map<string, { price: number; atMs: number }>();
  /** The marks each relation's P&L was last valued at (a fan-out values its fill, keeps these). */
  const lastMarks = new Map<number, Map<string, number>>();
  const loaders = createLoaders(repo);
  const leases = deps.leases ?? createLeases({ db: deps.db });
  /**
   * Leader positions the exchange holds and the book does not (traded outside the platform, or a
   * protective order the book has not settled yet), by account|symbol, as the poller last saw
   * them. Newer than the book's own change, they are the leader's position the copies follow.
   */
  const outside = new Map<string, LeaderSymbolState & { seenAtMs: number }>();
  let unsubscribe: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  let leaseTimer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | null = null;
  /** Accounts whose exchange client is built and has its markets (see `prepareClients`). */
  const prepared = new Set<number>();
  let isStopping = false;
  const strategyOf = deps.square.strategy;
  const lifecycle = createCopyLifecycle({
    ...deps,
    square: {
      adjustCopyFigures: deps.square.adjustCopyFigures,
      // Without the square's reader (a bare engine), no strategy is seen withdrawn.
      strategy: strategyOf ?? (async () => ({ userId: 0, isPublic: true, acceptCopy: true })),
    },
    closeAll: (relationId) => port.closeAll(relationId),
    resumed: (relationId) => port.resumed(relationId),
  });

  function track<T>(work: Promise<T>): Promise<T> {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  /**
   * The relations among `relations` this process drives: those whose lease it holds, after
   * taking the free (or expired) leases of the others.
   */
  async function held<T extends { readonly id: number }>(relations: readonly T[]): Promise<T[]> {
    const missing = relations.filter((r) => !leases.isHeld(copyLease(r.id)));
    if (missing.length > 0) await leases.acquire(missing.map((r) => copyLease(r.id)));
    return relations.filter((r) => leases.isHeld(copyLease(r.id)));
  }

  const changedAtOf = (state: LeaderSymbolState) => Number(state.version.split('|')[0]) || 0;

  /** The relation's lease as its orders carry it: claimed for sending only while it is current. */
  const fenceOf = (relationId: number) => {
    const fence = leases.fenceOf(copyLease(relationId));
    return fence ? { fence } : {};
  };

  /** The leader account's position per symbol: the book's, or the exchange's where newer. */
  async function leaderBookOf(accountId: number): Promise<LeaderSymbolState[]> {
    const book = await loaders.leaderBook.run(accountId);
    const merged = new Map(book.map((state) => [state.symbol, state]));
    for (const [key, seen] of outside) {
      if (!key.startsWith(`${accountId}|`)) continue;
      const own = merged.get(seen.symbol);
      if (!own || seen.seenAtMs > changedAtOf(own)) merged.set(seen.symbol, seen);
    }
    return [...merged.values()];
  }

  /**
   * The poller: the leader's positions at the exchange against the book's. A difference the book
   * did not make (the book unchanged since before the look) is the leader's position from now
   * on, with a change of its own, so the timer's heal copies it; an equal one clears it.
   */
  async function pollLeader(accountId: number): Promise<void> {
    const lookedAt = clock.now().getTime();
    const account = await accountOf(accountId);
    // In this order: the venue, then the orders on their way, then the book. A fill the venue
    // shows is either settled in the book read after it, or its order is still in flight then
    // (the book is about to move): never taken for a change made outside the platform.
    const held = await execution.clientOf(account).fetchPositions();
    const inFlight = new Set(await execution.symbolsInFlight(accountId));
    const book = await loaders.leaderBook.run(accountId);
    const net = new Map<string, { size: Decimal; entry: number }>();
    for (const position of held) {
      const signed = new Decimal(position.amount).times(position.side === 'long' ? 1 : -1);
      const sum = net.get(position.symbol);
      net.set(position.symbol, {
        size: (sum?.size ?? new Decimal(0)).plus(signed),
        entry: position.entryPrice,
      });
    }
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
      if (own && changedAtOf(own) >= lookedAt) continue; // the book moved meanwhile: next look
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

  /** Runs `work` on the relation's queue if this process holds (or can take) its lease. */
  async function whenHeld(relationId: number, work: () => Promise<void>): Promise<void> {
    if ((await held([{ id: relationId }])).length === 0) return;
    await serial(relationId, work);
  }

  /** Keeps this process's leases; takes the free ones of relations that still need a driver. */
  async function leaseUpkeep(): Promise<void> {
    await leases.renew();
    await held([
      ...(await repo.relationsByStatus(['active', 'paused'])),
      ...(await repo.stoppedWithOpenPositions()),
    ]);
  }

  function serial<T>(relationId: number, work: () => Promise<T>): Promise<T> {
    const previous = chains.get(relationId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    chains.set(relationId, settled);
    void settled.then(() => {
      if (chains.get(relationId) === settled) chains.delete(relationId);
    });
    return track(next);
  }

  /** Runs `work` for every item, at most `concurrency` at once; failures are logged, not thrown. */
  async function fanOut<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < items.length; index = next++) {
        try {
          await work(items[index] as T);
        } catch (error) {
          deps.log?.error({ err: error }, 'copy engine: a relation failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  }

  async function accountOf(accountId: number): Promise<ExchangeAccountRow> {
    return execution.account(accountId);
  }

  /**
   * Builds the accounts' exchange clients and loads their markets ahead of the leader's next
   * change, one account at a time in the background: a live client costs milliseconds of CPU to
   * build, which a fan-out to a thousand new followers would otherwise pay on its path. A failure
   * (the venue's market list cannot be read) ends the pass: the next pass tries again, and an
   * order that needs the client meanwhile builds it and reports the failure itself.
   */
  async function prepareClients(accountIds: readonly number[]): Promise<void> {
    for (const accountId of new Set(accountIds)) {
      if (isStopping) return;
      if (prepared.has(accountId)) continue;
      prepared.add(accountId);
      try {
        await execution.clientOf(await accountOf(accountId)).loadMarkets();
      } catch {
        prepared.delete(accountId);
        return;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function leaderEquity(leaderAccountId: number): Promise<string> {
    const account = await accountOf(leaderAccountId);
    const balance = await execution.clientOf(account).fetchBalance();
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
      for (const held of await execution.clientOf(account).fetchPositions(symbols)) {
        if (held.markPrice !== null) marks.set(held.symbol, held.markPrice);
      }
    } catch {
      // Unmarked positions count at their entry (no unrealised P&L) until the next look.
    }
    return marks;
  }

  async function recordFailure(relation: CopyRelationRow, symbol: string, failure: Failure) {
    const now = clock.now();
    await repo.update(relation.id, {
      lastError: `${symbol}: ${failure.message}`.slice(0, 1000),
      lastErrorAt: now,
      updatedAt: now,
    });
    await deps.operationLog.record({
      userId: relation.followerUserId,
      type: 'error',
      event: 'copy_failed',
      botSymbol: symbol,
      message: `Copy of ${symbol} failed: ${failure.message}`.slice(0, 1000),
      details: {
        relation_id: relation.id,
        reason: failure.reason,
        error_kind: failure.errorKind,
      },
    });
  }

  /** Copied P&L: realised + unrealised (at `marks`, else the entry) − entry fees held. */
  function copiedPnl(book: readonly CopyBookRow[], marks: ReadonlyMap<string, number>): Decimal {
    let pnl = new Decimal(0);
    for (const row of book) {
      pnl = pnl.plus(row.realizedPnl);
      if (new Decimal(row.size).isZero()) continue;
      const mark = marks.get(row.symbol) ?? Number(row.entryPrice);
      pnl = pnl.plus(new Decimal(mark).minus(row.entryPrice).times(row.size)).minus(row.entryFee);
    }
    return pnl;
  }

  /**
   * The relation's copied P&L and trade count, saved on it. Without `fill`, its open positions
   * are valued at the exchange's marks; with it (a fan-out, which must not read every follower's
   * positions), the symbol just filled at its fill price and the others at their last marks.
   */
  async function refreshFigures(
    relation: CopyRelationRow,
    options: {
      readonly fill?: { readonly symbol: string; readonly price: number };
      /** Marks by exchange|symbol shared by a timer pass (filled from this account when missing). */
      readonly venueMarks?: Map<string, number>;
      /** Runs with the P&L before the relation's figures are saved (which count the receipts). */
      readonly beforeSave?: (pnl: string) => Promise<unknown>;
      readonly clearError?: boolean;
    } = {},
  ): Promise<CopyRelationRow> {
    const book = await loaders.copyBook.run({
      relationId: relation.id,
      followerAccountId: relation.followerAccountId,
    });
    let marks: Map<string, number>;
    if (options.fill) {
      marks = new Map(lastMarks.get(relation.id));
      marks.set(options.fill.symbol, options.fill.price);
    } else {
      const open = book.filter((row) => !new Decimal(row.size).isZero()).map((row) => row.symbol);
      const account = await accountOf(relation.followerAccountId);
      const shared = options.venueMarks;
      if (shared) {
        const key = (symbol: string) => `${account.exchange}|${symbol}`;
        const missing = open.filter((symbol) => !shared.has(key(symbol)));
        if (missing.length > 0) {
          for (const [symbol, mark] of await marksOf(account, missing))
            shared.set(key(symbol), mark);
        }
        marks = new Map(
          open.flatMap((symbol) => {
            const mark = shared.get(key(symbol));
            return mark === undefined ? [] : [[symbol, mark] as const];
          }),
        );
      } else {
        marks = await marksOf(account, open);
      }
    }
    lastMarks.set(relation.id, marks);
    const pnl = copiedPnl(book, marks).toFixed(10);
    await options.beforeSave?.(pnl);
    const updated = await loaders.figures.run({
      id: relation.id,
      totalProfitLoss: pnl,
      clearError: options.clearError ?? false,
    });
    return updated ?? relation;
  }

  /** Pauses a relation whose follower account's risk gate refused an opening (kept open). */
  async function pauseForRisk(
    relation: CopyRelationRow,
    reason: 'risk_halted' | 'risk_limit',
    message: string,
  ) {
    const at = clock.now();
    const paused = await transitionTelling(
      deps,
      relation.id,
      ['active'],
      { status: 'paused', pauseReason: reason, updatedAt: at },
      { status: 'paused', reason, at },
    );
    if (!paused) return;
    await deps.operationLog.record({
      userId: paused.followerUserId,
      type: 'system',
      event: 'copy_paused',
      message: `Copy trading paused: ${message}`.slice(0, 1000),
      details: { relation_id: paused.id, leader_account_id: paused.leaderAccountId, reason },
    });
  }

  /** Stops a relation on its own (max loss, the leader's drawdown) and closes its positions. */
  async function autoStop(relation: CopyRelationRow, reason: 'max_loss' | 'leader_drawdown') {
    const stopped = await stopRelation(deps, relation.id, reason, clock.now());
    if (!stopped) return;
    await deps.operationLog.record({
      userId: stopped.followerUserId,
      type: 'system',
      event: 'copy_stopped',
      message:
        reason === 'max_loss'
          ? `Copy trading stopped: the loss reached the limit of ${new Decimal(stopped.maxLoss ?? 0).toString()} USDT`
          : stopped.copyMode === 'reverse'
            ? `Copy trading stopped: the leader's rise from its low passed ${stopped.leaderDrawdownLimitPercent}%`
            : `Copy trading stopped: the leader's drawdown passed ${stopped.leaderDrawdownLimitPercent}%`,
      details: {
        relation_id: stopped.id,
        reason,
        copy_mode: stopped.copyMode,
        limit:
          reason === 'max_loss'
            ? new Decimal(stopped.maxLoss ?? 0).toNumber()
            : stopped.leaderDrawdownLimitPercent,
        total_profit_loss: new Decimal(stopped.totalProfitLoss).toString(),
      },
    });
    await closeAllNow(stopped.id);
  }

  /** Max loss: copied P&L at or below −max_loss stops the relation. */
  async function checkLimits(relation: CopyRelationRow): Promise<void> {
    if (relation.status === 'stopped' || relation.maxLoss === null) return;
    const limit = new Decimal(relation.maxLoss);
    if (limit.lte(0)) return;
    if (new Decimal(relation.totalProfitLoss).lte(limit.neg())) {
      await autoStop(relation, 'max_loss');
    }
  }

  /** Closes the relation's copied positions; a failed close is recorded and reported. */
  async function closeAllNow(relationId: number): Promise<CloseOutcome> {
    const outcome: CloseOutcome = { closed: [], failed: [] };
    const relation = await repo.relation(relationId);
    if (!relation) return outcome;
    const owner = ownerOf(relationId);
    // An order in flight when the process stopped is settled (or failed) before closing.
    await execution.reconcileIntents(owner).catch(() => undefined);
    const book = await repo.copyBook(relationId, relation.followerAccountId);
    for (const row of book) {
      if (new Decimal(row.size).isZero()) continue;
      // One close per stop and symbol: a retry (the timer, the account's deletion) sends it
      // only if it was never written (the key refused before it left); a refused one is final.
      const key = stopKey(row.symbol, relation.stoppedAt);
      const [made] = await execution.intentsOf(owner, key);
      if (made && (made.status === 'rejected' || made.status === 'expired')) {
        outcome.failed.push({
          symbol: row.symbol,
          error: new ExecutionError('rejected', `order ${made.clientOrderId} ${made.status}`),
        });
        continue;
      }
      try {
        await execution.submit({
          accountId: relation.followerAccountId,
          symbol: row.symbol,
          owner,
          key,
          ...fenceOf(relationId),
          size: { kind: 'close' },
          pricing: { type: 'market' },
          action: 'copy_close',
        });
        outcome.closed.push(row.symbol);
      } catch (error) {
        await recordFailure(relation, row.symbol, classifyCopyFailure(error));
        outcome.failed.push({ symbol: row.symbol, error });
      }
    }
    await refreshFigures(relation);
    return outcome;
  }

  function backoffMs(attempts: number): number {
    return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  }

  /**
   * Moves one relation toward its target on one symbol, for the leader's current change. Writes
   * the change's receipt (copied or missed, why), the relation's figures and its limits.
   */
  async function reconcileSymbol(
    relationId: number,
    symbol: string,
    trigger: Trigger,
  ): Promise<void> {
    const relation = await loaders.relation.run(relationId);
    if (!relation || relation.status === 'stopped') return;
    const leaderBook = await leaderBookOf(relation.leaderAccountId);
    const state = leaderBook.find((s) => s.symbol === symbol);
    const leaderSize = new Decimal(state?.size ?? 0);
    const version = state?.version ?? 'none';
    const changeKey = `${symbol}|${version}`;
    const start = relation.leaderStartBook[symbol];
    const owner = ownerOf(relation.id);
    const bookRef = { accountId: relation.followerAccountId, symbol, owner };
    const [existing, latest, ownPosition, live] = await Promise.all([
      loaders.receipt.run({ relationId: relation.id, changeKey }),
      loaders.latestOnSymbol.run({ relationId: relation.id, symbol }),
      execution.position(bookRef),
      execution.liveIntentsOn(bookRef),
    ]);
    const own = new Decimal(ownPosition.size);
    // An order of the relation on the symbol is still on its way (accepted, in doubt): nothing
    // is decided until the venue has answered — a second order now would double the copy.
    // A created intent never left: of this decision it is sent below under its own key; of an
    // older decision (the leader moved on while its process was down) it is an orphan that
    // must not hold the relation back.
    if (live.some((intent) => intent.status !== 'created')) return;

    if (trigger.kind === 'event' && existing) return; // a repeated event: this change is done
    if (trigger.kind === 'heal') {
      if (!existing && start && start.version === version) return; // nothing changed since joining
      if (existing?.status === 'missed') {
        const reason = existing.missReason;
        if (!reason || !RETRYABLE.has(reason)) return;
        const due = existing.updatedAt.getTime() + backoffMs(existing.attempts);
        if (!trigger.ignoreBackoff && clock.now().getTime() < due) return;
      }
    }

    // The previous leader size this relation saw: its latest receipt on the symbol, else the
    // book at the start.
    const previous = latest.find((r) => r.changeKey !== changeKey);
    const previousLeader = new Decimal(previous?.leaderSize ?? start?.size ?? 0);
    const fill = lastFills.get(`${relation.leaderAccountId}|${symbol}`);
    const leaderPrice = fill?.price ?? (Number(state?.entryPrice ?? 0) || null);
    const changedAtMs = state ? Number(state.version.split('|')[0]) : clock.now().getTime();
    // One decision, one key: the leader's change on the symbol at the relation's sizing (an edit
    // of the amount re-bases it: the user's new decision). Its orders are the legs c/o/r.
    const firstKey = decisionKey(changeKey, relation);
    // A heal (after a restart, a missed event, an order the follower settled after the submit)
    // finds the decision's orders, all final here: made already. Its receipt is written from
    // them when there is none yet; nothing is sent again. (Events, the fan-out's path, skip this
    // read: a repeated key answers `done`.)
    const tries = trigger.kind !== 'event' ? await execution.intentsOf(owner, `${firstKey}|`) : [];
    // An order proven never to have reached the venue (expired: its process died after claiming
    // it) made nothing: the decision is made again, keyed by how many such orders it has.
    const expired = tries.filter((o) => o.status === 'expired').length;
    const orderKey = expired === 0 ? firstKey : `${firstKey}|x${expired}`;
    const earlier = tries.filter((o) => o.status !== 'expired');
    // Passes that met this change and could not act on it (the miss receipt's backoff).
    const attempts = (existing?.attempts ?? 0) + 1;
    const now = clock.now();
    const receiptBase = {
      relationId: relation.id,
      changeKey,
      symbol,
      leaderSize: leaderSize.toString(),
      leaderSizeDelta: leaderSize.minus(previousLeader).toString(),
      leaderPrice: leaderPrice === null ? null : String(leaderPrice),
      leaderFilledAt: new Date(fill?.atMs ?? changedAtMs),
      attempts,
      createdAt: now,
      updatedAt: now,
    };
    const miss = async (
      reason: CopyMissReason,
      target: Decimal,
      failure?: Failure,
    ): Promise<CopyReceiptRow> => {
      if (failure) await recordFailure(relation as CopyRelationRow, symbol, failure);
      return loaders.saveReceipt.run({
        ...receiptBase,
        targetSize: target.toString(),
        status: 'missed',
        missReason: reason,
        errorKind: failure?.errorKind ?? null,
        relationPnl: relation?.totalProfitLoss ?? null,
      });
    };

    /**
     * The change's receipt, copied: the follower's filled size at the order's price (the
     * weighted average of its venue trades), added to what an earlier decision on the same
     * change copied (a re-based amount), then the relation's figures and its limits.
     */
    const copiedReceipt = async (fill: {
      readonly target: Decimal;
      readonly delta: Decimal;
      readonly price: number | null;
      readonly filledAt: Date | null;
    }) => {
      const current = relation as CopyRelationRow;
      const copiedBefore =
        existing?.status === 'copied'
          ? new Decimal(existing.followerSizeDelta ?? 0)
          : new Decimal(0);
      const side = fill.delta.gt(0) ? 'buy' : 'sell';
      const copied = {
        ...receiptBase,
        targetSize: fill.target.toString(),
        followerSizeDelta: fill.delta.plus(copiedBefore).toString(),
        followerPrice: fill.price === null ? null : String(fill.price),
        slippageBps:
          fill.price !== null && leaderPrice !== null
            ? slippageOf(side, leaderPrice, fill.price)
            : null,
        delayMs:
          fill.filledAt === null
            ? null
            : Math.max(
                0,
                Math.round(fill.filledAt.getTime() - receiptBase.leaderFilledAt.getTime()),
              ),
        status: 'copied' as const,
      };
      // The receipt carries the P&L after it; the figures count it, so it is written first.
      const updated = await refreshFigures(current, {
        ...(fill.price !== null ? { fill: { symbol, price: fill.price } } : {}),
        clearError: current.lastError !== null,
        beforeSave: (pnl) => loaders.saveReceipt.run({ ...copied, relationPnl: pnl }),
      });
      await checkLimits(updated);
    };

    /** The receipt of a decision made before, from its orders (all final). */
    const decided = async (orders: readonly ExecutionOrderRow[]) => {
      const filled = orders.filter((o) => new Decimal(o.filledAmount ?? 0).gt(0));
      if (filled.length === 0) {
        const refused = orders.find((o) => o.status === 'rejected' || o.status === 'expired');
        await (refused
          ? miss('exchange_error', own, {
              reason: 'exchange_error',
              errorKind: 'rejected',
              message: `order ${refused.clientOrderId} ${refused.status}: ${refused.error ?? ''}`,
            })
          : miss('capped', own));
        return;
      }
      const delta = filled.reduce(
        (sum, o) => sum.plus(new Decimal(o.filledAmount ?? 0).times(o.side === 'buy' ? 1 : -1)),
        new Decimal(0),
      );
      const last = filled.at(-1) as ExecutionOrderRow;
      await copiedReceipt({
        target: own,
        delta,
        price: last.averagePrice === null ? null : Number(last.averagePrice),
        filledAt: last.updatedAt,
      });
    };

    // Made before (only a flip's closing leg may come before its opening one): never again.
    if (
      earlier.some(
        (o) => !o.idempotencyKey.endsWith('|c') || !new Decimal(o.filledAmount ?? 0).gt(0),
      )
    ) {
      if (!existing) await decided(earlier);
      return;
    }

    if (relation.status === 'paused') {
      if (!existing) await miss('paused', own);
      return;
    }

    // A follower who never joined this position does not open on the leader's reductions.
    const joins = copyJoins({
      leaderSize,
      previousLeaderSize: previousLeader,
      followerSize: own,
      isLateJoin: trigger.kind === 'late_join',
    });
    if (!joins) {
      if (existing) return; // recorded already; a later pass must not overwrite what it says
      await loaders.saveReceipt.run({
        ...receiptBase,
        targetSize: '0',
        followerSizeDelta: '0',
        status: 'copied',
        relationPnl: relation.totalProfitLoss,
      });
      return;
    }

    const follower = await accountOf(relation.followerAccountId);
    if (!follower.isActive) {
      // A disabled account takes no orders: missed as paused (the timer pauses the relation).
      if (!existing) await miss('paused', own);
      return;
    }
    let facts: MarketFacts;
    try {
      facts = await execution.clientOf(follower).marketFacts(symbol);
    } catch (error) {
      const failure = classifyCopyFailure(error);
      await miss(failure.reason, own, failure);
      return;
    }
    // The sizing, reverse, the venue's step and minimums and the entry cap: the engine's one
    // decision, which the copy simulator replays too.
    const decision = copyDecision({
      leaderSize,
      ratio: copyRatio(relation.copyAmount, relation.leaderEquityBase),
      mode: relation.copyMode,
      followerSize: own,
      market: facts,
      leaderPrice,
      slippageCapPercent: slippageCapPercent(relation, symbol),
    });
    if (decision.kind === 'below_minimum') {
      await miss('below_minimum', new Decimal(decision.target));
      await repo.update(relation.id, {
        lastError: `${symbol}: the copied size ${new Decimal(decision.unrounded).toDecimalPlaces(8)} is below the market's minimum ${decision.minimum}${decision.limit === 'notional' ? ' USDT' : ''}`,
        lastErrorAt: now,
      });
      return;
    }
    const target = new Decimal(decision.target);

    if (decision.kind === 'hold') {
      // Held already. A timer pass after this change was copied must keep the receipt's fill
      // (it once overwrote it with a zero delta, so the copied trade vanished from the count).
      if (existing) return;
      if (earlier.length > 0) {
        // A flip's closing leg that left the follower at the target: that is the decision.
        await decided(earlier);
        return;
      }
      await loaders.saveReceipt.run({
        ...receiptBase,
        targetSize: target.toString(),
        followerSizeDelta: '0',
        status: 'copied',
        relationPnl: relation.totalProfitLoss,
      });
      return;
    }

    // An increase (not a flip, whose opening leg follows a close).
    const opens = decision.legs.length === 1 && decision.legs[0]?.leg === 'o';
    const results: IntentResult[] = [];
    try {
      for (const leg of decision.legs) {
        results.push(
          await execution.submit({
            accountId: follower.id,
            symbol,
            owner,
            key: `${orderKey}|${leg.leg}`,
            ...fenceOf(relation.id),
            size: { kind: 'target', amount: leg.targetSize },
            pricing:
              leg.priceCap === null ? { type: 'market' } : { type: 'ioc', priceCap: leg.priceCap },
            action: leg.action,
            ...(leg.leg === 'o' && leaderPrice !== null ? { referencePrice: leaderPrice } : {}),
          }),
        );
        // A flip's close is still on its way: the opening leg waits for the next pass.
        if (results.at(-1)?.status === 'in_flight') return;
      }
    } catch (error) {
      // Another worker holds the relation now: it decides (nothing was sent).
      if (error instanceof ExecutionError && error.kind === 'fenced') return;
      // Refused (or never sent): final for this decision; the next change decides again.
      const failure = classifyCopyFailure(error);
      await miss(failure.reason, target, failure);
      // The follower's account refused the opening by its risk gate: the copy pauses with it.
      if (
        error instanceof ExecutionError &&
        (error.kind === 'risk_halted' || error.kind === 'risk_limit')
      ) {
        await pauseForRisk(relation as CopyRelationRow, error.kind, error.message);
      }
      return;
    }

    // Accepted and not filled yet: the core's follower settles it, and the next pass writes
    // this change's receipt from the settled order.
    if (results.some((r) => r.status === 'in_flight')) return;
    const last = results.at(-1);
    // Made before (a repeated event met the settled key): its receipt from its orders.
    if (last?.status === 'done') {
      if (!existing) await decided(await execution.intentsOf(owner, `${orderKey}|`));
      return;
    }
    if (last?.status === 'skipped') {
      await miss('below_minimum', target);
      return;
    }
    const after = new Decimal(
      (last?.status === 'filled'
        ? last.settlement.after
        : last && 'position' in last && last.position
          ? last.position
          : await execution.position({ accountId: follower.id, symbol, owner })
      ).size,
    );
    const delta = after.minus(own);
    if (delta.isZero() && (last?.status === 'not_filled' || (opens && last?.status !== 'noop'))) {
      // The IOC found no price inside the cap: missed, final for this decision.
      await miss('capped', target);
      return;
    }
    const settlement = [...results].reverse().find((r) => r.status === 'filled');
    const order = settlement?.status === 'filled' ? settlement.settlement : null;
    await copiedReceipt({
      target,
      delta,
      // The order's average over its venue trades (a settlement's own price is its part only).
      price: order ? Number(order.intent.averagePrice ?? order.price) : null,
      filledAt: order ? order.filledAt : null,
    });
  }

  /** Every symbol the leader's book or the relation's own book holds. */
  async function symbolsOf(relation: CopyRelationRow): Promise<string[]> {
    const leader = await leaderBookOf(relation.leaderAccountId);
    const own = await loaders.copyBook.run({
      relationId: relation.id,
      followerAccountId: relation.followerAccountId,
    });
    return [...new Set([...leader.map((s) => s.symbol), ...own.map((r) => r.symbol)])];
  }

  /**
   * Orders of the relation's current decisions written and never claimed (by a process that
   * died or froze before sending, or lost the lease): sent now under their own keys — the same
   * decision, once; the claim is fenced by this process's lease, so the old holder cannot send
   * it too. (Reconcile would call them never sent, and the decision would be lost.)
   */
  async function sendWrittenDecisions(relation: CopyRelationRow): Promise<void> {
    const owner = ownerOf(relation.id);
    const leader = await leaderBookOf(relation.leaderAccountId);
    for (const symbol of await symbolsOf(relation)) {
      const state = leader.find((s) => s.symbol === symbol);
      const decision = decisionKey(`${symbol}|${state?.version ?? 'none'}`, relation);
      const ref = { accountId: relation.followerAccountId, symbol, owner };
      const written = (await execution.liveIntentsOn(ref)).filter(
        (i) => i.status === 'created' && i.idempotencyKey.startsWith(`${decision}|`),
      );
      for (const key of new Set(written.map((i) => i.idempotencyKey))) {
        const row = written.find((i) => i.idempotencyKey === key) as ExecutionOrderRow;
        // The stored intent is driven; the size given here is not used for a key that exists.
        await execution
          .submit({
            ...ref,
            key,
            size: { kind: 'target', amount: 0 },
            action: row.action,
            ...fenceOf(relation.id),
          })
          .catch(() => undefined); // refused: reconcile and the decision's receipt say so
      }
    }
  }

  /**
   * Heals a relation: its unsettled orders first (when `reconcile`: after a restart, a takeover,
   * an unknown outcome), then every symbol to its target, then its figures and limits. `venueMarks`
   * (a timer pass's, by exchange|symbol) lets the relations of one pass share the venue's marks
   * instead of each reading its own account's positions.
   */
  async function heal(
    relationId: number,
    options: {
      readonly ignoreBackoff: boolean;
      readonly reconcile: boolean;
      readonly venueMarks?: Map<string, number>;
    },
  ): Promise<void> {
    const relation = await loaders.relation.run(relationId);
    if (relation?.status !== 'active') return;
    // Orders in flight when the process stopped are settled before any new decision.
    if (options.reconcile) {
      await sendWrittenDecisions(relation);
      await execution.reconcileIntents(ownerOf(relationId));
    }
    for (const symbol of await symbolsOf(relation)) {
      await reconcileSymbol(relationId, symbol, {
        kind: 'heal',
        ignoreBackoff: options.ignoreBackoff,
      });
    }
    const fresh = await loaders.relation.run(relationId);
    if (fresh && fresh.status !== 'stopped') {
      await checkLimits(
        await refreshFigures(fresh, options.venueMarks ? { venueMarks: options.venueMarks } : {}),
      );
    }
  }

  async function lateJoin(relationId: number): Promise<void> {
    const relation = await repo.relation(relationId);
    if (relation?.status !== 'active') return;
    const leaderAccount = await accountOf(relation.leaderAccountId);
    const book = (await leaderBookOf(relation.leaderAccountId)).filter(
      (s) => !new Decimal(s.size).isZero(),
    );
    const marks = await marksOf(
      leaderAccount,
      book.map((s) => s.symbol),
    );
    for (const state of book) {
      const mark = marks.get(state.symbol);
      const entry = Number(state.entryPrice);
      if (
        mark === undefined ||
        !isWithinEntryDistance(entry, mark, relation.entryDistancePercent)
      ) {
        const now = clock.now();
        await loaders.saveReceipt.run({
          relationId,
          changeKey: `${state.symbol}|${state.version}`,
          symbol: state.symbol,
          leaderSize: state.size,
          leaderSizeDelta: '0',
          leaderPrice: state.entryPrice,
          leaderFilledAt: new Date(Number(state.version.split('|')[0])),
          targetSize: '0',
          status: 'missed',
          missReason: 'too_far_from_entry',
          createdAt: now,
          updatedAt: now,
        });
        continue;
      }
      // The leader's entry is the cap's reference for a late join.
      lastFills.set(`${relation.leaderAccountId}|${state.symbol}`, {
        price: mark,
        atMs: clock.now().getTime(),
      });
      await reconcileSymbol(relationId, state.symbol, { kind: 'late_join' });
    }
  }

  async function onPositionChanged(event: BusEvent<'PositionChanged'>): Promise<void> {
    const { accountId, symbol } = event.payload;
    const copiers = await loaders.copiersOf.run(accountId);
    if (copiers.length === 0) return;
    const relations = await held(copiers);
    await fanOut(relations, (relation) =>
      serial(relation.id, () => reconcileSymbol(relation.id, symbol, { kind: 'event' })),
    );
  }

  /** One pass over every relation: heal targets, retry misses, the leader breaker, closes. */
  async function tickOnce(): Promise<void> {
    // What changed outside the relations first (a missed event catches up here): copies on
    // disabled accounts pause (enabled again, resume); a withdrawn strategy's copies end.
    await lifecycle
      .followAccounts()
      .catch((error) => deps.log?.error({ err: error }, 'copy engine: accounts pass failed'));
    if (strategyOf) {
      const live = await repo.relationsByStatus(['active', 'paused']);
      await lifecycle
        .endWithdrawn(live.map((r) => r.leaderAccountId))
        .catch((error) => deps.log?.error({ err: error }, 'copy engine: leaders pass failed'));
    }
    const relations = await held(await repo.relationsByStatus(['active']));
    // The leaders' exchange positions first: what they traded outside the platform is copied by
    // this pass's heal.
    const leaders = [...new Set(relations.map((r) => r.leaderAccountId))];
    await fanOut(leaders, (accountId) =>
      pollLeader(accountId).catch((error) =>
        deps.log?.error({ err: error, accountId }, 'copy engine: leader poll failed'),
      ),
    );
    const equities = new Map<number, Promise<string | null>>();
    const equityOf = (leaderAccountId: number) => {
      let found = equities.get(leaderAccountId);
      if (!found) {
        found = leaderEquity(leaderAccountId).catch(() => null);
        equities.set(leaderAccountId, found);
      }
      return found;
    };
    // Orders to reconcile: only the relations that have some (one query for the pass).
    const unsettled = new Set(
      (await execution.ownersWithUnsettledIntents(relations.map((r) => ownerOf(r.id)))).map(
        (owner) => owner.id,
      ),
    );
    const venueMarks = new Map<string, number>();
    await fanOut(relations, (relation) =>
      serial(relation.id, async () => {
        const equity = await equityOf(relation.leaderAccountId);
        if (equity !== null) {
          const peak = Decimal.max(relation.leaderEquityPeak, equity);
          const trough = Decimal.min(relation.leaderEquityTrough, equity);
          const moved =
            !peak.eq(relation.leaderEquityPeak) ||
            !trough.eq(relation.leaderEquityTrough) ||
            !new Decimal(equity).eq(relation.leaderEquityLast);
          const updated = moved
            ? ((await repo.update(relation.id, {
                leaderEquityLast: equity,
                leaderEquityPeak: peak.toString(),
                leaderEquityTrough: trough.toString(),
              })) ?? relation)
            : relation;
          const limit = updated.leaderDrawdownLimitPercent;
          if (
            limit !== null &&
            leaderDriftPercent({ peak, trough, equity, mode: updated.copyMode }) >= limit
          ) {
            await autoStop(updated, 'leader_drawdown');
            return;
          }
        }
        await heal(relation.id, {
          ignoreBackoff: false,
          reconcile: unsettled.has(relation.id),
          venueMarks,
        });
      }),
    );
    void track(prepareClients(relations.map((r) => r.followerAccountId)));
    // Stopped relations whose closes failed: tried again (the key's try moves with the clock).
    const stopped = await held(await repo.stoppedWithOpenPositions());
    await fanOut(stopped, async (relation) => {
      const due =
        relation.lastErrorAt === null ||
        clock.now().getTime() - relation.lastErrorAt.getTime() >= RETRY_BASE_MS * 12;
      if (due) await serial(relation.id, () => closeAllNow(relation.id));
    });
  }

  const port: CopyEnginePort = {
    leaderEquity,
    async leaderStartBook(leaderAccountId) {
      const book: Record<string, { size: string; version: string }> = {};
      for (const state of await leaderBookOf(leaderAccountId)) {
        book[state.symbol] = { size: state.size, version: state.version };
      }
      return book;
    },
    // A relation another process holds is left to it: its timer heals a resumed relation and
    // closes a stopped one's positions.
    started(relationId, options) {
      void track(
        (async () => {
          const relation = await loaders.relation.run(relationId);
          if (relation) await prepareClients([relation.followerAccountId]);
        })(),
      ).catch(() => undefined);
      if (!options.openCurrentPositions) return;
      void whenHeld(relationId, () => lateJoin(relationId)).catch((error) =>
        deps.log?.error({ err: error, relationId }, 'copy engine: late join failed'),
      );
    },
    resumed(relationId) {
      void whenHeld(relationId, () =>
        heal(relationId, { ignoreBackoff: true, reconcile: true }),
      ).catch((error) => deps.log?.error({ err: error, relationId }, 'copy engine: resume failed'));
    },
    closeAll: (relationId) =>
      whenHeld(relationId, async () => {
        await closeAllNow(relationId);
      }).catch((error) =>
        deps.log?.error({ err: error, relationId }, 'copy engine: closing failed'),
      ),
    // The account goes with this request: closed here and now, whoever holds the lease.
    closeNow: (relationId) => serial(relationId, () => closeAllNow(relationId)),
    async positions(relation): Promise<CopyPosition[]> {
      const open = (await repo.copyBook(relation.id, relation.followerAccountId)).filter(
        (row) => !new Decimal(row.size).isZero(),
      );
      const marks = await marksOf(
        await accountOf(relation.followerAccountId),
        open.map((r) => r.symbol),
      );
      return open.map((row) => {
        const mark = marks.get(row.symbol);
        const size = new Decimal(row.size);
        return {
          symbol: row.symbol,
          size: size.toString(),
          side: size.gt(0) ? 'long' : 'short',
          entry_price: new Decimal(row.entryPrice).toString(),
          mark_price: mark === undefined ? null : String(mark),
          unrealized_pnl:
            mark === undefined
              ? null
              : new Decimal(mark).minus(row.entryPrice).times(size).toDecimalPlaces(8).toString(),
        };
      });
    },
  };

  return {
    ...port,
    /** Follows the leaders' fills and position changes, and starts the reconcile timer. */
    start(): void {
      if (unsubscribe.length > 0) return;
      isStopping = false;
      unsubscribe = [
        deps.events.subscribe('OrderFilled', (event) => {
          const { accountId, symbol, price, filledAtMs } = event.payload;
          lastFills.set(`${accountId}|${symbol}`, { price, atMs: filledAtMs });
        }),
        deps.events.subscribe('StrategySharingChanged', (event) =>
          track(lifecycle.endWithdrawn([event.payload.accountId])).then(
            () => undefined,
            (error) => deps.log?.error({ err: error }, 'copy engine: a strategy change failed'),
          ),
        ),
        deps.events.subscribe('PositionChanged', (event) =>
          track(onPositionChanged(event)).catch((error) =>
            deps.log?.error({ err: error }, 'copy engine: a leader change failed'),
          ),
        ),
      ];
      const interval = deps.reconcileIntervalMs ?? DEFAULT_COPY_RECONCILE_INTERVAL_MS;
      timer = setInterval(() => {
        void this.tick();
      }, interval);
      timer.unref();
      leaseTimer = setInterval(() => {
        void leaseUpkeep().catch((error) =>
          deps.log?.error({ err: error }, 'copy engine: lease upkeep failed'),
        );
      }, deps.leaseRenewMs ?? LEASE_RENEW_MS);
      leaseTimer.unref();
      // After a restart: every active relation heals at once (orders in flight settled first).
      void this.tick();
    },
    /** One reconcile pass (the timer's; tests call it directly). Concurrent calls share one. */
    tick(): Promise<void> {
      if (!ticking) {
        ticking = track(tickOnce())
          .catch((error) => deps.log?.error({ err: error }, 'copy engine: tick failed'))
          .finally(() => {
            ticking = null;
          });
      }
      return ticking;
    },
    /** Copies one leader change now (what a PositionChanged event does). */
    leaderChanged: (accountId: number, symbol: string) =>
      onPositionChanged({
        id: `manual-${accountId}-${symbol}`,
        type: 'PositionChanged',
        at: clock.now().toISOString(),
        payload: {
          accountId,
          userId: 0,
          symbol,
          owner: { kind: 'manual', id: 0 },
          size: 0,
          entryPrice: null,
          changedAtMs: clock.now().getTime(),
        },
      }),
    /** Resolves once the work started so far (events, timer, late joins) has finished. */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async stop(): Promise<void> {
      isStopping = true;
      for (const off of unsubscribe) off();
      unsubscribe = [];
      if (timer) clearInterval(timer);
      if (leaseTimer) clearInterval(leaseTimer);
      timer = undefined;
      leaseTimer = undefined;
      await this.idle();
      // Another process takes the relations over at once (the bots' leases, if shared, stay).
      await leases.release(leases.held().filter(isCopyLease)).catch(() => undefined);
    },
  };
}
export type CopyEngine = ReturnType<typeof createCopyEngine>;
