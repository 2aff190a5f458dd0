import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';
import { tradeThroughWebhook } from './webhook-signal';

// A reversal (issue item 23) is two fills of one side, a close and an open; it looked like one
// trade listed twice ("sell 0.0021 @ 93,535.69" twice, two stacked S markers). The live trades
// say close and open, and the chart shows one marker that closed and opened.

const screensDir = process.env.E2E_SCREENS_DIR ?? '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const LAYOUTS = [
  ['zh-CN', 1280],
  ['zh-CN', 375],
  ['en', 1280],
  ['en', 375],
] as const;
const TEXTS = {
  'zh-CN': { buyOpen: '买入开多', sellClose: '卖出平多', sellOpen: '卖出开空' },
  en: { buyOpen: 'Buy · open long', sellClose: 'Sell · close long', sellOpen: 'Sell · open short' },
} as const;
const HOUR_MS = 3_600_000;
const auth = (access: string) => ({ authorization: `Bearer ${access}` });

async function useLayout(page: Page, language: string, width: number) {
  await page.evaluate((lang) => localStorage.setItem('qs.language', lang), language);
  await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
}

async function paperAccount(request: APIRequestContext, access: string) {
  const answer = await request.post('/api/auth/apis/', {
    headers: auth(access),
    data: {
      name: `Reversal desk ${Date.now() % 100_000}`,
      exchange: 'binance',
      is_paper: true,
      default_leverage: 2,
    },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  return ((await answer.json()) as { id: number }).id;
}

test('a reversal shows as a close and an open, in the live trades and on the chart', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const owner = await signedInUser(page, request, 'reversal');
  const accountId = await paperAccount(request, owner.access);
  const shared = await request.put(`/api/strategy-square/accounts/${accountId}/share-settings/`, {
    headers: auth(owner.access),
    data: { is_public: true, name: `Reversal ${Date.now().toString(36)}` },
  });
  expect(shared.status()).toBe(200);
  // Long, then a sell while long: the platform closes the long and opens a short.
  const first = await tradeThroughWebhook(request, owner.access, accountId, 'buy');
  await tradeThroughWebhook(request, owner.access, accountId, 'sell', {
    reuse: { config: first.config, hookPath: first.hookPath },
  });

  // A new account has no hourly equity marks yet: the chart is drawn over a day of marks ending
  // now, with the server's own trade markers.
  await page.route(
    new RegExp(`/api/strategy-square/strategies/${accountId}/(\\?.*)?$`),
    async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      const now = Date.now();
      body.equity_curve = Array.from({ length: 25 }, (_, i) => ({
        time: Math.floor((now - (24 - i) * HOUR_MS) / 1000),
        value: 10_000 + i * 3,
      }));
      await route.fulfill({ response, json: body });
    },
  );

  await page.goto(`/strategy/${accountId}`);
  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto(`/strategy/${accountId}`);
    const sides = page.getByTestId('strategy-trade-side');
    await expect(sides).toHaveCount(3, { timeout: 30_000 });
    // Newest first: the reversal's two sells (one close, one open), then the opening buy.
    const texts = TEXTS[language];
    await expect(sides.nth(2)).toHaveText(texts.buyOpen);
    expect((await sides.nth(0).textContent()) !== (await sides.nth(1).textContent())).toBe(true);
    await expect(sides.filter({ hasText: texts.sellClose })).toHaveCount(1);
    await expect(sides.filter({ hasText: texts.sellOpen })).toHaveCount(1);
    // One marker for the buy, one for the reversal (no longer two stacked S).
    const chart = page.getByTestId('strategy-chart');
    await expect(chart).toHaveAttribute('data-marker-effects', 'buy:open sell:reverse');
    await expectFitsWidth(page);
    await page.screenshot({
      path: `${screensDir}/trade-effects-${language}-${width}.png`,
      fullPage: true,
    });
  }
});
