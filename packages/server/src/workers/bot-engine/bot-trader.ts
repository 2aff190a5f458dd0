// A bot's orders, through the execution core: open and close (market, keyed by candle and
// action, so a repeated decision never sends twice), protect with resting reduce-only stop-loss
// and take-profit orders, watch them, reconcile after a restart. The core keeps the position;
// the bot's trade rows and statistics are written by its settlement hook in the same
// transaction as the fill (bot-settlement.ts).
import { protectiveLevels, stopLossLevel, tighterStop } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { LeaseFence } from '../../common/leases.js';
import {
  type ExecutionCore,
  ExecutionError,
  type OwnerPosition,
  type Settlement,
} from '../../execution/index.js';
import { type BotSide, orderAmount } from './bot-decision.js';
import type { OperationLogEntry } from './bot-engine.repository.js';
import type { RunningBot } from './bot-engine.types.js';
import { type BotOrderAction, botOrderKey, closeReasonOf } from './client-order-id.js';

/** An order problem that puts the bot in `error` (the message goes to last_error and the log). */
export class BotFailure extends Error {
  override readonly name = 'BotFailure';
}

export interface TraderDeps {
  readonly core: ExecutionCore;
  readonly log: (entry: OperationLogEntry) => Promise<void>;
  /** The bot's lease as this worker holds it: its orders are claimed only under it. */
  readonly fenceOf?: (botId: number) => LeaseFence | undefined;
}

export type CloseReason = 'signal' | 'stop_loss' | 'take_profit' | 'manual';

/** The key suffix of a close at market: `m` a user's stop, `t` a trailing stop already passed. */
const CLOSE_SUFFIX = { signal: '', manual: 'm', stop_loss: 't' } as const;

const baseAsset = (symbol: string) => symbol.split(/[/:]/)[0] ?? symbol;
const sideOfSize = (size: string): BotSide => (new Decimal(size).isNegative() ? 'short' : 'long');
const isFlat = (position: OwnerPosition | null) =>
  position === null || new Decimal(position.size).isZero();

/** The core's failures as the bot's own (the exchange error stays the cause). */
async function asBotFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // Another worker drives the bot now: not the bot's failure (the engine lets it go).
    if (error instanceof ExecutionError && error.kind !== 'fenced') {
      throw new BotFailure(error.message, { cause: error.cause ?? error });
    }
    throw error;
  }
}

/** A trader's deps and its one piece of state. */
interface TraderContext extends TraderDeps {
  /**
   * Entries not final when their submit answered (acknowledged, or part filled), per bot: the
   * core's follower settles them; `awaitsOrder` tells and protects them once the venue is done.
   */
  readonly entriesOnTheirWay: Map<number, string>;
}

export function createBotTrader(deps: TraderDeps) {
  return traderOf({ ...deps, entriesOnTheirWay: new Map<number, string>() });
}

const ownerOf = (bot: RunningBot) => ({ kind: 'bot' as const, id: bot.id });

const refOf = (bot: RunningBot) => ({
  accountId: bot.account.id,
  symbol: bot.symbol,
  owner: ownerOf(bot),
});

/** What the bot's orders are submitted with: its place in the book and its lease. */
const orderOf = (deps: TraderContext, bot: RunningBot) => {
  const fence = deps.fenceOf?.(bot.id);
  return { ...refOf(bot), ...(fence ? { fence } : {}) };
};

const logFor = (
  deps: TraderContext,
  bot: RunningBot,
  type: OperationLogEntry['type'],
  event: OperationLogEntry['event'],
  message: string,
  details = {},
) =>
  deps.log({
    userId: bot.userId,
    botId: bot.id,
    botSymbol: bot.symbol,
    type,
    event,
    message,
    details,
  });

async function refresh(deps: TraderContext, bot: RunningBot): Promise<OwnerPosition | null> {
  const position = await deps.core.position(refOf(bot));
  bot.position = isFlat(position) ? null : position;
  return bot.position;
}

/** The `trade_opened` line: what the bot holds now, at what price, for what fee. */
async function logTradeOpened(
  deps: TraderContext,
  bot: RunningBot,
  opened: { side: BotSide; amount: number; price: number; fee: number; clientOrderId?: string },
): Promise<void> {
  const { side, amount, price } = opened;
  await logFor(
    deps,
    bot,
    'trade',
    'trade_opened',
    `opened ${side} ${amount} ${baseAsset(bot.symbol)} at ${price}`,
    {
      side,
      asset: baseAsset(bot.symbol),
      amount,
      price,
      fee: opened.fee,
      client_order_id: opened.clientOrderId,
    },
  );
}

