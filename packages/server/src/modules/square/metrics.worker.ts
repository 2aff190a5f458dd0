import { Decimal } from 'decimal.js';
import { HOUR_MS, type ScheduledJob } from '../../common/scheduler.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import type { AccountClients } from '../../exchange/account-clients.js';
import type { ExchangeClient, ExchangePosition } from '../../exchange/exchange-client.js';
import { withTimeout } from '../accounts/exchange-call.js';
import type { MetricsRepository } from './metrics.repository.js';
import type { MetricsService } from './metrics.service.js';
import { EXCHANGE_EVENT_PREFIX, type ReadModelRepository } from './read-model.repository.js';

export interface MetricsWorkerLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** The hourly pass runs this long after the hour, once the balance snapshots are written. */
export const METRICS_SLOT_OFFSET_MS = 2 * 60_000;
/** Fills and snapshots of one account within this time share one recomputation. */
export const METRICS_DEBOUNCE_MS = 2_000;
const MARK_CONCURRENCY = 4;
/** Exchange fills younger than this may still arrive on the event bus: imported next hour. */
export const IMPORT_SETTLE_MS = 10 * 60_000;
/** How far back the first import of a live account's trade history looks. */
export const IMPORT_FIRST_LOOKBACK_MS = 7 * 24 * HOUR_MS;

/**
 * Recomputes an account's square figures shortly after each of its fills (the read model calls
 * `refreshSoon`) and balance snapshots (BalanceChanged); bursts share one recomputation.
 */
export function createMetricsRefresher(deps: {
  metrics: MetricsService;
  events: EventBus;
  log: MetricsWorkerLogger;
  debounceMs?: number;
}) {
  /** Accounts waiting for their debounce, and whether their refresh marks the wallet. */
  const dirty = new Map<number, boolean>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();
  let unsubscribe: (() => void) | undefined;
  let isStopped = false;

  async function refresh(accountId: number, markWallet: boolean): Promise<void> {
    try {
      await deps.metrics.refreshAccount(accountId, { markWallet });
    } catch (error) {
      deps.log.error({ err: error, accountId }, 'strategy metrics refresh failed');
    }
  }

  /** Recomputes the accounts waiting for their debounce now (one pass at a time). */
  function flush(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    flushing = flushing.then(async () => {
      const waiting = [...dirty];
      dirty.clear();
      for (const [id, markWallet] of waiting) await refresh(id, markWallet);
    });
    return flushing;
  }

  return {
    /** `markWallet`: the refresh reads the wallet first (after a fill). */
    refreshSoon(accountId: number, markWallet = false): void {
      if (isStopped) return;
      dirty.set(accountId, markWallet || dirty.get(accountId) === true);
      timer ??= setTimeout(() => void flush(), deps.debounceMs ?? METRICS_DEBOUNCE_MS);
    },
    flush,
    start(): void {
      isStopped = false;
      unsubscribe ??= deps.events.subscribe('BalanceChanged', (event) =>
        this.refreshSoon(event.payload.accountId),
      );
    },
    async stop(): Promise<void> {
      isStopped = true;
      unsubscribe?.();
      unsubscribe = undefined;
      if (timer) clearTimeout(timer);
      timer = undefined;
      dirty.clear();
      await flushing;
    },
  };
}
export type MetricsRefresher = ReturnType<typeof createMetricsRefresher>;

/**
 * Writes a wallet mark of the account: its equity, unrealised P&L and realised P&L so far, read
 * together. The hourly job marks every active account; the figures' refresh marks a public one
 * after its fills, so its figures and curve follow them between the hours. `beforeWrite` runs
 * with what was read (the hourly job imports the exchange's own trades there).
 */
export function createWalletMarker(deps: {
  repo: MetricsRepository;
  clientFor: AccountClients;
  exchangeTimeoutMs: number;
}) {
  return async function mark(
    account: ExchangeAccountRow,
    takenAt: Date,
    beforeWrite?: (client: ExchangeClient, positions: readonly ExchangePosition[]) => unknown,
  ): Promise<void> {
    const client = deps.clientFor(account);
    const [balances, positions] = await withTimeout(
      Promise.all([client.fetchBalance(), client.fetchPositions()]),
      deps.exchangeTimeoutMs,
    );
    await beforeWrite?.(client, positions);
    const unrealized = positions.reduce(
      (sum, p) => sum.plus(Number.isFinite(p.unrealizedPnl) ? p.unrealizedPnl : 0),
      new Decimal(0),
    );
    await deps.repo.insertWalletMark({
      accountId: account.id,
      takenAt,
      equity: String(balances.USDT?.total ?? 0),
      unrealizedPnl: unrealized.toString(),
      realizedPnlCum: await deps.repo.realizedPnlCum(account.id),
    });
  };
}
export type WalletMarker = ReturnType<typeof createWalletMarker>;

