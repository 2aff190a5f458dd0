import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { animationsOver } from './antd';
import { createAndStartBot } from './bot-flow';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

// The strategy builder: conditions from lists, the rules as a sentence, invalid input kept from
// being saved, a saved strategy backtested, and the same strategy on the dashboard chart.

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

/** Picks `title` in the antd Select `select` (one of several alike, so located, not by id). */
async function choose(page: Page, select: Locator, title: string) {
  await expect(async () => {
    await select.click();
    const option = page.locator(`.ant-select-item-option[title="${title}"]:visible`);
    await animationsOver(option);
    await option.click({ timeout: 2000 });
    await expect(select).toContainText(title, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

test('builds a strategy, refuses invalid input, saves and backtests it', async ({
  page,
  request,
}) => {
  // English first; the screenshots below switch languages (so only when none is chosen yet).
  await page.addInitScript(() => {
    if (!localStorage.getItem('qs.language')) localStorage.setItem('qs.language', 'en');
  });
  const user = await signedInUser(page, request, 'builder');
  await page.goto('/my/strategy-builder');

  const sentence = page.getByTestId('rule-sentence');
  // The starting rules: the SMA cross, long side.
  await expect(sentence).toContainText('Open long when SMA(10) crosses above SMA(30).');
  await expect(sentence).toContainText('Close long when SMA(10) crosses below SMA(30).');

  // The starting rules are backtested before anything is saved: chart, markers, equity.
  const preview = page.getByTestId('strategy-preview');
  await expect(preview.getByTestId('backtest-summary')).toBeVisible({ timeout: 30_000 });
  await expect(preview.getByTestId('equity-chart')).not.toHaveAttribute('data-point-count', '0');
  await expect(preview.getByTestId('candle-chart')).not.toHaveAttribute('data-candle-count', '0');

  // A second condition for the long entry: "and SMA(10) is below close". The preview backtests
  // the edited rules once editing pauses.
  const previewed = page.waitForRequest(
    (r) =>
      r.url().endsWith('/api/trading/backtest/') &&
      (r.postData() ?? '').includes('"op":"lt","right":{"price":"close"}'),
  );
  const entry = page.getByTestId('slot-entry_long');
  await entry.getByTestId('add-condition').first().click();
  const second = entry.getByTestId('rule-leaf').nth(1);
  await choose(page, second.getByTestId('rule-operator'), 'is below');
  await choose(page, second.getByTestId('operand-right-kind'), 'Price');
  await expect(sentence).toContainText(
    'Open long when SMA(10) crosses above SMA(30) and SMA(10) is below close.',
  );
  await previewed;

  // Without a name and with an empty period nothing is sent: field messages say why.
  let writes = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/trading/user-strategies/') && r.method() !== 'GET') writes++;
  });
  const exitPeriod = page
    .getByTestId('slot-exit_long')
    .getByTestId('operand-right')
    .getByRole('spinbutton', { name: 'Period' });
  await exitPeriod.fill('');
  await page.getByTestId('save-strategy').click();
  await expect(page.getByTestId('name-error')).toHaveText('Enter a strategy name');
  await expect(page.getByTestId('slot-exit_long').getByTestId('field-error')).toHaveText(
    'A whole number from 1 to 500',
  );
  expect(writes).toBe(0);

  await exitPeriod.fill('30');
  await exitPeriod.blur();
  const name = `Cross ${Date.now().toString(36)}`;
  await page.getByTestId('strategy-name').fill(name);
  await page.getByTestId('save-strategy').click();
  await expect(page.getByText('Strategy saved')).toBeVisible();
  expect(writes).toBe(1);

  const listed = await request.get('/api/trading/user-strategies/', {
    headers: { authorization: `Bearer ${user.access}` },
  });
  const stored = ((await listed.json()) as { results: { name: string; rules: unknown }[] })
    .results[0];
  expect(stored?.name).toBe(name);
  expect(stored?.rules).toMatchObject({
    entry_long: { all: [{ op: 'crosses_above' }, { op: 'lt', right: { price: 'close' } }] },
  });

  for (const language of ['en', 'zh-CN'] as const) {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.evaluate((lng) => localStorage.setItem('qs.language', lng), language);
      await page.reload();
      await choose(page, page.getByTestId('strategy-picker'), name);
      await expect(
        page.getByTestId('strategy-preview').getByTestId('backtest-summary'),
      ).toBeVisible({ timeout: 30_000 });
      await page.keyboard.press('Escape');
      await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
      await page.screenshot({
        path: `${screensDir}/strategy-builder-${language}-${width}.png`,
        fullPage: true,
      });
      await page.getByTestId('rules-card').screenshot({
        path: `${screensDir}/strategy-builder-rules-${language}-${width}.png`,
      });
    }
  }
  await expect(page.getByTestId('rule-sentence')).toContainText(
    '当 SMA(10) 上穿 SMA(30) 且 SMA(10) 低于 收盘价 时开多。',
  );

  // On the dashboard chart: the strategy is offered and its backtest is drawn.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByRole('link', { name: '在首页图表中查看' }).click();
  await expect(page.getByTestId('dashboard-strategy')).toContainText(name);
  await expect(page.getByTestId('backtest-summary')).toBeVisible({ timeout: 30_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${screensDir}/strategy-builder-dashboard.png` });
});

test('a VIP user starts a bot on a strategy they built, the bot runs its rules, and a visitor reads them', async ({
  page,
  request,
  browser,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { email, access } = await signedInUser(page, request, 'builder-bot');
  const auth = { authorization: `Bearer ${access}` };
  const sma = (period: number) => ({ indicator: 'sma', period });
  const name = `Own cross ${Date.now().toString(36)}`;
  const saved = await request.post('/api/trading/user-strategies/', {
    headers: auth,
    data: {
      name,
      description: 'SMA(5) over SMA(20)',
      rules: {
        entry_long: { left: sma(5), op: 'crosses_above', right: sma(20) },
        exit_long: { left: sma(5), op: 'crosses_below', right: sma(20) },
        entry_short: null,
        exit_short: null,
      },
    },
  });
  expect(saved.status()).toBe(201);
  const strategyId = ((await saved.json()) as { id: number }).id;
  const account = await request.post('/api/auth/apis/', {
    headers: auth,
    data: { name: 'Builder desk', exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(account.status()).toBe(201);
  // Bots on one's own strategies are a VIP feature (granted as staff would, through the CLI).
  execFileSync('npm', ['run', 'admin', '--', 'grant-vip', '--email', email, '--days', '30'], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });

  await page.goto('/dashboard');
  const row = await createAndStartBot(page, {
    account: 'Builder desk',
    strategy: name,
    symbol: 'BTC/USDT:USDT',
    timeframe: '1m',
    amount: '100',
  });
  // The card names the rule set, not its `custom:<id>` type.
  await expect(row).toContainText(name);

  // The server runs the bot on the rule set: its type names the saved strategy.
  const bots = await request.get('/api/trading/bots/', { headers: auth });
  expect(bots.ok()).toBe(true);
  const { results } = (await bots.json()) as {
    results: { strategy_type: string; status: string }[];
  };
  expect(results).toEqual([
    expect.objectContaining({ strategy_type: `custom:${strategyId}`, status: 'running' }),
  ]);
  await page.screenshot({ path: `${screensDir}/strategy-builder-bot-1280.png`, fullPage: true });

  // Published with its rules shown: a visitor reads them on the strategy page, in words.
  await page.goto('/my/strategies/create');
  await page.locator('[data-testid="publish-account"][data-name="Builder desk"]').click();
  await page.getByTestId('publish-next').click();
  await expect(page.getByTestId('share-show_rules')).not.toBeChecked();
  await page.getByTestId('share-show_rules').click();
  await page.getByTestId('publish-submit').click();
  await expect(page.getByTestId('publish-done')).toBeVisible();
  const accountId = ((await account.json()) as { id: number }).id;

  const visitor = await browser.newContext();
  await visitor.addInitScript(() => {
    if (!localStorage.getItem('qs.language')) localStorage.setItem('qs.language', 'en');
  });
  const view = await visitor.newPage();
  await view.setViewportSize({ width: 1280, height: 900 });
  await view.goto(`/strategy/${accountId}`);
  const card = view.getByTestId('strategy-rules');
  await expect(card.getByTestId('strategy-rules-name')).toHaveText(name);
  await expect(card.getByTestId('rules-sentences')).toHaveText(
    'Open long when SMA(5) crosses above SMA(20).Close long when SMA(5) crosses below SMA(20).',
  );
  await view.screenshot({ path: `${screensDir}/strategy-rules-en-1280.png`, fullPage: true });
  await view.evaluate(() => localStorage.setItem('qs.language', 'zh-CN'));
  await view.setViewportSize({ width: 375, height: 800 });
  await view.reload();
  await expect(card.getByTestId('rules-sentences')).toContainText('时开多。');
  await expectFitsWidth(view);
  await card.scrollIntoViewIfNeeded();
  await view.screenshot({ path: `${screensDir}/strategy-rules-zh-375.png` });
  await visitor.close();
});
