import { BALANCE_CHART_POINTS, type BalanceSnapshot } from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import { decimalText } from '../../common/decimal-text.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';
import type { AccountClients } from '../../exchange/account-clients.js';
import type { CurrencyBalance } from '../../exchange/exchange-client.js';
import type { BalanceSnapshotsRepository } from './balance-snapshots.repository.js';
import { withTimeout } from './exchange-call.js';
import { tradingDayStart } from './trading-day.js';

export interface DailyPnl {
  readonly dailyPnl: Decimal;
  /** Relative to the equity of the day's first snapshot; 0 without one. */
  readonly dailyPnlPercent: Decimal;
  readonly dayStartEquity: Decimal | null;
}

/** The USDT balance; its total is the equity (the clients report it with unrealised P&L). */
export async function accountBalance(
  clientFor: AccountClients,
  account: ExchangeAccountRow,
  timeoutMs: number,
): Promise<CurrencyBalance> {
  const balances = await withTimeout(clientFor(account).fetchBalance(), timeoutMs);
  return balances.USDT ?? { total: 0, free: 0, used: 0 };
}

export interface RecordedSnapshot {
  /** False when that instant was recorded already (another process took the slot). */
  readonly isNew: boolean;
  readonly balance: CurrencyBalance;
}

export function createBalanceSnapshotsService(deps: {
  repo: BalanceSnapshotsRepository;
  clientFor: AccountClients;
  exchangeTimeoutMs: number;
}) {
  const { repo } = deps;

  async function dailyPnl(accountId: number, equity: Decimal, at: Date): Promise<DailyPnl> {
    const first = await repo.firstSince(accountId, tradingDayStart(at));
    if (!first) {
      return { dailyPnl: new Decimal(0), dailyPnlPercent: new Decimal(0), dayStartEquity: null };
    }
    const start = new Decimal(first.equity);
    const pnl = equity.minus(start);
    return {
      dailyPnl: pnl,
      dailyPnlPercent: start.gt(0) ? pnl.dividedBy(start).times(100) : new Decimal(0),
      dayStartEquity: start,
    };
  }

  return {
    dailyPnl,
    /** Records the account's equity at `takenAt`, and answers the balance it read. */
    async record(account: ExchangeAccountRow, takenAt: Date): Promise<RecordedSnapshot> {
      const balance = await accountBalance(deps.clientFor, account, deps.exchangeTimeoutMs);
      const equity = new Decimal(balance.total);
      const daily = await dailyPnl(account.id, equity, takenAt);
      const isNew = await repo.insert({
        accountId: account.id,
        takenAt,
        equity: equity.toString(),
        dailyPnl: daily.dailyPnl.toString(),
      });
      return { isNew, balance };
    },
    /**
     * The account's equity at `at` as a snapshot taken within `maxAgeMs` before it recorded it;
     * null without one.
     */
    async equityAt(accountId: number, at: Date, maxAgeMs: number): Promise<Decimal | null> {
      const row = await repo.lastBetween(accountId, new Date(at.getTime() - maxAgeMs), at);
      return row ? new Decimal(row.equity) : null;
    },
    /** The balance chart: the newest points, oldest first. */
    async chart(accountId: number, points = BALANCE_CHART_POINTS): Promise<BalanceSnapshot[]> {
      const rows = await repo.latest(accountId, points);
      return rows.map((row) => ({
        time: row.takenAt.toISOString(),
        balance: decimalText(row.equity),
        daily_pnl: decimalText(row.dailyPnl),
      }));
    },
  };
}
export type BalanceSnapshotsService = ReturnType<typeof createBalanceSnapshotsService>;
