// A restart while an exchange cannot be reached: running bots are tried again later instead of
// going straight to error, and a user's stop ends the tries.

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExchangeAdapterError } from '../../src/exchange/exchange-client.js';
import type { BotClients } from '../../src/workers/bot-engine/bot-engine.types.js';
import { createBotEngineWithCore } from '../helpers/bot-engine-with-core.js';
import { type BotFixture, createBotFixture } from './bot-engine-fixture.js';

const START = Date.UTC(2026, 0, 18, 8, 0, 0);
let fixture: BotFixture;
beforeAll(async () => {
  fixture = await createBotFixture(START);
});
afterAll(async () => {
  await fixture.close();
});

/**
 * The fixture's clients, with an outage switch for one account: while down, every position read
 * of that account fails. (Each engine resumes every running bot of the database, earlier tests'
 * bots too; those read as usual.)
 */
function outage(
  accountId: number,
  failure: () => ExchangeAdapterError | Promise<ExchangeAdapterError>,
) {
  const state = { down: true, reads: 0 };
  const clients: BotClients = (account) => {
    const client = fixture.clients(account);
    if (account.id !== accountId) return client;
    return {
      ...client,
      fetchPositions: async (symbols) => {
        state.reads += 1;
        if (state.down) throw await failure();
        return client.fetchPositions(symbols);
      },
    };
  };
  return { state, clients };
}

const engineWith = (clients: BotClients, resumeRetryDelaysMs: number[]) =>
  createBotEngineWithCore({
    db: fixture.database.db,
    clock: fixture.clock,
    feed: fixture.feed,
    clients,
    pollIntervalMs: 3_600_000,
    resumeRetryDelaysMs,
  });

/** Generous: the tries are milliseconds apart, but a loaded machine may be slow to run them. */
const WAIT = { timeout: 15_000, interval: 20 };

const unreachable = () => new ExchangeAdapterError('unavailable', 'connect ECONNREFUSED');

describe('resuming while the exchange is unreachable', () => {
  it('tries again later and joins the bot once the exchange answers', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    const { state, clients } = outage(accountId, unreachable);
    const engine = engineWith(clients, [30, 30, 30]);
    await engine.start();
    expect(engine.runningBotIds()).not.toContain(botId);
    expect((await fixture.botRow(botId)).status).toBe('running');

    await vi.waitFor(() => expect(state.reads).toBeGreaterThanOrEqual(2), WAIT);
    state.down = false;
    await vi.waitFor(() => expect(engine.runningBotIds()).toContain(botId), WAIT);

    const row = await fixture.botRow(botId);
    expect(row.status).toBe('running');
    expect(row.lastErrorAt).toBeNull();
    const retries = (await fixture.logsOf(botId)).filter((l) => l.event === 'resume_retry');
    expect(retries.length).toBeGreaterThanOrEqual(2);
    expect(retries[0]).toMatchObject({
      type: 'system',
      details: { attempt: 1, delay_seconds: 0, error_kind: 'unavailable' },
    });
    expect((await fixture.logsOf(botId)).some((l) => l.type === 'error')).toBe(false);
    await engine.stop();
  });

  it('puts the bot in error once the tries are used up', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    const { state, clients } = outage(accountId, unreachable);
    const engine = engineWith(clients, [10, 10]);
    await engine.start();
    await vi.waitFor(async () => expect((await fixture.botRow(botId)).status).toBe('error'), WAIT);
    // The failure's log line is written after the status: wait for it too (once a flake).
    await vi.waitFor(
      async () =>
        expect((await fixture.logsOf(botId)).some((l) => l.event === 'bot_failed')).toBe(true),
      WAIT,
    );
    expect(state.reads).toBe(3);
    const logs = await fixture.logsOf(botId);
    expect(logs.filter((l) => l.event === 'resume_retry')).toHaveLength(2);
    expect(logs.find((l) => l.event === 'bot_failed')?.details).toMatchObject({
      error_kind: 'unavailable',
    });
    expect(engine.runningBotIds()).not.toContain(botId);
    await engine.stop();
  });

  it('does not retry an error that will not pass by itself', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    const { state, clients } = outage(
      accountId,
      () => new ExchangeAdapterError('invalid_key', 'Invalid API-key'),
    );
    const engine = engineWith(clients, [10, 10]);
    await engine.start();
    expect((await fixture.botRow(botId)).status).toBe('error');
    expect(state.reads).toBe(1);
    expect((await fixture.logsOf(botId)).some((l) => l.event === 'resume_retry')).toBe(false);
    await engine.stop();
  });

  it('stops trying when the user stops the bot or the engine stops', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    const { state, clients } = outage(accountId, unreachable);
    const engine = engineWith(clients, [40, 40, 40]);
    await engine.start();
    expect(state.reads).toBe(1);
    await engine.stopBot(botId);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(state.reads).toBe(1);
    // A running engine takes up a running bot whose lease is free: the first engine would take
    // the second's bot once the second let it go, and read for it.
    await engine.stop();

    const other = await fixture.bot({ accountId, symbol: 'BTC/USDT:USDT' });
    const second = engineWith(clients, [40, 40, 40]);
    await second.start();
    // A retry may fire while the stop is on its way (its 40 ms are short on a loaded machine);
    // once stopped, none may follow.
    await second.stop();
    const readsAtStop = state.reads;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(state.reads).toBe(readsAtStop);
    expect(second.runningBotIds()).not.toContain(other);
  });

  it('leaves the bot running when the engine stops while a resume is failing', async () => {
    const accountId = await fixture.paperAccount();
    const botId = await fixture.bot({ accountId });
    let fail: () => void = () => undefined;
    const failed = new Promise<void>((resolve) => {
      fail = resolve;
    });
    // The read fails only once the engine is stopping.
    const { state, clients } = outage(accountId, async () => {
      await failed;
      return unreachable();
    });
    const engine = engineWith(clients, [10, 10]);
    const starting = engine.start();
    await vi.waitFor(() => expect(state.reads).toBe(1), WAIT);
    await engine.stop();
    fail();
    await starting;
    // Shutting down is not the bot's failure: the next start resumes it.
    expect((await fixture.botRow(botId)).status).toBe('running');
    expect((await fixture.logsOf(botId)).some((l) => l.event === 'resume_retry')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(state.reads).toBe(1);
  });
});
