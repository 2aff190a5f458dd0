// Ownership of bots, with a recording BotControl standing in for the bot engine.
import { beforeAll, describe, expect, it } from 'vitest';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import {
  createBot,
  createPaperAccount,
  grantVip,
  RecordingBotControl,
} from '../helpers/bot-flows.js';
import { call, useTestApp } from '../helpers/test-app.js';

const control = new RecordingBotControl();
const ctx = useTestApp({ env: { MARKET_DATA: 'simulated' }, botControl: () => control });

let tokenA: string;
let tokenB: string;
let botA: number;
beforeAll(async () => {
  const a = await registerEmail(ctx.app, uniqueEmail('owner-a'));
  const b = await registerEmail(ctx.app, uniqueEmail('owner-b'));
  tokenA = a.access;
  tokenB = b.access;
  await grantVip(ctx.database, ctx.clock, Number(a.user.id));
  await grantVip(ctx.database, ctx.clock, Number(b.user.id));
  botA = await createBot(ctx.app, tokenA, await createPaperAccount(ctx.app, tokenA));
});

describe("another user's bot is not found", () => {
  const endpoints: [string, 'GET' | 'POST' | 'DELETE', (id: number) => string][] = [
    ['details', 'GET', (id) => `/api/trading/bots/${id}/`],
    ['start', 'POST', (id) => `/api/trading/bots/${id}/start/`],
    ['stop', 'POST', (id) => `/api/trading/bots/${id}/stop/`],
    ['delete', 'DELETE', (id) => `/api/trading/bots/${id}/`],
  ];

  it.each(endpoints)('answers 404 to user B on %s of user A’s bot', async (_label, method, url) => {
    const res = await call(ctx.app, method, url(botA), { token: tokenB });
    expect(res.status).toBe(404);
    expect(control.calls).toEqual([]);
  });

  it("does not list user A's bot for user B", async () => {
    const res = await call<{ results: unknown[]; count: number }>(
      ctx.app,
      'GET',
      '/api/trading/bots/',
      { token: tokenB },
    );
    expect(res.body).toEqual({ results: [], count: 0 });
  });

  it('leaves user A’s bot untouched', async () => {
    const res = await call<{ status: string }>(ctx.app, 'GET', `/api/trading/bots/${botA}/`, {
      token: tokenA,
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('created');
  });

  it('answers 401 without a token on every bot endpoint', async () => {
    for (const [, method, url] of endpoints) {
      expect((await call(ctx.app, method, url(botA))).status).toBe(401);
    }
  });
});
