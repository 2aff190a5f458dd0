// ccxt's leaky bucket computed per request: the same pacing as ccxt's polling loop (a request
// goes while the bucket is at or above 0, later ones wait behind it), one sleep per wait.
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import {
  installRequestBudget,
  installVenuePacing,
} from '../../src/exchange/ccxt/request-budget.js';

function paced(instance: object) {
  let nowMs = 0;
  const sleeps: number[] = [];
  const installed = installRequestBudget(instance, {
    now: () => nowMs,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  return {
    installed,
    sleeps,
    at: (ms: number) => {
      nowMs = ms;
    },
    ask: (cost?: number) => (instance as { throttle: (cost?: number) => unknown }).throttle(cost),
  };
}

describe.each([
  ['binanceusdm', new ccxt.binanceusdm({ enableRateLimit: true })],
  ['okx', new ccxt.okx({ enableRateLimit: true })],
] as const)('the request budget of %s', (_name, instance) => {
  it('lets a request go at once, and spaces the next ones by the venue rate, queued', async () => {
    const rl = Number(instance.rateLimit);
    const budget = paced(instance);
    expect(budget.installed).toBe(true);
    await budget.ask();
    await budget.ask();
    await budget.ask();
    expect(budget.sleeps).toEqual([rl, 2 * rl].map((ms) => expect.closeTo(ms, 6)));
    // Long after, the bucket is full again (capacity 1, as ccxt): two go at once, and the
    // one after them waits for the second's cost of 2.
    budget.at(100 * rl);
    await budget.ask();
    await budget.ask(2);
    await budget.ask();
    expect(budget.sleeps.slice(2)).toEqual([expect.closeTo(2 * rl, 6)]);
  });
});

describe('the venue pacing of a ccxt instance', () => {
  // A binanceusdm instance whose requests answer at once: only the pacing is under test.
  function venuePaced() {
    const instance = new ccxt.binanceusdm({ apiKey: 'key', secret: 'secret' });
    (instance as unknown as { fetch: () => Promise<unknown> }).fetch = async () => ({});
    const budget = paced(instance);
    const venue: number[] = [];
    installVenuePacing(instance, new Set(['order']), async (cost) => {
      venue.push(cost);
    });
    const send = (path: string, api: string, method: string) =>
      instance.fetch2(path, api, method, { symbol: 'BTCUSDT' });
    return { send, budget, venue };
  }

  it('sends lane-paced order requests past its own bucket, drawing from the venue', async () => {
    const { send, budget, venue } = venuePaced();
    for (let i = 0; i < 5; i += 1) {
      await send('order', 'fapiPrivate', 'POST');
      await send('order', 'fapiPrivate', 'DELETE');
      await send('order', 'fapiPrivate', 'GET');
    }
    expect(budget.sleeps).toEqual([]);
    expect(venue).toHaveLength(15);
    expect(venue.every((cost) => cost > 0)).toBe(true);
  });

  it('still paces every other request with its own bucket and the venue', async () => {
    const { send, budget, venue } = venuePaced();
    for (let i = 0; i < 5; i += 1) await send('balance', 'fapiPrivateV2', 'GET');
    expect(budget.sleeps.length).toBeGreaterThan(0);
    expect(venue).toHaveLength(5);
  });
});
