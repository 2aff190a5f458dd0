import type { AccountOverview, AccountsOverviewResponse } from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { decimalText, decimalTextOrNull } from '../../common/decimal-text.js';
import { NotFound } from '../../common/errors.js';
import type { ExchangeAccountRow } from '../../db/schema/index.js';
import type { AccountClients } from '../../exchange/account-clients.js';
import type { BalanceSnapshotsService } from './balance-snapshots.service.js';
import type { ExchangeAccountsRepository } from './exchange-accounts.repository.js';
import { ACCOUNT_MESSAGES } from './exchange-accounts.service.js';
import { exchangeErrorKind, exchangeErrorMessage, withTimeout } from './exchange-call.js';

export interface AccountsServiceDeps {
  readonly accounts: ExchangeAccountsRepository;
  readonly clientFor: AccountClients;
  readonly snapshots: BalanceSnapshotsService;
  readonly clock: Clock;
  /** Each account loads within this time or answers its own error. */
  readonly accountTimeoutMs: number;
}

interface LoadedAccount {
  readonly overview: AccountOverview;
  readonly dayStartEquity: Decimal | null;
}

/** The account overview: every account of the user, loaded concurrently and independently. */
export function createAccountsService(deps: AccountsServiceDeps) {
  const { clock } = deps;

  async function load(account: ExchangeAccountRow): Promise<LoadedAccount> {
    const base = {
      id: account.id,
      name: account.name,
      exchange: account.exchange,
      account_type: account.accountType,
      is_testnet: account.isTestnet,
      is_paper: account.isPaper,
      position_mode: account.positionMode,
      default_leverage: account.defaultLeverage,
      is_enabled: account.isActive,
      is_experience: account.isExperience,
    };
    const snapshots = await deps.snapshots.chart(account.id);
    // Loading the account is a check of it: its status follows the outcome.
    const checkedAt = clock.now();
    try {
      const client = deps.clientFor(account);
      const [balances, positions] = await withTimeout(
        Promise.all([client.fetchBalance(), client.fetchPositions()]),
        deps.accountTimeoutMs,
      );
      await deps.accounts.recordCheck(account.id, { ok: true }, checkedAt);
      const usdt = balances.USDT ?? { total: 0, free: 0, used: 0 };
      const daily = await deps.snapshots.dailyPnl(account.id, new Decimal(usdt.total), clock.now());
      return {
        dayStartEquity: daily.dayStartEquity,
        overview: {
          ...base,
          is_active: account.isActive,
          balance: {
            total: decimalText(usdt.total),
            free: decimalText(usdt.free),
            used: decimalText(usdt.used),
          },
          daily_pnl: decimalText(daily.dailyPnl),
          daily_pnl_percent: daily.dailyPnlPercent.toDecimalPlaces(4).toNumber(),
          positions: positions.map((p) => ({
            id: `${account.id}:${p.symbol}:${p.side}`,
            symbol: p.symbol,
            side: p.side,
            pnl: decimalText(p.unrealizedPnl),
            contracts: p.amount,
            entry_price: decimalText(p.entryPrice),
            mark_price: decimalTextOrNull(p.markPrice),
            leverage: p.leverage,
          })),
          snapshots,
          error: null,
          error_kind: null,
          last_checked_at: checkedAt.toISOString(),
        },
      };
    } catch (error) {
      const message = exchangeErrorMessage(error);
      const kind = exchangeErrorKind(error);
      await deps.accounts.recordCheck(account.id, { ok: false, kind, message }, checkedAt);
      return {
        dayStartEquity: null,
        overview: {
          ...base,
          is_active: false,
          balance: null,
          daily_pnl: '0',
          daily_pnl_percent: 0,
          positions: [],
          snapshots,
          error: message,
          error_kind: kind,
          last_checked_at: checkedAt.toISOString(),
        },
      };
    }
  }

  return {
    async overview(userId: number): Promise<AccountsOverviewResponse> {
      const rows = await deps.accounts.listForUser(userId);
      const loaded = await Promise.all(rows.map(load));
      let balance = new Decimal(0);
      let dailyPnl = new Decimal(0);
      let dayStart = new Decimal(0);
      for (const { overview, dayStartEquity } of loaded) {
        if (!overview.balance) continue;
        balance = balance.plus(overview.balance.total);
        dailyPnl = dailyPnl.plus(overview.daily_pnl);
        if (dayStartEquity) dayStart = dayStart.plus(dayStartEquity);
      }
      return {
        accounts: loaded.map((a) => a.overview),
        total: {
          balance: decimalText(balance),
          daily_pnl: decimalText(dailyPnl),
          daily_pnl_percent: dayStart.gt(0)
            ? dailyPnl.dividedBy(dayStart).times(100).toDecimalPlaces(4).toNumber()
            : 0,
          active_count: loaded.filter((a) => a.overview.is_active).length,
        },
      };
    },

    async refresh(userId: number, id: number): Promise<AccountOverview> {
      const account = await deps.accounts.findOwned(userId, id);
      if (!account) throw new NotFound(ACCOUNT_MESSAGES.notFound);
      return (await load(account)).overview;
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;
