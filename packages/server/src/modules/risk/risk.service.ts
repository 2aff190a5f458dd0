import type {
  RiskSettings,
  RiskSettingsRequest,
  RiskState,
  RiskStateReason,
} from '@quantsquare/contracts';
import { evaluateBreach } from '@quantsquare/engine';
import type { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { decimalTextOrNull } from '../../common/decimal-text.js';
import { NotFound } from '../../common/errors.js';
import type { Database } from '../../db/database.js';
import type { AccountRiskRow, ExchangeAccountRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/event-bus.types.js';
import type { Outbox, OutboxEvent } from '../../events/outbox.js';
import type { ExecutionCore } from '../../execution/index.js';
import { tradingDayStart } from '../accounts/trading-day.js';
import { operationLogOn } from '../operation-log/operation-log.service.js';
import { createRiskRepository, type RiskValues } from './risk.repository.js';

// The risk gate's settings and state per exchange account (the execution core refuses openings
// by them), the user's kill switch, and the monitor that trips the loss limits. Every state
// change is written with its operation-log entry and its RiskStateChanged event in one
// transaction.

export interface RiskServiceLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export function toRiskSettings(accountId: number, row: AccountRiskRow | undefined): RiskSettings {
  const pct = (value: string | null | undefined) => (value == null ? null : Number(value));
  const money = decimalTextOrNull;
  return {
    account_id: accountId,
    max_order_notional: money(row?.maxOrderNotional),
    max_open_notional: money(row?.maxOpenNotional),
    daily_loss_limit_pct: pct(row?.dailyLossLimitPct),
    trailing_drawdown_pct: pct(row?.trailingDrawdownPct),
    on_breach: row?.onBreach ?? 'halt',
    state: row?.state ?? 'active',
    state_reason: row?.stateReason ?? null,
    peak_equity: money(row?.peakEquity),
    since: row ? row.since.toISOString() : null,
  };
}

export interface RiskServiceDeps {
  db: Database;
  clock: Clock;
  outbox: Outbox;
  events: EventBus;
  execution: ExecutionCore;
  /** The account's equity now (USDT balance total, unrealised P&L included). */
  equityOf: (account: ExchangeAccountRow) => Promise<Decimal>;
  log: RiskServiceLogger;
}

/** What the risk gate's functions work with. */
interface RiskContext {
  readonly deps: RiskServiceDeps;
  readonly repo: ReturnType<typeof createRiskRepository>;
}

async function owned(
  ctx: RiskContext,
  userId: number,
  accountId: number,
): Promise<ExchangeAccountRow> {
  const account = await ctx.repo.ownedAccount(userId, accountId);
  if (!account) throw new NotFound('Exchange account not found');
  return account;
}

/**
 * Moves the account to `state` (from one of `from`) with its log entry and event, in one
 * transaction; answers the row, or null when the state was not one of `from`.
 */
async function changeState(
  ctx: RiskContext,
  account: ExchangeAccountRow,
  change: {
    from: readonly RiskState[];
    to: RiskState;
    reason: RiskStateReason | null;
    equity: Decimal | null;
    extra?: RiskValues;
    message: string;
  },
): Promise<{ row: AccountRiskRow; changed: boolean }> {
  const now = ctx.deps.clock.now();
  let event: OutboxEvent | null = null;
  const result = await ctx.deps.db.transaction(async (tx) => {
    const risk = createRiskRepository(tx);
    const current = await risk.lockOrCreate(account.id, account.userId, now);
    if (!change.from.includes(current.state)) return { row: current, changed: false };
    const row = await risk.update(account.id, {
      ...change.extra,
      state: change.to,
      stateReason: change.reason,
      since: now,
      updatedAt: now,
    });
    await operationLogOn(tx, ctx.deps.clock).record({
      userId: account.userId,
      type: change.reason === 'user' || change.to === 'active' ? 'user_action' : 'system',
      event: 'risk_state_changed',
      message: change.message,
      details: {
        account_id: account.id,
        account_name: account.name,
        state: change.to,
        previous_state: current.state,
        reason: change.reason,
        ...(change.equity === null ? {} : { equity: change.equity.toString() }),
      },
    });
    event = {
      type: 'RiskStateChanged',
      id: `risk:${account.id}:${now.getTime()}:${change.to}`,
      payload: {
        accountId: account.id,
        userId: account.userId,
        state: change.to,
        previousState: current.state,
        reason: change.reason,
        equity: change.equity === null ? null : change.equity.toString(),
        atMs: now.getTime(),
      },
    };
    await ctx.deps.outbox.write(tx, [event]);
    return { row, changed: true };
  });
  if (event) {
    await ctx.deps.outbox.publish(ctx.deps.events, [event]).catch((error: unknown) => {
      // Written with the state: the relay publishes it later.
      ctx.deps.log.error({ err: error, accountId: account.id }, 'risk event not published');
    });
  }
  return result;
}

/** Closes every owner's position on the account; answers how many are still open after. */
async function closeAll(
  ctx: RiskContext,
  account: ExchangeAccountRow,
  row: AccountRiskRow,
): Promise<number> {
  const positions = await ctx.deps.execution.openPositionsOnAccount(account.id);
  const key = `riskclose${row.since.getTime()}`;
  const results = await ctx.deps.execution.submitMany(
    positions.map((p) => ({
      accountId: account.id,
      symbol: p.symbol,
      owner: p.owner,
      key,
      size: { kind: 'close' as const },
      action: 'risk_close',
    })),
  );
  for (const result of results) {
    if (result.status === 'rejected') {
      ctx.deps.log.warn({ err: result.reason, accountId: account.id }, 'risk close failed');
    }
  }
  return (await ctx.deps.execution.openPositionsOnAccount(account.id)).length;
}

/** A breach: halted, or reducing until every position is closed and then halted. */
async function trip(
  ctx: RiskContext,
  account: ExchangeAccountRow,
  row: AccountRiskRow,
  reason: 'daily_loss' | 'trailing_drawdown',
  equity: Decimal,
  tracked: RiskValues,
): Promise<void> {
  const to = row.onBreach === 'close_all' ? 'reducing' : 'halted';
  const what = reason === 'daily_loss' ? 'daily loss limit' : 'trailing drawdown limit';
  const { row: changed, changed: isChanged } = await changeState(ctx, account, {
    from: ['active'],
    to,
    reason,
    equity,
    extra: tracked,
    message: `Risk gate: ${what} reached at equity ${equity.toFixed(2)} USDT; account ${to}`,
  });
  if (isChanged && to === 'reducing') await finishReducing(ctx, account, changed);
}

/** Closes what is open on a reducing account; halted once nothing is. */
async function finishReducing(
  ctx: RiskContext,
  account: ExchangeAccountRow,
  row: AccountRiskRow,
): Promise<void> {
  const open = await closeAll(ctx, account, row);
  if (open > 0) return; // the monitor's next pass tries again (same keys: nothing twice)
  await changeState(ctx, account, {
    from: ['reducing'],
    to: 'halted',
    reason: row.stateReason,
    equity: null,
    message: 'Risk gate: every position closed; account halted',
  });
}

/**
 * One pass of the monitor: every watched account's equity read and judged against its
 * limits (an account that cannot be read waits for the next pass); reducing accounts close
 * what is left. Answers the accounts that tripped.
 */
async function monitorPass(ctx: RiskContext): Promise<number[]> {
  const { repo, deps } = ctx;
  const { db, clock } = deps;
  const tripped: number[] = [];
  for (const row of await repo.watched()) {
    const account = await repo.account(row.accountId);
    if (!account) continue;
    try {
      if (row.state === 'reducing') {
        await finishReducing(ctx, account, row);
        continue;
      }
      const equity = await deps.equityOf(account);
      const now = clock.now();
      const outcome = evaluateBreach({
        equity: equity.toString(),
        dayStartMs: tradingDayStart(now).getTime(),
        dayOpenEquity: row.dayOpenEquity,
        dayStartedAtMs: row.dayStartedAt?.getTime() ?? null,
        peakEquity: row.peakEquity,
        dailyLossLimitPct: row.dailyLossLimitPct,
        trailingDrawdownPct: row.trailingDrawdownPct,
      });
      const tracked: RiskValues = {
        dayOpenEquity: outcome.dayOpenEquity,
        dayStartedAt: new Date(outcome.dayStartedAtMs),
        peakEquity: outcome.peakEquity,
      };
      if (outcome.breach) {
        await trip(ctx, account, row, outcome.breach, equity, tracked);
        tripped.push(account.id);
      } else {
        await db.transaction(async (tx) => {
          const risk = createRiskRepository(tx);
          const current = await risk.lockOrCreate(account.id, account.userId, now);
          // A settings change meanwhile reset the peak: keep the reset.
          const keepPeak =
            current.trailingDrawdownPct === row.trailingDrawdownPct &&
            (current.peakEquity === null) === (row.peakEquity === null);
          await risk.update(account.id, {
            dayOpenEquity: tracked.dayOpenEquity ?? null,
            dayStartedAt: tracked.dayStartedAt ?? null,
            ...(keepPeak ? { peakEquity: tracked.peakEquity ?? null } : {}),
          });
        });
      }
    } catch (error) {
      deps.log.warn({ err: error, accountId: row.accountId }, 'risk check failed');
    }
  }
  return tripped;
}

export function createRiskService(deps: RiskServiceDeps) {
  const { db, clock } = deps;
  const repo = createRiskRepository(db);
  const ctx: RiskContext = { deps, repo };

  return {
    async get(userId: number, accountId: number): Promise<RiskSettings> {
      await owned(ctx, userId, accountId);
      return toRiskSettings(accountId, await repo.find(accountId));
    },

    async update(
      userId: number,
      accountId: number,
      request: RiskSettingsRequest,
    ): Promise<RiskSettings> {
      const account = await owned(ctx, userId, accountId);
      const now = clock.now();
      const decimal = (value: number | null) => (value === null ? null : String(value));
      const row = await db.transaction(async (tx) => {
        const risk = createRiskRepository(tx);
        const current = await risk.lockOrCreate(account.id, account.userId, now);
        const trailing = decimal(request.trailing_drawdown_pct);
        const isTrailingChanged =
          (current.trailingDrawdownPct === null ? null : Number(current.trailingDrawdownPct)) !==
          request.trailing_drawdown_pct;
        const updated = await risk.update(account.id, {
          maxOrderNotional: decimal(request.max_order_notional),
          maxOpenNotional: decimal(request.max_open_notional),
          dailyLossLimitPct: decimal(request.daily_loss_limit_pct),
          trailingDrawdownPct: trailing,
          onBreach: request.on_breach,
          // The peak is measured from when the trailing drawdown was set: the monitor's next read.
          ...(isTrailingChanged ? { peakEquity: null } : {}),
          updatedAt: now,
        });
        await operationLogOn(tx, clock).record({
          userId: account.userId,
          type: 'user_action',
          event: 'risk_updated',
          message: `Risk settings of ${account.name} updated`,
          details: { account_id: account.id, ...request },
        });
        return updated;
      });
      return toRiskSettings(accountId, row);
    },

    /** The user's kill switch: openings refused until resumed; closes still go through. */
    async halt(userId: number, accountId: number): Promise<RiskSettings> {
      const account = await owned(ctx, userId, accountId);
      const { row } = await changeState(ctx, account, {
        from: ['active', 'reducing'],
        to: 'halted',
        reason: 'user',
        equity: null,
        message: `Risk gate: ${account.name} halted by its user`,
      });
      return toRiskSettings(accountId, row);
    },

    /** Back to active; the trailing drawdown's peak is reset (measured again from now). */
    async resume(userId: number, accountId: number): Promise<RiskSettings> {
      const account = await owned(ctx, userId, accountId);
      const { row } = await changeState(ctx, account, {
        from: ['halted', 'reducing'],
        to: 'active',
        reason: null,
        equity: null,
        extra: { peakEquity: null, dayOpenEquity: null, dayStartedAt: null },
        message: `Risk gate: ${account.name} resumed by its user`,
      });
      return toRiskSettings(accountId, row);
    },

    /**
     * One pass of the monitor: every watched account's equity read and judged against its
     * limits; reducing accounts close what is left. Answers the accounts that tripped.
     */
    monitor: () => monitorPass(ctx),
  };
}
export type RiskService = ReturnType<typeof createRiskService>;
