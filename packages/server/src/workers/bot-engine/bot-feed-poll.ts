// A poll of the bot engine: each feed group read once, each of its bots told of a new closed
// candle in its own queue — protective fills first, then the strategy's signal.
import { type Candles, candlesFromRows } from '@quantsquare/engine';
import { botLease } from '../../common/leases.js';
import type { MarketCandle } from '../../market/market.types.js';
import { decide, latestSignal, type SignalMemo } from './bot-decision.js';
import type { RunningBot } from './bot-engine.types.js';
import { type BotEngineContext, enqueue, type FeedGroup } from './bot-engine-context.js';

/** One bot on a poll of its feed: on a new closed candle, protective fills, then the signal. */
async function onPoll(
  ctx: BotEngineContext,
  bot: RunningBot,
  closed: readonly MarketCandle[],
  forming: MarketCandle | null,
  candles: () => Candles,
  memo: SignalMemo,
): Promise<void> {
  const { trader } = ctx;
  const newest = closed.at(-1);
  if (!newest || newest.timestamp <= bot.lastCandleTimeMs) return;
  // Not renewed in time (a stalled process): another worker may drive the bot now.
  if (!ctx.leases.isHeld(botLease(bot.id))) return;
  // An order still on its way: this candle is decided once the venue has answered.
  if (await trader.awaitsOrder(bot, newest.timestamp)) return;
  if (bot.position) await trader.watchProtective(bot, newest.timestamp);
  const intents = decide(
    bot.compiled ? latestSignal(candles(), bot.compiled, memo) : null,
    heldPosition(bot),
  );
  const price = forming?.open ?? newest.close;
  for (const intent of intents) {
    if (intent.kind === 'close') await trader.close(bot, 'signal', newest.timestamp);
    else await trader.open(bot, intent.side, newest.timestamp, price);
  }
  // A position held through this candle: its trailing stop follows the candle's best price.
  if (intents.length === 0) await trader.trail(bot, newest, price, newest.timestamp);
  bot.lastCandleTimeMs = newest.timestamp;
  await ctx.repo.setLastCandle(bot.id, newest.timestamp);
}

function heldPosition(bot: RunningBot) {
  const p = bot.position;
  if (!p) return null;
  return {
    side: Number(p.size) < 0 ? ('short' as const) : ('long' as const),
    stopLoss: p.stopLoss === null ? null : Number(p.stopLoss),
    takeProfit: p.takeProfit === null ? null : Number(p.takeProfit),
  };
}

async function pollGroup(ctx: BotEngineContext, group: FeedGroup): Promise<void> {
  const { candleLimit } = ctx;
  const series = await ctx.deps.feed.series({
    exchange: group.exchange,
    symbol: group.symbol,
    timeframe: group.timeframe,
    closedCount: candleLimit,
  });
  const window = series.closed.slice(-candleLimit);
  let columnar: Candles | undefined;
  const candles = () => {
    columnar ??= candlesFromRows(window);
    return columnar;
  };
  const memo: SignalMemo = new Map();
  await Promise.all(
    [...group.bots.values()].map((bot) =>
      enqueue(ctx, bot, () => onPoll(ctx, bot, window, series.forming, candles, memo)),
    ),
  );
}

/** One poll: every feed group once; a group still polling from before is awaited, not doubled. */
export async function tickOnce(ctx: BotEngineContext): Promise<void> {
  await Promise.all(
    [...ctx.groups.values()].map(async (group) => {
      if (group.running) return group.running;
      group.running = pollGroup(ctx, group)
        .catch((error: unknown) =>
          ctx.deps.logger?.error(
            { err: error, symbol: group.symbol, timeframe: group.timeframe },
            'feed poll failed',
          ),
        )
        .finally(() => {
          group.running = null;
        });
      return group.running;
    }),
  );
}
