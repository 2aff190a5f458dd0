import {
  COPY_MESSAGES,
  COPY_SIMULATION_TRADE_LIST_MAX,
  type CopyMode,
  type CopySimulationDays,
  type CopySimulationResponse,
  type CopySimulationVenue,
  defaultCopySlippagePercent,
} from '@quantsquare/contracts';
import { type LeaderFill, leaderWalletChange, simulateCopy } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { decimalText, FLOAT_DECIMALS, floatDecimal } from '../../common/decimal-text.js';
import { NotFound } from '../../common/errors.js';
import type { MessageLanguage } from '../../common/message-language.js';
import type { EventBus } from '../../events/index.js';
import { venueCopyModel } from '../../exchange/reference-markets.js';
import type { ExecutionCore } from '../../execution/index.js';
import { copySimulationAssumptions } from './copy-simulation.texts.js';

// The copy simulator's service: loads the leader's recorded fills of the period from the fills
// ledger and replays them with the engine's `simulateCopy`, whose every decision is the live
// copy engine's `copyDecision`. Answers are kept per (strategy, parameters, period) until the
// leader's next fill (its OrderFilled event), and at most CACHE_MAX_AGE_MS as the period slides.
// Money, prices and sizes are written as decimal strings before an answer is kept, so a kept
// answer is already in the answer's shape.

const DAY_MS = 86_400_000;
/** A kept answer is recomputed after this long even without a fill (its period moved on). */
const CACHE_MAX_AGE_MS = 10 * 60_000;
const CACHE_MAX_ENTRIES = 5_000;
/** A balance snapshot this close before the period's start gives the leader's equity then. */
const SNAPSHOT_MAX_AGE_MS = 2 * 3_600_000;

export interface CopySimulationRequest {
  readonly copyAmount: number;
  readonly mode: CopyMode;
  readonly days: CopySimulationDays;
  readonly venue: CopySimulationVenue;
}

export interface CopySimulationDeps {
  readonly clock: Clock;
  readonly events: EventBus;
  readonly execution: Pick<
    ExecutionCore,
    'account' | 'clientOf' | 'accountFillsSince' | 'openPositionsOnAccount'
  >;
  /** The square's sharing: is the strategy public. */
  readonly strategy: (accountId: number) => Promise<{ isPublic: boolean } | undefined>;
  /** Recorded equity of an account at a time (balance snapshots), null without one. */
  readonly equityAt: (accountId: number, at: Date, maxAgeMs: number) => Promise<Decimal | null>;
  /** The paper venue's slippage (the paper exchange's model, also used for live venues). */
  readonly slippageBps: number;
}

type Computed = Omit<CopySimulationResponse, 'assumptions'>;

/** The leader's equity when the period starts: a snapshot then, else today's wallet less its fills since. */
async function leaderEquityAt(
  deps: CopySimulationDeps,
  accountId: number,
  start: Date,
  fills: readonly LeaderFill[],
  startBook: Map<string, { size: Decimal; entryPrice: Decimal }>,
): Promise<Decimal> {
  const recorded = await deps.equityAt(accountId, start, SNAPSHOT_MAX_AGE_MS);
  if (recorded?.gt(0)) return recorded;
  const client = deps.execution.clientOf(await deps.execution.account(accountId));
  const [balances, held] = await Promise.all([client.fetchBalance(), client.fetchPositions()]);
  const unrealized = held.reduce((sum, p) => sum.plus(p.unrealizedPnl), new Decimal(0));
  const wallet = new Decimal(balances.USDT?.total ?? 0).minus(unrealized);
  return wallet.minus(leaderWalletChange(fills, startBook));
}

/** The leader's book when the period started: today's, less what its fills since changed. */
function bookAtStart(
  book: readonly { symbol: string; size: string; entryPrice: string }[],
  fills: readonly LeaderFill[],
): Map<string, { size: Decimal; entryPrice: Decimal }> {
  const startBook = new Map<string, { size: Decimal; entryPrice: Decimal }>();
  for (const position of book) {
    const held = startBook.get(position.symbol);
    startBook.set(position.symbol, {
      size: (held?.size ?? new Decimal(0)).plus(position.size),
      entryPrice: new Decimal(position.entryPrice),
    });
  }
  for (const fill of fills) {
    const held = startBook.get(fill.symbol);
    startBook.set(fill.symbol, {
      size: (held?.size ?? new Decimal(0)).minus(
        new Decimal(fill.amount).times(fill.side === 'buy' ? 1 : -1),
      ),
      entryPrice: held?.entryPrice ?? new Decimal(fill.price),
    });
  }
  return startBook;
}