/**
 * Every hour (a little after the snapshots): the wallet mark of every active account — equity,
 * unrealised P&L and realised P&L so far, read together, the basis of inferred deposits and
 * withdrawals — then the figures of every public strategy.
 */
export function createMetricsJob(deps: {
  metrics: MetricsService;
  repo: MetricsRepository;
  readModel: ReadModelRepository;
  clientFor: AccountClients;
  log: MetricsWorkerLogger;
  exchangeTimeoutMs: number;
}): ScheduledJob & { markAll(takenAt: Date): Promise<void> } {
  /**
   * Live accounts: fills in the exchange's trade history that the platform did not make (manual
   * trades on the exchange) join the read model, on the symbols the account traded or holds.
   * A fill whose order the read model knows is skipped; recent ones wait for the next hour.
   */
  async function importTrades(
    account: ExchangeAccountRow,
    client: ExchangeClient,
    held: readonly ExchangePosition[],
    nowMs: number,
  ): Promise<void> {
    const symbols = new Set([
      ...(await deps.readModel.symbolsOf(account.id)),
      ...held.map((p) => p.symbol),
    ]);
    const sinceMs =
      (await deps.readModel.lastImportedMs(account.id)) ?? nowMs - IMPORT_FIRST_LOOKBACK_MS;
    for (const symbol of symbols) {
      const trades = (
        await withTimeout(client.fetchMyTrades(symbol, sinceMs + 1), deps.exchangeTimeoutMs)
      )
        .filter((t) => t.timestamp > sinceMs && t.timestamp <= nowMs - IMPORT_SETTLE_MS)
        .sort((a, b) => a.timestamp - b.timestamp);
      const known = await deps.readModel.knownOrderIds(
        account.id,
        trades.map((t) => t.orderId ?? t.id),
      );
      for (const trade of trades) {
        const orderId = trade.orderId ?? trade.id;
        if (known.has(orderId)) continue;
        await deps.readModel.recordFill(`${EXCHANGE_EVENT_PREFIX}${account.id}:${trade.id}`, {
          accountId: account.id,
          userId: account.userId,
          symbol,
          owner: { kind: 'manual', id: account.userId },
          clientOrderId: '',
          exchangeOrderId: orderId,
          side: trade.side,
          amount: trade.amount,
          price: trade.price,
          fee: trade.fee,
          reduceOnly: false,
          filledAtMs: trade.timestamp,
        });
      }
    }
  }

  const walletMark = createWalletMarker(deps);
  async function mark(account: ExchangeAccountRow, takenAt: Date): Promise<void> {
    await walletMark(account, takenAt, (client, positions) =>
      account.isPaper ? undefined : importTrades(account, client, positions, takenAt.getTime()),
    );
  }

  async function markAll(takenAt: Date): Promise<void> {
    const accounts = await deps.repo.activeAccounts();
    for (let i = 0; i < accounts.length; i += MARK_CONCURRENCY) {
      const batch = accounts.slice(i, i + MARK_CONCURRENCY);
      const results = await Promise.allSettled(batch.map((a) => mark(a, takenAt)));
      results.forEach((result, k) => {
        if (result.status === 'rejected') {
          deps.log.warn({ accountId: batch[k]?.id, err: result.reason }, 'wallet mark failed');
        }
      });
    }
  }

  return {
    name: 'square-metrics',
    nextSlotAfter: (at) => {
      const hour = Math.floor((at.getTime() - METRICS_SLOT_OFFSET_MS) / HOUR_MS) * HOUR_MS;
      return new Date(hour + HOUR_MS + METRICS_SLOT_OFFSET_MS);
    },
    run: async (slot) => {
      await markAll(new Date(slot.getTime() - METRICS_SLOT_OFFSET_MS));
      for (const id of await deps.repo.publicAccountIds()) {
        try {
          await deps.metrics.refreshAccount(id);
        } catch (error) {
          deps.log.error({ err: error, accountId: id }, 'strategy metrics refresh failed');
        }
      }
    },
    markAll,
  };
}
