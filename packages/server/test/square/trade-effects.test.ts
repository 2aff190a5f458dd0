// A reversal is two fills of one side, a close and an open: the trades and the chart markers say
// which is which (it looked like one trade listed twice: two identical "sell 0.0021" rows).
import { describe, expect, it } from 'vitest';
import { call } from '../helpers/test-app.js';
import {
  eventually,
  publishedAccount,
  publishFill,
  publishPosition,
  trader,
  useSquareApp,
} from './square-fixture.js';

const t = useSquareApp();
const MINUTE_MS = 60_000;

describe('fills that close and fills that open', () => {
  it('labels the two halves of a reversal close and open, in trades and markers', async () => {
    const owner = await trader(t.app, 'Reverser');
    const accountId = await publishedAccount(t.app, owner);
    const who = { accountId, userId: owner.userId };
    const now = t.clock.now().getTime();
    const opened = now - 10 * MINUTE_MS;
    const reversed = now - 5 * MINUTE_MS;
    await publishFill(t.bus, {
      ...who,
      side: 'buy',
      amount: 0.0021,
      price: 93_000,
      filledAtMs: opened,
    });
    await publishPosition(t.bus, { ...who, size: 0.0021, entryPrice: 93_000, changedAtMs: opened });
    const fill = { ...who, side: 'sell' as const, amount: 0.0021, price: 93_535.69 };
    await publishFill(t.bus, { ...fill, reduceOnly: true, filledAtMs: reversed });
    await publishFill(t.bus, { ...fill, reduceOnly: false, filledAtMs: reversed });
    await publishPosition(t.bus, {
      ...who,
      size: -0.0021,
      entryPrice: 93_535.69,
      changedAtMs: reversed,
    });

    const url = `/api/strategy-square/strategies/${accountId}/`;
    let trades: { side: string; effect: string; amount: number; price: number }[] = [];
    await eventually(async () => {
      const res = await call<{ results: typeof trades }>(t.app, 'GET', `${url}trades/`);
      expect(res.body.results).toHaveLength(3);
      trades = res.body.results;
    });
    // Newest first; the two sells of the reversal are one close and one open.
    expect(trades[2]).toMatchObject({ side: 'buy', effect: 'open' });
    expect(trades.slice(0, 2).map((x) => [x.side, x.amount, x.price])).toEqual([
      ['sell', '0.0021', '93535.69'],
      ['sell', '0.0021', '93535.69'],
    ]);
    expect(
      trades
        .slice(0, 2)
        .map((x) => x.effect)
        .sort(),
    ).toEqual(['close', 'open']);

    const detail = await call<{ trades: { type: string; effect: string }[] }>(t.app, 'GET', url);
    expect(detail.body.trades.map((m) => `${m.type}:${m.effect}`).sort()).toEqual([
      'buy:open',
      'sell:close',
      'sell:open',
    ]);
  });
});