/** The copy simulated over the strategy's recorded fills of the period. */
async function compute(
  deps: CopySimulationDeps,
  strategyId: number,
  request: CopySimulationRequest,
): Promise<Computed> {
  const now = deps.clock.now();
  const start = new Date(now.getTime() - request.days * DAY_MS);
  const [rows, book] = await Promise.all([
    deps.execution.accountFillsSince(strategyId, start),
    deps.execution.openPositionsOnAccount(strategyId),
  ]);
  const fills: LeaderFill[] = rows.map((row) => ({
    atMs: row.filledAt.getTime(),
    orderId: row.orderId,
    symbol: row.symbol,
    side: row.side,
    amount: row.amount,
    price: Number(row.price),
    fee: row.feeQuote,
  }));
  const startBook = bookAtStart(book, fills);
  const equity = await leaderEquityAt(deps, strategyId, start, fills, startBook);
  const model = venueCopyModel(request.venue);
  const result = simulateCopy({
    fills,
    startBook: new Map([...startBook].map(([symbol, held]) => [symbol, held.size])),
    copyAmount: request.copyAmount,
    leaderEquity: equity,
    mode: request.mode,
    marketOf: model.facts,
    slippageCapPercentOf: defaultCopySlippagePercent,
    slippageBps: deps.slippageBps,
    feeRate: model.feeRate,
    startMs: start.getTime(),
    endMs: now.getTime(),
  });
  return {
    strategy_id: strategyId,
    copy_amount: floatDecimal(request.copyAmount),
    copy_mode: request.mode,
    days: request.days,
    exchange: request.venue,
    period_start: start.toISOString(),
    period_end: now.toISOString(),
    equity_curve: result.equityCurve.map((p) => ({ t: p.atMs, equity: p.equity })),
    final_equity: floatDecimal(result.finalEquity),
    return_pct: result.returnPct,
    max_drawdown_pct: result.maxDrawdownPct,
    trades: result.trades.length,
    skipped_orders: result.skippedOrders,
    capped_orders: result.cappedOrders,
    fees: floatDecimal(result.fees),
    slippage_cost: floatDecimal(result.slippageCost),
    leader_changes: result.leaderChanges,
    ratio: Number(result.ratio.toPrecision(10)),
    leader_equity: decimalText(equity.toDecimalPlaces(FLOAT_DECIMALS)),
    trade_list: result.trades.slice(-COPY_SIMULATION_TRADE_LIST_MAX).map((trade) => ({
      t: trade.atMs,
      symbol: trade.symbol,
      side: trade.side,
      action: trade.action,
      amount: floatDecimal(trade.amount),
      price: floatDecimal(trade.price),
      leader_price: floatDecimal(trade.leaderPrice),
      fee: floatDecimal(trade.fee),
      size_after: floatDecimal(trade.sizeAfter),
    })),
    computed_at: now.toISOString(),
  };
}

export function createCopySimulationService(deps: CopySimulationDeps) {
  const cache = new Map<string, { answer: Computed; atMs: number }>();
  /** Per strategy, moved by each of its fills: an answer computed across a fill is not kept. */
  const generations = new Map<number, number>();
  const generationOf = (id: number) => generations.get(id) ?? 0;

  deps.events.subscribe('OrderFilled', (event) => {
    const { accountId } = event.payload;
    generations.set(accountId, generationOf(accountId) + 1);
    for (const key of cache.keys()) {
      if (key.startsWith(`${accountId}|`)) cache.delete(key);
    }
  });

  return {
    /** The simulated copy of a public strategy over the last `days`, in the reader's language. */
    async simulate(
      strategyId: number,
      request: CopySimulationRequest,
      language: MessageLanguage,
    ): Promise<CopySimulationResponse> {
      const strategy = await deps.strategy(strategyId);
      if (!strategy?.isPublic) throw new NotFound(COPY_MESSAGES.leaderNotFound);
      const key = `${strategyId}|${request.copyAmount}|${request.mode}|${request.days}|${request.venue}`;
      const nowMs = deps.clock.now().getTime();
      let entry = cache.get(key);
      if (!entry || nowMs - entry.atMs > CACHE_MAX_AGE_MS) {
        const generation = generationOf(strategyId);
        entry = { answer: await compute(deps, strategyId, request), atMs: nowMs };
        // A fill heard meanwhile may be missing from what was read: not kept.
        if (generationOf(strategyId) === generation) {
          if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
          cache.set(key, entry);
        }
      }
      const model = venueCopyModel(request.venue);
      return {
        ...entry.answer,
        assumptions: copySimulationAssumptions(language, {
          venue: request.venue,
          feeRate: model.feeRate,
          slippageBps: deps.slippageBps,
          days: request.days,
        }),
      };
    },
    /** Answers kept now (the bench and tests look). */
    cachedCount: () => cache.size,
  };
}
export type CopySimulationService = ReturnType<typeof createCopySimulationService>;