async function logOpened(
  deps: TraderContext,
  bot: RunningBot,
  settlement: Settlement,
): Promise<void> {
  await logTradeOpened(deps, bot, {
    side: sideOfSize(settlement.after.size),
    amount: Number(settlement.filled),
    price: Number(settlement.price),
    fee: Number(settlement.fee),
    clientOrderId: settlement.intent.clientOrderId,
  });
}

async function logClosed(
  deps: TraderContext,
  bot: RunningBot,
  settlement: Settlement,
): Promise<void> {
  const { applied } = settlement;
  const side: BotSide = applied.closedDirection > 0 ? 'long' : 'short';
  const reason = closeReasonOf(settlement.intent.action, settlement.intent.idempotencyKey);
  const fee = applied.closedEntryFee.plus(applied.closingFee);
  await logFor(
    deps,
    bot,
    'trade',
    'trade_closed',
    `closed ${side} ${applied.closedAmount.toString()} ${baseAsset(bot.symbol)} at ${settlement.price} (${reason})`,
    {
      side,
      asset: baseAsset(bot.symbol),
      amount: applied.closedAmount.toNumber(),
      reason,
      price: Number(settlement.price),
      pnl: applied.realizedPnl.toNumber(),
      fee: fee.toNumber(),
    },
  );
}

/**
 * Logs the position an entry opened, as the venue filled it: every trade of the order, at
 * their weighted price, with all their fees (the book holds them). Nothing filled: a failure.
 */
async function logEntry(deps: TraderContext, bot: RunningBot, key: string): Promise<void> {
  const legs = (await deps.core.intentsOf(ownerOf(bot), key)).filter(
    (leg) => leg.idempotencyKey === key,
  );
  const position = await refresh(deps, bot);
  const last = legs.at(-1);
  if (!position || !legs.some((leg) => new Decimal(leg.filledAmount ?? 0).gt(0))) {
    throw new BotFailure(`entry order ${last?.clientOrderId ?? key} did not fill`);
  }
  await logTradeOpened(deps, bot, {
    side: sideOfSize(position.size),
    amount: new Decimal(position.size).abs().toNumber(),
    price: Number(position.entryPrice),
    fee: Number(position.entryFee),
    ...(last ? { clientOrderId: last.clientOrderId } : {}),
  });
}

/** Logs what a settlement did to the bot's position (a restart's or a protective fill). */
async function logSettlement(
  deps: TraderContext,
  bot: RunningBot,
  settlement: Settlement,
): Promise<void> {
  if (settlement.applied.closedAmount.gt(0)) await logClosed(deps, bot, settlement);
  if (new Decimal(settlement.before.size).isZero() && !isFlat(settlement.after)) {
    await logOpened(deps, bot, settlement);
  }
}

/** Places the bot's stop-loss / take-profit for its position, from the entry price. */
async function protect(deps: TraderContext, bot: RunningBot, candleTimeMs: number): Promise<void> {
  const position = bot.position;
  const hasLevels =
    bot.stopLossPercent !== null ||
    bot.takeProfitPercent !== null ||
    bot.trailingStopPercent !== null;
  if (!position || !hasLevels) return;
  const levels = protectiveLevels(
    sideOfSize(position.size),
    Number(position.entryPrice),
    bot.stopLossPercent,
    bot.takeProfitPercent,
    bot.trailingStopPercent,
  );
  bot.position = await asBotFailure(() =>
    deps.core.protect({ ...refOf(bot), key: botOrderKey(candleTimeMs), ...levels }),
  );
}

