import { Decimal } from 'decimal.js';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { bots, executionPositions } from '../../src/db/schema/index.js';
import { createAuthRepository } from '../../src/modules/auth/auth.repository.js';
import type { BotControl } from '../../src/modules/bots/bot-control.js';
import { call } from './test-app.js';

/**
 * A BotControl that records its calls and fails when told to. Only the bots API tests use it,
 * standing in for the bot engine, which they do not test.
 */
export class RecordingBotControl implements BotControl {
  readonly calls: { action: 'start' | 'stop' | 'close'; botId: number }[] = [];
  failNextStart: string | undefined;
  failNextStop: string | undefined;
  /** Runs inside the next start, e.g. to record a failure as the engine does, without throwing. */
  duringNextStart: ((botId: number) => Promise<void>) | undefined;

  async startBot(botId: number): Promise<void> {
    this.calls.push({ action: 'start', botId });
    const during = this.duringNextStart;
    this.duringNextStart = undefined;
    await during?.(botId);
    const failure = this.failNextStart;
    this.failNextStart = undefined;
    if (failure !== undefined) throw new Error(failure);
  }

  async stopBot(botId: number): Promise<void> {
    this.calls.push({ action: 'stop', botId });
    const failure = this.failNextStop;
    this.failNextStop = undefined;
    if (failure !== undefined) throw new Error(failure);
  }

  /** Records the call only: positions stay (the engine's tests close them for real). */
  async closePosition(botId: number): Promise<void> {
    this.calls.push({ action: 'close', botId });
  }
}

export const BOT_SYMBOL = 'BTC/USDT:USDT';

/** A paper exchange account of the session's user; answers its id. */
export async function createPaperAccount(
  app: FastifyInstance,
  token: string,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  const res = await call(app, 'POST', '/api/auth/apis/', {
    token,
    body: {
      name: 'Paper',
      exchange: 'binance',
      is_paper: true,
      default_leverage: 5,
      ...overrides,
    },
  });
  if (res.status !== 201) throw new Error(`account create failed: ${JSON.stringify(res.body)}`);
  return Number(res.body.id);
}

export function botBody(accountId: number, overrides: Record<string, unknown> = {}) {
  return {
    exchange_api: accountId,
    strategy: 1,
    symbol: BOT_SYMBOL,
    timeframe: '1h',
    trade_amount: 100,
    stop_loss_percentage: 2,
    take_profit_percentage: 5,
    ...overrides,
  };
}

/** Creates a bot and answers its id. */
export async function createBot(
  app: FastifyInstance,
  token: string,
  accountId: number,
  overrides: Record<string, unknown> = {},
): Promise<number> {
  const res = await call<{ bot: { id: number } }>(app, 'POST', '/api/trading/bots/', {
    token,
    body: botBody(accountId, overrides),
  });
  if (res.status !== 201) throw new Error(`bot create failed: ${JSON.stringify(res.body)}`);
  return res.body.bot.id;
}

/** Makes the user VIP until `days` after the clock's now (negative: a VIP that has ended). */
export async function grantVip(
  database: DatabaseHandle,
  clock: ManualClock,
  userId: number,
  days = 30,
): Promise<void> {
  await createAuthRepository(database.db).updateUser(userId, {
    isVip: true,
    vipExpiresAt: new Date(clock.now().getTime() + days * 24 * 60 * 60 * 1000),
  });
}

/** An open position of a bot, as the execution core's book holds it after a fill. */
export async function insertBotPosition(
  database: DatabaseHandle,
  clock: ManualClock,
  values: { botId: number; side: 'long' | 'short'; amount: string; entryPrice: string },
): Promise<void> {
  const [bot] = await database.db.select().from(bots).where(eq(bots.id, values.botId));
  if (!bot) throw new Error(`no bot ${values.botId}`);
  await database.db.insert(executionPositions).values({
    accountId: bot.exchangeAccountId,
    symbol: bot.symbol,
    ownerKind: 'bot',
    ownerId: bot.id,
    size: new Decimal(values.amount).times(values.side === 'long' ? 1 : -1).toString(),
    entryPrice: values.entryPrice,
    openedAt: clock.now(),
    updatedAt: clock.now(),
  });
}
