// A published account's page names the strategies its bots run, and shows their rules and
// parameters only when the owner's share settings say so (`show_rules`, off by default and again
// after the account went private). A visitor never sees a rule set's id.
import { CUSTOM_STRATEGY_ID_OFFSET, type StrategyDetail } from '@quantsquare/contracts';
import { describe, expect, it } from 'vitest';
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

const RULES = {
  entry_long: {
    left: { indicator: 'sma', period: 10 },
    op: 'crosses_above',
    right: { indicator: 'sma', period: 30 },
  },
  exit_long: {
    left: { indicator: 'sma', period: 10 },
    op: 'crosses_below',
    right: { indicator: 'sma', period: 30 },
  },
  entry_short: null,
  exit_short: null,
};

async function publishedAccountWithBots() {
  const session = await registerEmail(ctx.app, uniqueEmail('rules'));
  await grantVip(ctx.database, ctx.clock, Number(session.user.id), 30);
  const token = session.access;
  const accountId = await createPaperAccount(ctx.app, token);
  const saved = await call<{ id: number }>(ctx.app, 'POST', '/api/trading/user-strategies/', {
    token,
    body: { name: 'Golden cross', rules: RULES, trailing_stop_pct: 1.5 },
  });
  expect(saved.status).toBe(201);
  await createBot(ctx.app, token, accountId, {
    strategy: 1,
    symbol: 'BTC/USDT:USDT',
    parameters: { fast_period: 7, slow_period: 21 },
  });
  await createBot(ctx.app, token, accountId, {
    strategy: CUSTOM_STRATEGY_ID_OFFSET + saved.body.id,
    symbol: 'ETH/USDT:USDT',
    stop_loss_percentage: 3,
  });
  const share = (body: Record<string, unknown>) =>
    call(ctx.app, 'PUT', `/api/strategy-square/accounts/${accountId}/share-settings/`, {
      token,
      body,
    });
  expect((await share({ is_public: true, name: 'Rules shown' })).status).toBe(200);
  return { token, accountId, ruleSetId: saved.body.id, share };
}

describe("a published account's strategies", () => {
  it('are named for everyone, their rules shown only when the owner allows it', async () => {
    const { token, accountId, ruleSetId, share } = await publishedAccountWithBots();
    const settings = await call(
      ctx.app,
      'GET',
      `/api/strategy-square/accounts/${accountId}/share-settings/`,
      { token },
    );
    expect(settings.body.show_rules).toBe(false);

    const page = async () => {
      const res = await call<StrategyDetail>(
        ctx.app,
        'GET',
        `/api/strategy-square/strategies/${accountId}/`,
      );
      expect(res.status).toBe(200);
      return res.body;
    };
    const hidden = await page();
    expect(hidden.share_settings.show_rules).toBe(false);
    expect(hidden.strategies).toEqual([
      {
        type: 'custom',
        name: 'Golden cross',
        symbol: 'ETH/USDT:USDT',
        timeframe: '1h',
        is_running: false,
        rules_shown: false,
        parameters: null,
        rules: null,
        stop_loss_pct: null,
        take_profit_pct: null,
        trailing_stop_pct: null,
      },
      expect.objectContaining({
        type: 'ma_cross',
        symbol: 'BTC/USDT:USDT',
        rules_shown: false,
        parameters: null,
      }),
    ]);
    // The rule set's id (custom:<id>) never reaches a visitor.
    expect(JSON.stringify(hidden)).not.toContain(`custom:${ruleSetId}`);

    expect((await share({ show_rules: true })).body.show_rules).toBe(true);
    const shown = await page();
    const [custom, builtIn] = shown.strategies;
    expect(custom).toMatchObject({
      type: 'custom',
      name: 'Golden cross',
      rules_shown: true,
      parameters: null,
      // The bot's own stop-loss first; the trailing stop from the rule set.
      stop_loss_pct: 3,
      take_profit_pct: 5,
      trailing_stop_pct: 1.5,
    });
    expect(custom!.rules?.entry_long).toMatchObject({
      left: { indicator: 'sma', period: 10 },
      op: 'crosses_above',
      right: { indicator: 'sma', period: 30 },
    });
    expect(custom!.rules?.entry_short).toBeNull();
    expect(builtIn).toMatchObject({
      type: 'ma_cross',
      rules_shown: true,
      parameters: { fast_period: 7, slow_period: 21 },
      rules: null,
      stop_loss_pct: 2,
      take_profit_pct: 5,
    });
    expect(JSON.stringify(shown)).not.toContain(`custom:${ruleSetId}`);

    // Made private and public again: the rules are private again.
    expect((await share({ is_public: false })).body.show_rules).toBe(false);
    expect((await share({ is_public: true })).status).toBe(200);
    expect((await page()).strategies.every((s) => !s.rules_shown && s.rules === null)).toBe(true);
  });

  it('refuses a show_rules that is not a boolean', async () => {
    const { share } = await publishedAccountWithBots();
    const res = await share({ show_rules: 'yes' });
    expect(res.status).toBe(400);
  });
});