async function open(
  deps: TraderContext,
  bot: RunningBot,
  side: BotSide,
  candleTimeMs: number,
  price: number,
) {
  const account = await deps.core.account(bot.account.id);
  const client = deps.core.clientOf(account);
  const facts = await client.marketFacts(bot.symbol);
  const sizing = orderAmount(bot.tradeAmount, account.defaultLeverage, price, facts);
  const signal = side === 'long' ? 'buy' : 'sell';
  if (!sizing.ok) {
    await logFor(
      deps,
      bot,
      'bot_action',
      'signal_skipped',
      `${signal} signal → skipped: ${sizing.reason}`,
      {
        signal,
        price,
        reason: sizing.reason,
        limit: sizing.limit,
        value: sizing.value,
        minimum: sizing.minimum,
      },
    );
    return;
  }
  await logFor(
    deps,
    bot,
    'bot_action',
    'signal_open',
    `${signal} signal → opening ${side} ${sizing.amount} ${baseAsset(bot.symbol)}`,
    { signal, side, asset: baseAsset(bot.symbol), amount: sizing.amount, price },
  );
  const action: BotOrderAction = side === 'long' ? 'open_long' : 'open_short';
  const key = botOrderKey(candleTimeMs, action);
  const result = await asBotFailure(() =>
    deps.core.submit({
      ...orderOf(deps, bot),
      key,
      size: { kind: 'target', amount: side === 'long' ? sizing.amount : -sizing.amount },
      action,
      referencePrice: price,
    }),
  );
  if (result.status === 'skipped') {
    throw new BotFailure(`entry order refused: ${result.sizing.reason}`);
  }
  // Not final yet (acknowledged, or only part filled when the submit stopped following it):
  // protecting part of a position that is still growing would leave the rest bare. The
  // follower settles it; the next poll (awaitsOrder) logs and protects the whole entry.
  if (result.status === 'in_flight' || (await deps.core.liveIntentsOn(refOf(bot))).length > 0) {
    deps.entriesOnTheirWay.set(bot.id, key);
    return;
  }
  if (result.status === 'filled') await logEntry(deps, bot, key);
  await refresh(deps, bot);
  if (!bot.position) {
    const id = result.status === 'not_filled' ? result.intent?.clientOrderId : undefined;
    throw new BotFailure(`entry order ${id ?? key} did not fill`);
  }
  if (!bot.position.stopLossOrderId && !bot.position.takeProfitOrderId) {
    await protect(deps, bot, candleTimeMs);
  }
}

/**
 * The trailing stop after a candle closed with the position held through it: the stop follows
 * the best price seen (the candle's high for a long, its low for a short), only ever tighter,
 * as the backtest moves it. A level the price has already passed (`price`: where the market is
 * now) closes the position at market, as the backtest exits at a gapped open.
 */
async function trail(
  deps: TraderContext,
  bot: RunningBot,
  candle: { readonly high: number; readonly low: number },
  price: number,
  candleTimeMs: number,
): Promise<void> {
  const position = bot.position;
  const percent = bot.trailingStopPercent;
  if (!position || percent === null || !position.stopLossOrderId) return;
  const direction = new Decimal(position.size).isNegative() ? -1 : 1;
  const from = position.stopLoss === null ? Number.NaN : Number(position.stopLoss);
  const best = direction > 0 ? candle.high : candle.low;
  const to = tighterStop(direction, from, stopLossLevel(direction, best, percent));
  if (to === from) return;
  const side = sideOfSize(position.size);
  await logFor(
    deps,
    bot,
    'bot_action',
    'stop_moved',
    `trailing stop → ${side} stop from ${from} to ${to}`,
    { side, from, to, trailing_percent: percent },
  );
  if (direction * (price - to) <= 0) {
    await close(deps, bot, 'stop_loss', candleTimeMs);
    return;
  }
  bot.position = await asBotFailure(() =>
    deps.core.moveStop({
      ...refOf(bot),
      key: botOrderKey(candleTimeMs, undefined, 't'),
      stopLoss: to,
    }),
  );
}

/** Closes the bot's position at market (reduce-only where the account's net allows it). */
async function close(
  deps: TraderContext,
  bot: RunningBot,
  reason: 'signal' | 'manual' | 'stop_loss',
  candleTimeMs: number,
) {
  const position = bot.position;
  if (!position) return;
  const side = sideOfSize(position.size);
  const amount = new Decimal(position.size).abs();
  await logFor(
    deps,
    bot,
    'bot_action',
    'position_closing',
    `${reason} → closing ${side} ${amount.toString()} ${baseAsset(bot.symbol)}`,
    { reason, side, asset: baseAsset(bot.symbol), amount: amount.toNumber() },
  );
  await deps.core.cancelProtective(refOf(bot));
  const action: BotOrderAction = side === 'long' ? 'close_long' : 'close_short';
  const result = await asBotFailure(() =>
    deps.core.submit({
      ...orderOf(deps, bot),
      key: botOrderKey(candleTimeMs, action, CLOSE_SUFFIX[reason]),
      size: { kind: 'close' },
      action,
    }),
  );
  if (result.status === 'filled') await logClosed(deps, bot, result.settlement);
  await refresh(deps, bot);
}

/**
 * Whether a protective order filled at the exchange (the position is then gone and its trade
 * recorded); a missing one is placed again.
 */
