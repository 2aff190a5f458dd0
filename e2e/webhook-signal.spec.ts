import { expect, test } from '@playwright/test';
import { tradeThroughWebhook } from './webhook-signal.js';

// The helper other browser tests use to make an account trade: an alert posted as TradingView
// would, filled on a paper account, the position visible over the API.
test('an alert posted to a webhook URL trades on the paper account once', async ({ request }) => {
  const password = 'correct-horse-42';
  const registered = await request.post('/api/auth/register/', {
    data: { email: `webhook-${Date.now()}@example.com`, password, password2: password },
  });
  expect(registered.status()).toBe(201);
  const { access } = (await registered.json()) as { access: string };
  const headers = { authorization: `Bearer ${access}` };
  const account = await request.post('/api/auth/apis/', {
    headers,
    data: { name: 'Webhook desk', exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(account.status()).toBe(201);
  const { id: accountId } = (await account.json()) as { id: number };

  const opened = await tradeThroughWebhook(request, access, accountId, 'buy');
  expect(opened.signal.steps.map((s) => s.step)).toEqual([
    'received',
    'validated',
    'intent',
    'placed',
    'filled',
  ]);
  expect(opened.execution).toMatchObject({ action: 'open_long', status: 'filled' });
  const config = await request.get(`/api/webhook-trading/configs/${opened.config.id}/`, {
    headers,
  });
  expect(((await config.json()) as { positions: { side: string }[] }).positions).toEqual([
    expect.objectContaining({ side: 'long' }),
  ]);

  const closed = await tradeThroughWebhook(request, access, accountId, 'close', {
    reuse: { config: opened.config, hookPath: opened.hookPath },
  });
  expect(closed.execution).toMatchObject({ action: 'close_long', status: 'filled' });
});
