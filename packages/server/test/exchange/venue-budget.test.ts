// The venues' per-address request budgets: in memory for one process, on Redis for a cluster
// (two budgets on one prefix stand for two processes on one host), and drawn from by every
// ccxt client of the venue with the request's weight.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLocalVenueBudget,
  createRedisVenueBudget,
  type VenueBudget,
} from '../../src/exchange/venue-budget.js';
import { randomSuffix } from '../helpers/test-database-info.js';
import { clientAt } from './exchange-test-helpers.js';
import { type FakePrivateExchange, startFakeExchange } from './fake-exchange-private.js';

const REDIS_URL = 'redis://127.0.0.1:6379';
// 100 weight a minute: 9 in each 6 s window (90 % of a tenth).
const LIMITS = { binance: { weight: 100, windowMs: 60_000 } };
const ALLOWED = 9;

/** A clock that moves only when a taker sleeps (every taker's sleep moves it). */
function fakeTime(start = 1_800_000_000_000) {
  let at = start;
  return {
    now: () => at,
    sleep: async (ms: number) => {
      at += ms;
    },
  };
}

describe('the venue budget of one process', () => {
  it('spends at most its share per window, waits for the next, and leaves other venues alone', async () => {
    const time = fakeTime();
    const budget = createLocalVenueBudget({ limits: LIMITS, ...time });
    const windows = new Map<number, number>();
    for (let i = 0; i < 40; i++) {
      await budget.take('binance', 1);
      const index = Math.floor(time.now() / 6_000);
      windows.set(index, (windows.get(index) ?? 0) + 1);
    }
    expect([...windows.values()].every((n) => n <= ALLOWED)).toBe(true);
    expect(windows.size).toBeGreaterThanOrEqual(Math.ceil(40 / ALLOWED));
    // A request heavier than a window still goes, alone.
    await budget.take('binance', 50);
    const before = time.now();
    await budget.take('okx', 1_000);
    expect(time.now()).toBe(before);
  });
});

describe('the venue budget shared on Redis', () => {
  let prefix: string;
  let redis: Redis;
  const budgets: VenueBudget[] = [];
  beforeAll(async () => {
    prefix = `qs-test-budget-${randomSuffix()}`;
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    for (const budget of budgets) await budget.close();
    await redis.quit();
  });

  it('keeps two processes together under the venue limit, spending every weight once', async () => {
    const time = fakeTime();
    const a = await createRedisVenueBudget({ url: REDIS_URL, prefix, limits: LIMITS, ...time });
    const b = await createRedisVenueBudget({ url: REDIS_URL, prefix, limits: LIMITS, ...time });
    budgets.push(a, b);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b).take('binance', 1)),
    );
    const keys = await redis.keys(`${prefix}:budget:binance:*`);
    const spent = (await Promise.all(keys.map((key) => redis.get(key)))).map(Number);
    expect(spent.every((n) => n <= ALLOWED)).toBe(true);
    expect(spent.reduce((x, y) => x + y, 0)).toBe(40);
    expect(keys.length).toBeGreaterThanOrEqual(Math.ceil(40 / ALLOWED));
  });
});

describe('a ccxt client', () => {
  let fake: FakePrivateExchange;
  beforeAll(async () => {
    fake = await startFakeExchange({ exchange: 'binance' });
  });
  afterAll(async () => {
    await fake.close();
  });

  it("draws each request's weight from its venue's budget", async () => {
    const before = fake.calls.length;
    const taken: [string, number][] = [];
    const venueBudget: VenueBudget = {
      take: async (venue, cost) => {
        taken.push([venue, cost]);
      },
      close: async () => {},
    };
    const { client } = clientAt(fake, 'binance', { venueBudget });
    await client.fetchPositions();
    // One draw per request sent, each with ccxt's weight of its endpoint.
    expect(taken.length).toBe(fake.calls.length - before);
    expect(taken.length).toBeGreaterThan(0);
    expect(taken.every(([venue, cost]) => venue === 'binance' && cost > 0)).toBe(true);
  });
});