async function watchProtective(
  deps: TraderContext,
  bot: RunningBot,
  candleTimeMs: number,
): Promise<void> {
  const position = bot.position;
  if (!position || (!position.stopLossOrderId && !position.takeProfitOrderId)) return;
  const settlement = await asBotFailure(() =>
    deps.core.watchProtective(refOf(bot), botOrderKey(candleTimeMs)),
  );
  if (settlement) {
    await logSettlement(deps, bot, settlement);
    await refresh(deps, bot);
  }
}

/**
 * After a restart: every pending intent settled from the exchange's answer (never resent),
 * then the bot's position compared with the exchange's.
 */
async function reconcile(deps: TraderContext, bot: RunningBot): Promise<void> {
  for (const entry of await deps.core.reconcileIntents(ownerOf(bot))) {
    const clientOrderId = entry.intent.clientOrderId;
    if (entry.outcome === 'never_sent') {
      // A bot decides afresh on the next candle, never on this key again: an intent written
      // just before the process died is withdrawn rather than left created.
      if (entry.intent.status === 'created') {
        await deps.core.withdrawUnsent(entry.intent, 'withdrawn after a restart: never sent');
      }
      await logFor(
        deps,
        bot,
        'system',
        'order_never_sent',
        `order ${clientOrderId} never reached the exchange`,
        { client_order_id: clientOrderId },
      );
      continue;
    }
    await logFor(
      deps,
      bot,
      'system',
      'order_reconciled',
      `reconciled order ${clientOrderId}: ${entry.intent.status}`,
      {
        client_order_id: clientOrderId,
        status: entry.intent.status,
        filled: Number(entry.intent.filledAmount ?? 0),
      },
    );
    if (entry.outcome === 'settled' && entry.settlement) {
      await logSettlement(deps, bot, entry.settlement);
    }
  }
  await refresh(deps, bot);
  // A position whose protection was never placed (the crash came first) is protected now.
  if (bot.position && !bot.position.stopLossOrderId && !bot.position.takeProfitOrderId) {
    await protect(deps, bot, bot.lastCandleTimeMs);
  }
  for (const mismatch of await deps.core.reconcilePositions(bot.account.id, [bot.symbol])) {
    const own = mismatch.owners.find((o) => o.owner.kind === 'bot' && o.owner.id === bot.id);
    const others = mismatch.owners.filter((o) => o !== own);
    const ours = own?.size ?? 0;
    // What the exchange leaves for this bot if the other owners' books are right.
    const exchangeAmount = new Decimal(mismatch.exchangeSize)
      .minus(others.reduce((sum, o) => sum.plus(o.size), new Decimal(0)))
      .toNumber();
    await logFor(
      deps,
      bot,
      'error',
      'position_mismatch',
      `position mismatch: bot ${ours}, exchange ${exchangeAmount}`,
      {
        bot_amount: ours,
        exchange_amount: exchangeAmount,
        ...(others.length > 0
          ? {
              account_exchange_amount: mismatch.exchangeSize,
              other_owners: others.map((o) => ({ ...o.owner, size: o.size })),
            }
          : {}),
      },
    );
  }
}

/**
 * Whether an order of the bot is still on its way (accepted, in doubt): the bot then decides
 * nothing new until the venue has answered. Once it is final, a position it opened without
 * protection gets its stop-loss / take-profit.
 */
async function awaitsOrder(
  deps: TraderContext,
  bot: RunningBot,
  candleTimeMs: number,
): Promise<boolean> {
  // A created intent never left (a process that died before sending it): nothing to wait for.
  const live = await deps.core.liveIntentsOn(refOf(bot));
  if (live.some((intent) => intent.status !== 'created')) return true;
  const entry = deps.entriesOnTheirWay.get(bot.id);
  if (entry !== undefined) {
    deps.entriesOnTheirWay.delete(bot.id);
    await logEntry(deps, bot, entry);
  }
  const position = await refresh(deps, bot);
  if (position && !position.stopLossOrderId && !position.takeProfitOrderId) {
    await protect(deps, bot, candleTimeMs);
  }
  return false;
}

function traderOf(deps: TraderContext) {
  return {
    open: open.bind(null, deps),
    close: close.bind(null, deps),
    trail: trail.bind(null, deps),
    reconcile: reconcile.bind(null, deps),
    watchProtective: watchProtective.bind(null, deps),
    refresh: refresh.bind(null, deps),
    awaitsOrder: awaitsOrder.bind(null, deps),
  };
}
export type BotTrader = ReturnType<typeof createBotTrader>;
