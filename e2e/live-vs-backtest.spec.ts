import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

// A running paper bot's details show its live equity and its backtest's on the same closed
// candles, the delta and the delta's reasons, in both languages, on a desktop and a phone.

const screensDir = process.env.E2E_SCREENS_DIR ?? '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const LAYOUTS = [
  ['zh-CN', 1280],
  ['zh-CN', 375],
  ['en', 1280],
  ['en', 375],
] as const;
const TITLES = { 'zh-CN': '实盘 vs 回测', en: 'Live vs backtest' } as const;
const auth = (access: string) => ({ authorization: `Bearer ${access}` });

/** Grants VIP through the admin CLI, which hands the command to the running server. */
function grantVip(email: string) {
  execFileSync('npm', ['run', 'admin', '--', 'grant-vip', '--email', email, '--days', '30'], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });
}

async function runningBot(request: APIRequestContext, access: string): Promise<number> {
  const account = await request.post('/api/auth/apis/', {
    headers: auth(access),
    data: { name: 'Paper compare', exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(account.status(), await account.text()).toBe(201);
  const accountId = ((await account.json()) as { id: number }).id;
  const created = await request.post('/api/trading/bots/', {
    headers: auth(access),
    data: {
      exchange_api: accountId,
      strategy: 1,
      symbol: 'ETH/USDT:USDT',
      timeframe: '1m',
      trade_amount: 100,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { bot: { id: number } }).bot.id;
  const started = await request.post(`/api/trading/bots/${id}/start/`, { headers: auth(access) });
  expect(started.status(), await started.text()).toBe(200);
  return id;
}

async function useLayout(page: Page, language: string, width: number) {
  await page.evaluate((lang) => localStorage.setItem('qs.language', lang), language);
  await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
}

test('a running bot’s details show its live and backtest curves and the delta', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const { email, access } = await signedInUser(page, request, 'livebt');
  grantVip(email);
  const id = await runningBot(request, access);

  // The comparison starts once the first one-minute candle after the start has closed.
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/trading/bots/${id}/live-vs-backtest/`, {
          headers: auth(access),
        });
        expect(answer.status()).toBe(200);
        return ((await answer.json()) as { period: unknown }).period !== null;
      },
      { timeout: 150_000, intervals: [5_000] },
    )
    .toBe(true);

  await page.goto('/dashboard');
  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto('/dashboard');
    const row = page.locator('[data-testid="bot-row"][data-symbol="ETH/USDT:USDT"]');
    await expect(row).toHaveAttribute('data-status', 'running');
    await row.getByTestId('bot-details').click();
    const panel = row.getByTestId('live-vs-backtest');
    await expect(panel).toContainText(TITLES[language]);
    const chart = panel.getByTestId('lvb-chart');
    await expect(chart.locator('canvas').first()).toBeVisible();
    expect(Number(await chart.getAttribute('data-live-points'))).toBeGreaterThan(0);
    expect(Number(await chart.getAttribute('data-backtest-points'))).toBeGreaterThan(0);
    await expect(panel.getByTestId('lvb-live')).toContainText('%');
    await expect(panel.getByTestId('lvb-backtest')).toContainText('%');
    await expect(panel.getByTestId('lvb-delta')).toContainText('%');
    await expect(panel.getByTestId('lvb-missed')).toBeVisible();
    await expect(panel.getByTestId('lvb-extra')).toBeVisible();
    await expect(panel.getByTestId('lvb-fees')).toBeVisible();
    await expect(panel.getByTestId('lvb-slippage')).toBeVisible();
    await expectFitsWidth(page);
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screensDir}/live-vs-backtest-${language}-${width}.png` });
  }
});

test('the square’s honest tag sorts by the smallest delta and asks for honest strategies', async ({
  page,
}) => {
  const texts = {
    'zh-CN': { tag: '诚实策略', sort: '实盘与回测偏差最小' },
    en: { tag: 'Honest strategies', sort: 'Closest to backtest' },
  } as const;
  await page.goto('/strategy-square');
  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto('/strategy-square');
    const tag = page.getByTestId('square-tag-honest');
    await expect(tag).toHaveText(texts[language].tag);
    const listed = page.waitForResponse(
      (answer) =>
        answer.url().includes('/api/strategy-square/strategies/?') &&
        answer.url().includes('honest=true') &&
        answer.url().includes('sort=live_delta'),
    );
    await tag.click();
    expect((await listed).status()).toBe(200);
    await expect(page).toHaveURL(/honest=1/);
    await expect(page).toHaveURL(/sort=live_delta/);
    await expect(tag).toHaveClass(/checked/);
    await expect(page.getByText(texts[language].sort).first()).toBeVisible();
    await expectFitsWidth(page);
    await page.screenshot({ path: `${screensDir}/square-honest-${language}-${width}.png` });
  }
});
