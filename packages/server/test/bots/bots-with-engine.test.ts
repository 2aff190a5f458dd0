// The bots API on the real bot engine, a paper account and the simulated feed.

import type { Bot, BotActionResponse, OperationLogList } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../../src/common/secret-box.js';
import { createAccountClientCache } from '../../src/execution/index.js';
import { createOperationLogRepository } from '../../src/modules/operation-log/operation-log.repository.js';
import { createOperationLog } from '../../src/modules/operation-log/operation-log.service.js';
import type { BotEngine } from '../../src/workers/bot-engine/index.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { createBotEngineWithCore } from '../helpers/bot-engine-with-core.js';
import { createBot, createPaperAccount, grantVip } from '../helpers/bot-flows.js';
import { testClientFactory } from '../helpers/client-factory.js';
import { call, TEST_SECRET_KEY, useTestApp } from '../helpers/test-app.js';

let engine: BotEngine | undefined;
const ctx = useTestApp({
  env: { MARKET_DATA: 'simulated' },
  botControl: ({ database, clock, config, marketFeed }) => {
    const operationLog = createOperationLog({
      repo: createOperationLogRepository(database.db),
      clock,
    });
    engine = createBotEngineWithCore({
      db: database.db,
      clock,
      feed: marketFeed,
      clients: createAccountClientCache({
        secretBox: createSecretBox(TEST_SECRET_KEY),
        factory: testClientFactory({ config, db: database.db, clock, marketFeed }),
      }),
      writeLog: (entry) => operationLog.record(entry),
    });
    return engine;
  },
});

const running = () => engine?.runningBotIds() ?? [];

describe('a paper bot on the real engine', () => {
  it('joins the engine on start and leaves it on stop', async () => {
    const session = await registerEmail(ctx.app, uniqueEmail('engine'));
    await grantVip(ctx.database, ctx.clock, Number(session.user.id));
    const token = session.access;
    const id = await createBot(ctx.app, token, await createPaperAccount(ctx.app, token));

    const started = await call<BotActionResponse>(
      ctx.app,
      'POST',
      `/api/trading/bots/${id}/start/`,
      {
        token,
      },
    );
    expect(started.status).toBe(200);
    expect(started.body.bot?.status).toBe('running');
    expect(started.body.bot?.data_fresh).toBe(true);
    expect(running()).toContain(id);

    const stopped = await call<BotActionResponse>(
      ctx.app,
      'POST',
      `/api/trading/bots/${id}/stop/`,
      {
        token,
      },
    );
    expect(stopped.status).toBe(200);
    expect(stopped.body.bot?.status).toBe('stopped');
    expect(running()).not.toContain(id);

    const deleted = await call(ctx.app, 'DELETE', `/api/trading/bots/${id}/`, { token });
    expect(deleted.status).toBe(200);
    const list = await call<{ results: Bot[] }>(ctx.app, 'GET', '/api/trading/bots/', { token });
    expect(list.body.results).toEqual([]);
    const logs = await call<OperationLogList>(ctx.app, 'GET', '/api/trading/logs/', { token });
    expect(logs.body.results.map((entry) => entry.message)).toEqual([
      'Deleted bot BTC/USDT:USDT',
      'Stopped bot BTC/USDT:USDT',
      'Started bot BTC/USDT:USDT',
      'Created bot BTC/USDT:USDT',
      'Added exchange API Paper',
    ]);
  });
});
