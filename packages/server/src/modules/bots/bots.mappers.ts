import type { Bot, BotPosition } from '@quantsquare/contracts';
import { CUSTOM_STRATEGY_ID_OFFSET, customStrategyId } from '@quantsquare/contracts';
import { strategyByType, unrealizedPnl } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import { decimalText, decimalTextOrNull } from '../../common/decimal-text.js';
import type { BotRow, ExchangeAccountRow } from '../../db/schema/index.js';
import type { OwnerPosition } from '../../execution/index.js';

const numberOrNull = (value: string | null): number | null =>
  value === null ? null : Number(value);

/**
 * A position marked to `price`: pnl = side × amount × (price − entry); the percentage is of the
 * margin, amount × entry / leverage. Without a price the position is marked at its entry.
 */
export function toBotPosition(
  row: OwnerPosition,
  price: number | undefined,
  leverage: number,
): BotPosition {
  const size = new Decimal(row.size);
  const amount = size.abs();
  const entry = new Decimal(row.entryPrice);
  const direction = size.isNegative() ? -1 : 1;
  const pnl =
    price === undefined ? new Decimal(0) : unrealizedPnl({ size, entryPrice: entry }, price);
  const margin = amount.times(entry).dividedBy(Math.max(1, leverage));
  const percentage = margin.isZero() ? new Decimal(0) : pnl.dividedBy(margin).times(100);
  return {
    id: row.id,
    side: direction > 0 ? 'long' : 'short',
    amount: decimalText(amount),
    entry_price: decimalText(entry),
    stop_loss: decimalTextOrNull(row.stopLoss),
    take_profit: decimalTextOrNull(row.takeProfit),
    unrealized_pnl: decimalText(pnl.toDecimalPlaces(8)),
    unrealized_pnl_percentage: percentage.toDecimalPlaces(4).toNumber(),
  };
}

export interface BotView {
  readonly canStart: boolean;
  /** The name of the user's rule set the bot runs (`custom:<id>`), when it still exists. */
  readonly strategyName?: string | undefined;
  readonly dataFresh: boolean;
  /** The bot's open positions in the execution core's book. */
  readonly positions: readonly OwnerPosition[];
  /** The feed's latest price of the bot's symbol, when known. */
  readonly price: number | undefined;
}

/** A custom strategy's catalogue id (GET /trading/strategies/), 0 for an unknown type. */
function customCatalogId(type: string): number {
  const id = customStrategyId(type);
  return id === null ? 0 : CUSTOM_STRATEGY_ID_OFFSET + id;
}

export function toBot(row: BotRow, account: ExchangeAccountRow, view: BotView): Bot {
  const strategy = strategyByType(row.strategyType);
  // A trade counts from its entry fill: an open position is a trade (not yet won or lost), and
  // its entry is the bot's latest trade when no close came after it. Win rate is of closed trades.
  const openedTimes = view.positions.map((position) => position.openedAt?.getTime() ?? 0);
  const lastTradeMs = Math.max(row.lastTradeAt?.getTime() ?? 0, ...openedTimes);
  const winRate =
    row.totalTrades > 0
      ? new Decimal(row.winningTrades).dividedBy(row.totalTrades).times(100).toDecimalPlaces(2)
      : new Decimal(0);
  return {
    id: row.id,
    symbol: row.symbol,
    exchange: account.exchange,
    exchange_api: account.id,
    exchange_api_name: account.name,
    account_type: account.accountType,
    position_mode: account.positionMode,
    is_paper: account.isPaper,
    strategy: strategy?.id ?? customCatalogId(row.strategyType),
    strategy_type: row.strategyType,
    strategy_name: strategy?.name ?? view.strategyName ?? row.strategyType,
    strategy_parameters: { ...row.strategyParameters },
    timeframe: row.timeframe,
    trade_amount: decimalText(row.tradeAmount),
    stop_loss_percentage: numberOrNull(row.stopLossPercentage),
    take_profit_percentage: numberOrNull(row.takeProfitPercentage),
    status: row.status,
    can_start: view.canStart,
    data_fresh: view.dataFresh,
    total_trades: row.totalTrades + view.positions.length,
    winning_trades: row.winningTrades,
    losing_trades: row.losingTrades,
    win_rate: winRate.toNumber(),
    total_profit_loss: decimalText(row.totalProfitLoss),
    last_error: row.lastError,
    last_error_at: row.lastErrorAt?.toISOString() ?? null,
    last_trade_at: lastTradeMs > 0 ? new Date(lastTradeMs).toISOString() : null,
    open_positions: view.positions.map((position) =>
      toBotPosition(position, view.price, account.defaultLeverage),
    ),
    created_at: row.createdAt.toISOString(),
  };
}
