import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { signedInUser } from './session';

// A new strategy's card: risk figures wait for their history (a dash that says why), and the
// sparkline's colour follows the return shown beside it.

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

test("a new strategy's card shows no Sharpe yet and a sparkline coloured by its return", async ({
  browser,
  request,
}) => {
  const ownerContext = await browser.newContext();
  const owner = await signedInUser(await ownerContext.newPage(), request, 'new-strategy');
  const headers = { authorization: `Bearer ${owner.access}` };
  const account = await request.post('/api/auth/apis/', {
    headers,
    data: { name: 'Fresh desk', exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(account.status()).toBe(201);
  const accountId = ((await account.json()) as { id: number }).id;
  const name = `Fresh ${Date.now().toString(36)}`;
  const shared = await request.put(`/api/strategy-square/accounts/${accountId}/share-settings/`, {
    headers,
    data: { is_public: true, name },
  });
  expect(shared.status()).toBe(200);
  await ownerContext.close();

  const hint = {
    en: 'Shown after 7 days of history (0 so far)',
    'zh-CN': '满 7 天历史后显示（目前 0 天）',
  };
  for (const language of ['zh-CN', 'en'] as const) {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 800 },
    ]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.addInitScript((lng) => localStorage.setItem('qs.language', lng), language);
      // Its curve rose while its return over the period is a loss: the line must be red.
      await page.route('**/api/strategy-square/strategies/?*', async (route) => {
        const answer = await route.fetch();
        const body = (await answer.json()) as {
          results: {
            name: string;
            total_pnl_percent: number;
            total_profit_rate: number;
            metrics: { sharpe_ratio: number | null };
            snapshots: { timestamp: string; balance: number }[];
          }[];
        };
        for (const card of body.results) {
          if (card.name !== name) continue;
          card.total_pnl_percent = -2.5;
          card.total_profit_rate = -2.5;
          card.metrics.sharpe_ratio = 48.7;
          const now = Date.now();
          card.snapshots = [0, 1, 2].map((day) => ({
            timestamp: new Date(now - (2 - day) * 86_400_000).toISOString(),
            balance: 1000 + day * 10,
          }));
        }
        return route.fulfill({ response: answer, json: body });
      });
      await page.goto(`/strategy-square?q=${encodeURIComponent(name)}`);
      const card = page.getByTestId('strategy-card').filter({ hasText: name });
      await expect(card).toBeVisible();
      const sharpe = card.getByTestId('strategy-card-sharpe');
      await expect(sharpe).toHaveText('—');
      await expect(sharpe).toHaveAttribute('data-reason', 'history');
      await expect(async () => {
        await sharpe.hover();
        await expect(page.getByRole('tooltip')).toHaveText(hint[language], { timeout: 2000 });
      }).toPass({ timeout: 15_000 });
      await expect(card.getByTestId('strategy-card-period-return')).toHaveText('-2.50%');
      await expect(card.getByTestId('sparkline')).toHaveAttribute('data-tone', 'down');
      await card.screenshot({
        path: `${screensDir}/new-strategy-card-${language}-${viewport.width}.png`,
      });
      await context.close();
    }
  }
});
