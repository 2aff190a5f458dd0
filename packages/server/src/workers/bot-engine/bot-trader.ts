// Order execution of one bot: write the intent, send, settle; open/close positions; live
// protective orders; reconcile after a restart. Every order goes through `sendIntent`, so the
// intent row exists (with its deterministic client id) before the exchange sees the order.
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import type { BotOrderRow, BotPositionRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import {
  ExchangeAdapterError,
  type ExchangeClient,
  type ExchangeOrder,
  type OrderRequest,
} from '../../exchange/exchange-client.js';
import { type BotSide, orderAmount, protectiveLevels } from './bot-decision.js';
import type { BotEngineRepository, OperationLogEntry } from './bot-engine.repository.js';
import type { BotClients, RunningBot } from './bot-engine.types.js';
import { type BotOrderAction, botClientOrderId } from './client-order-id.js';

/** An order problem that puts the bot in `error` (the message goes to last_error and the log). */
export class BotFailure extends Error {
  override readonly name = 'BotFailure';
}

export interface TraderDeps {
  readonly repo: BotEngineRepository;
  readonly clock: Clock;
  readonly clients: BotClients;
  readonly log: (entry: OperationLogEntry) => Promise<void>;
  /** Fills are told to the platform (the square's read model and live pages) when given. */
  readonly events?: EventBus;
}

export type CloseReason = 'signal' | 'stop_loss' | 'take_profit' | 'manual';

const baseAsset = (symbol: string) => symbol.split(/[/:]/)[0] ?? symbol;
const closeSide = (side: BotSide) => (side === 'long' ? 'sell' : 'buy');
const openSide = (side: BotSide) => (side === 'long' ? 'buy' : 'sell');
const hedgeSide = (bot: RunningBot, side: BotSide) =>
  bot.account.positionMode === 'hedge' ? { positionSide: side } : {};

export function createBotTrader(deps: TraderDeps) {
  const { repo, clock } = deps;

  const logFor = (
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

  /** OrderFilled, then the PositionChanged it caused (the execution core publishes these later). */
  async function publishFill(
    bot: RunningBot,
    order: ExchangeOrder,
    size: number,
    entryPrice: number | null,
  ): Promise<void> {
    if (!deps.events || order.filled <= 0) return;
    const common = { accountId: bot.account.id, userId: bot.userId, symbol: bot.symbol };
    const owner = { kind: 'bot' as const, id: bot.id };
    const atMs = clock.now().getTime();
    await deps.events.publish(
      'OrderFilled',
      {
        ...common,
        owner,
        clientOrderId: order.clientOrderId ?? '',
        exchangeOrderId: order.id,
        side: order.side,
        amount: order.filled,
        price: order.averagePrice ?? 0,
        fee: order.fee,
        reduceOnly: order.reduceOnly,
        filledAtMs: atMs,
      },
      `fill:${bot.account.id}:${order.id}`,
    );
    await deps.events.publish('PositionChanged', {
      ...common,
      owner,
      size,
      entryPrice,
      changedAtMs: atMs,
    });
  }

  async function settle(intent: BotOrderRow, order: ExchangeOrder): Promise<void> {
    await repo.updateIntent(
      intent.id,
      {
        status: order.status === 'open' ? 'open' : order.filled > 0 ? 'filled' : 'failed',
        exchangeOrderId: order.id,
        filledAmount: String(order.filled),
        averagePrice: order.averagePrice === null ? null : String(order.averagePrice),
        fee: String(order.fee),
      },
      clock.now(),
    );
  }

  /**
   * Intent first, then the order; an unknown outcome is looked up by client id, never resent.
   * `apply` records the fill (position, trade) BEFORE the intent is marked settled: a crash in
   * between leaves the intent pending, and the restart's reconcile sees the effect already there.
   */
  async function sendIntent(
    bot: RunningBot,
    client: ExchangeClient,
    intent: { action: BotOrderAction; candleTimeMs: number; suffix?: string },
    request: Omit<OrderRequest, 'clientOrderId' | 'symbol'>,
    apply: (order: ExchangeOrder) => Promise<void> = async () => {},
  ): Promise<ExchangeOrder> {
    const clientOrderId = botClientOrderId(
      bot.id,
      intent.candleTimeMs,
      intent.action,
      intent.suffix,
    );
    const row = await repo.insertIntent(
      {
        botId: bot.id,
        clientOrderId,
        candleTimeMs: intent.candleTimeMs,
        action: intent.action,
        side: request.side,
        amount: String(request.amount),
        reduceOnly: request.reduceOnly ? 1 : 0,
      },
      clock.now(),
    );
    const full: OrderRequest = { ...request, symbol: bot.symbol, clientOrderId };
    let order: ExchangeOrder | null;
    if (row.status !== 'pending') {
      // Decided and sent before (a repeated tick): answer what the exchange has.
      order = await client.fetchOrderByClientId(bot.symbol, clientOrderId);
      if (order) return order;
      throw new BotFailure(`order ${clientOrderId} was ${row.status} and is not at the exchange`);
    }
    try {
      order = await client.createOrder(full);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof ExchangeAdapterError && error.kind === 'unknown_outcome') {
        order = await client.fetchOrderByClientId(bot.symbol, clientOrderId).catch(() => null);
        if (!order) {
          await repo.updateIntent(row.id, { status: 'unknown', error: message }, clock.now());
          throw new BotFailure(`order ${clientOrderId} outcome unknown: ${message}`, {
            cause: error,
          });
        }
      } else {
        await repo.updateIntent(row.id, { status: 'failed', error: message }, clock.now());
        throw new BotFailure(`${intent.action} order failed: ${message}`, { cause: error });
      }
    }
    await apply(order);
    await settle(row, order);
    return order;
  }

  /** Records the entry fill as the bot's position and protects it on live accounts. */
  async function positionFromFill(
    bot: RunningBot,
    side: BotSide,
    order: ExchangeOrder,
  ): Promise<void> {
    const entryPrice = order.averagePrice ?? 0;
    const levels = protectiveLevels(side, entryPrice, bot.stopLossPercent, bot.takeProfitPercent);
    const position: Omit<BotPositionRow, 'id'> = {
      botId: bot.id,
      side,
      amount: String(order.filled),
      entryPrice: String(entryPrice),
      entryFee: String(order.fee),
      stopLoss: levels.stopLoss === null ? null : String(levels.stopLoss),
      takeProfit: levels.takeProfit === null ? null : String(levels.takeProfit),
      stopLossOrderId: null,
      takeProfitOrderId: null,
      openedAt: clock.now(),
    };
    await repo.savePosition(position);
    bot.position = { id: 0, ...position };
    await publishFill(bot, order, side === 'long' ? order.filled : -order.filled, entryPrice);
    await logFor(
      bot,
      'trade',
      'trade_opened',
      `opened ${side} ${order.filled} ${baseAsset(bot.symbol)} at ${entryPrice}`,
      {
        side,
        asset: baseAsset(bot.symbol),
        amount: order.filled,
        price: entryPrice,
        fee: order.fee,
        client_order_id: order.clientOrderId,
      },
    );
  }

  async function open(bot: RunningBot, side: BotSide, candleTimeMs: number, price: number) {
    const client = deps.clients(bot.account);
    const facts = await client.marketFacts(bot.symbol);
    const sizing = orderAmount(bot.tradeAmount, bot.account.defaultLeverage, price, facts);
    const signal = side === 'long' ? 'buy' : 'sell';
    if (!sizing.ok) {
      await logFor(
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
      bot,
      'bot_action',
      'signal_open',
      `${signal} signal → opening ${side} ${sizing.amount} ${baseAsset(bot.symbol)}`,
      { signal, side, asset: baseAsset(bot.symbol), amount: sizing.amount, price },
    );
    const order = await sendIntent(
      bot,
      client,
      { action: side === 'long' ? 'open_long' : 'open_short', candleTimeMs },
      { side: openSide(side), type: 'market', amount: sizing.amount, ...hedgeSide(bot, side) },
      async (filled) => {
        if (filled.filled > 0) await positionFromFill(bot, side, filled);
      },
    );
    if (order.filled <= 0) throw new BotFailure(`entry order ${order.clientOrderId} did not fill`);
    if (!client.isPaper) await protect(bot, client, candleTimeMs);
  }

  /** Records the closed round trip (trade row + statistics, one transaction) from the exit fill. */
  async function tradeFromFill(bot: RunningBot, order: ExchangeOrder, reason: CloseReason) {
    const position = bot.position;
    if (!position) return;
    const sign = position.side === 'long' ? 1 : -1;
    const amount = new Decimal(order.filled > 0 ? order.filled : position.amount);
    const exitPrice = new Decimal(order.averagePrice ?? position.entryPrice);
    const entryPrice = new Decimal(position.entryPrice);
    const fee = new Decimal(position.entryFee).plus(order.fee);
    const pnl = exitPrice.minus(entryPrice).times(sign).times(amount).minus(fee);
    await repo.recordClosedTrade({
      botId: bot.id,
      side: position.side,
      amount: amount.toString(),
      entryPrice: entryPrice.toString(),
      exitPrice: exitPrice.toString(),
      pnl: pnl.toFixed(10),
      fee: fee.toFixed(10),
      reason,
      openedAt: position.openedAt,
      closedAt: clock.now(),
    });
    bot.position = null;
    await publishFill(bot, order, 0, null);
    await logFor(
      bot,
      'trade',
      'trade_closed',
      `closed ${position.side} ${amount.toString()} ${baseAsset(bot.symbol)} at ${exitPrice.toString()} (${reason})`,
      {
        side: position.side,
        asset: baseAsset(bot.symbol),
        amount: amount.toNumber(),
        reason,
        price: exitPrice.toNumber(),
        pnl: pnl.toNumber(),
        fee: fee.toNumber(),
      },
    );
  }

  /** Closes the bot's position at market, reduce-only; `paperFillPrice` pins a paper fill. */
  async function close(
    bot: RunningBot,
    reason: CloseReason,
    candleTimeMs: number,
    paperFillPrice?: number,
  ): Promise<void> {
    const position = bot.position;
    if (!position) return;
    const client = deps.clients(bot.account, paperFillPrice);
    const action: BotOrderAction =
      reason === 'stop_loss' || reason === 'take_profit'
        ? reason
        : position.side === 'long'
          ? 'close_long'
          : 'close_short';
    await logFor(
      bot,
      'bot_action',
      'position_closing',
      `${reason} → closing ${position.side} ${position.amount} ${baseAsset(bot.symbol)}`,
      {
        reason,
        side: position.side,
        asset: baseAsset(bot.symbol),
        amount: Number(position.amount),
        ...(paperFillPrice === undefined ? {} : { level: paperFillPrice }),
      },
    );
    if (!client.isPaper) await cancelProtective(bot, client);
    await sendIntent(
      bot,
      client,
      { action, candleTimeMs, ...(reason === 'manual' ? { suffix: 'm' } : {}) },
      {
        side: closeSide(position.side),
        type: 'market',
        amount: Number(position.amount),
        reduceOnly: true,
        ...hedgeSide(bot, position.side),
      },
      (filled) => tradeFromFill(bot, filled, reason),
    );
  }

  /** Live: reduce-only stop/take-profit orders, verified by listing open orders, re-placed once. */
  async function protect(bot: RunningBot, client: ExchangeClient, candleTimeMs: number) {
    const position = bot.position;
    if (!position) return;
    const wanted = [
      { level: position.stopLoss, action: 'stop_loss' as const, type: 'stop_market' as const },
      {
        level: position.takeProfit,
        action: 'take_profit' as const,
        type: 'take_profit_market' as const,
      },
    ].filter((w) => w.level !== null);
    const ids: { stopLossOrderId?: string; takeProfitOrderId?: string } = {};
    for (const w of wanted) {
      let placedId: string | null = null;
      for (let attempt = 1; attempt <= 2 && placedId === null; attempt++) {
        try {
          const order = await sendIntent(
            bot,
            client,
            { action: w.action, candleTimeMs, suffix: `p${attempt}` },
            {
              side: closeSide(position.side),
              type: w.type,
              amount: Number(position.amount),
              triggerPrice: Number(w.level),
              reduceOnly: true,
              ...hedgeSide(bot, position.side),
            },
          );
          const open = await client.fetchOpenOrders(bot.symbol);
          if (open.some((o) => o.id === order.id || o.clientOrderId === order.clientOrderId)) {
            placedId = order.id;
          }
        } catch (error) {
          if (attempt === 2) {
            throw new BotFailure(
              `position unprotected: ${w.action} order failed: ${error instanceof Error ? error.message : String(error)}`,
              { cause: error },
            );
          }
        }
      }
      if (placedId === null) {
        throw new BotFailure(`position unprotected: ${w.action} order not found at the exchange`);
      }
      if (w.action === 'stop_loss') ids.stopLossOrderId = placedId;
      else ids.takeProfitOrderId = placedId;
    }
    if (wanted.length > 0) {
      await repo.setProtectiveOrderIds(bot.id, ids);
      bot.position = { ...position, ...ids };
    }
  }

  async function cancelProtective(bot: RunningBot, client: ExchangeClient) {
    const position = bot.position;
    if (!position) return;
    for (const id of [position.stopLossOrderId, position.takeProfitOrderId]) {
      if (id) await client.cancelOrder(bot.symbol, id).catch(() => undefined);
    }
  }

  /**
   * Live: whether a protective order filled at the exchange (the position is then gone): record
   * the trade; a protective order missing while the position remains is re-placed.
   */
  async function watchProtective(bot: RunningBot, candleTimeMs: number): Promise<void> {
    const position = bot.position;
    if (!position || bot.account.isPaper) return;
    if (!position.stopLossOrderId && !position.takeProfitOrderId) return;
    const client = deps.clients(bot.account);
    const openOrders = await client.fetchOpenOrders(bot.symbol);
    const openIds = new Set(openOrders.map((o) => o.id));
    const intents = await repo.intentsByBot(bot.id);
    for (const [reason, id] of [
      ['stop_loss', position.stopLossOrderId],
      ['take_profit', position.takeProfitOrderId],
    ] as const) {
      if (!id || openIds.has(id)) continue;
      const intent = intents.find((i) => i.exchangeOrderId === id);
      const order = intent
        ? await client.fetchOrderByClientId(bot.symbol, intent.clientOrderId)
        : null;
      if (order && order.filled > 0 && intent) {
        await settle(intent, order);
        await cancelProtective(bot, client);
        await tradeFromFill(bot, order, reason);
        return;
      }
    }
    const missing =
      (position.stopLossOrderId && !openIds.has(position.stopLossOrderId)) ||
      (position.takeProfitOrderId && !openIds.has(position.takeProfitOrderId));
    if (missing) {
      await cancelProtective(bot, client);
      await protect(bot, client, candleTimeMs);
    }
  }

  /** After a restart: settle every pending intent from the exchange's answer; never resend. */
  async function reconcile(bot: RunningBot): Promise<void> {
    const client = deps.clients(bot.account);
    for (const intent of await repo.unsettledIntents(bot.id)) {
      const order = await client.fetchOrderByClientId(bot.symbol, intent.clientOrderId);
      if (!order) {
        await repo.updateIntent(
          intent.id,
          { status: 'failed', error: 'not at the exchange after a restart' },
          clock.now(),
        );
        await logFor(
          bot,
          'system',
          'order_never_sent',
          `order ${intent.clientOrderId} never reached the exchange`,
          { client_order_id: intent.clientOrderId },
        );
        continue;
      }
      await settle(intent, order);
      await logFor(
        bot,
        'system',
        'order_reconciled',
        `reconciled order ${intent.clientOrderId}: ${order.status}`,
        { client_order_id: intent.clientOrderId, status: order.status, filled: order.filled },
      );
      if (order.filled <= 0 || order.status === 'open') continue;
      if (intent.action === 'open_long' || intent.action === 'open_short') {
        if (!bot.position) {
          await positionFromFill(bot, intent.action === 'open_long' ? 'long' : 'short', order);
          if (!client.isPaper) await protect(bot, client, intent.candleTimeMs);
        }
      } else if (bot.position) {
        const reason: CloseReason =
          intent.action === 'stop_loss' || intent.action === 'take_profit'
            ? intent.action
            : intent.clientOrderId.endsWith('m')
              ? 'manual'
              : 'signal';
        await tradeFromFill(bot, order, reason);
      }
    }
    const held = (await client.fetchPositions([bot.symbol])).filter((p) => p.symbol === bot.symbol);
    const exchangeAmount = held.reduce(
      (sum, p) => sum + (p.side === 'long' ? p.amount : -p.amount),
      0,
    );
    const ours = bot.position
      ? (bot.position.side === 'long' ? 1 : -1) * Number(bot.position.amount)
      : 0;
    if (Math.abs(exchangeAmount - ours) > 1e-9) {
      await logFor(
        bot,
        'error',
        'position_mismatch',
        `position mismatch: bot ${ours}, exchange ${exchangeAmount}`,
        { bot_amount: ours, exchange_amount: exchangeAmount },
      );
    }
  }

  return { open, close, reconcile, watchProtective, cancelProtective };
}
export type BotTrader = ReturnType<typeof createBotTrader>;
