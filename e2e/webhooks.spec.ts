import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { chooseOption } from './antd';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

async function paperAccount(request: APIRequestContext, access: string, name: string) {
  const answer = await request.post('/api/auth/apis/', {
    headers: { authorization: `Bearer ${access}` },
    data: { name, exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { id: number }).id;
}

async function confirmDialog(page: Page) {
  const dialog = page.locator('.ant-modal-confirm').last();
  await expect(dialog).toBeVisible();
  await dialog.locator('.ant-btn-primary').click();
  await expect(dialog).toBeHidden();
}

test('a user connects a TradingView alert to a paper account and watches the signal fill', async ({
  page,
  request,
}) => {
  // The whole flow, then three screens in two languages and two widths.
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const { access } = await signedInUser(page, request, 'webhook');
  await paperAccount(request, access, 'TV paper');

  // The mobile menu's 'signal trading' entry and the management centre's sidebar lead here.
  await page.goto('/my/account');
  await page.getByTestId('my-sidebar').getByText('信号交易').click();
  await expect(page).toHaveURL(/\/webhook-trading$/);
  await expect(page.getByTestId('webhook-configs-empty')).toBeVisible();
  await expect(page.getByTestId('webhook-example-text')).toContainText('"action"');

  // Create a configuration on the paper account: fixed symbol, 100 USDT at 3x.
  await page.getByTestId('webhook-create').click();
  await page.getByTestId('webhook-form-name').fill('TV BTC');
  await chooseOption(page, 'webhook-form-account', 'TV paper');
  // A symbol the exchange does not list is refused by the server, said in Chinese on the field.
  await page.getByTestId('webhook-form-symbol').fill('NOPE/USDT:USDT');
  await page.getByTestId('webhook-form-submit').click();
  await expect(page.getByText('该账户的交易所不支持此交易对')).toBeVisible();
  await page.getByTestId('webhook-form-symbol').fill('BTC/USDT:USDT');
  await page.getByTestId('webhook-form-amount').fill('100');
  await page.getByTestId('webhook-form-leverage').fill('3');
  await page.getByTestId('webhook-form-tradingview-ips').click();
  await expect(page.getByTestId('webhook-form-ips')).toContainText('52.89.214.238');
  // An allowlist would refuse the test's own address: leave it empty.
  for (let i = 0; i < 4; i += 1) {
    await page
      .getByTestId('webhook-form-ips')
      .locator('.ant-select-selection-item-remove')
      .first()
      .click();
  }
  await expect(page.getByTestId('webhook-form-ips')).not.toContainText('52.89.214.238');
  await page.getByTestId('webhook-form-submit').click();

  // The full URL is shown once, and copy puts it on the clipboard.
  const revealed = page.getByTestId('webhook-revealed-url');
  await expect(revealed).toBeVisible();
  const url = await revealed.inputValue();
  expect(url).toMatch(/\/api\/webhook-trading\/hook\/[0-9a-f]{64}\/$/);
  await page.getByTestId('webhook-revealed-copy').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await page.getByTestId('webhook-revealed-close').click();

  const card = page.locator('[data-testid="webhook-config"][data-name="TV BTC"]');
  await expect(card).toHaveAttribute('data-enabled', 'true');
  await expect(card.getByTestId('webhook-url-full')).toHaveText(url);

  // The dry run says what the alert would do, ordering nothing.
  await page.getByTestId('webhook-test-send').click();
  await expect(page.getByTestId('webhook-test-result')).toHaveAttribute(
    'data-outcome',
    'validated',
  );
  await expect(page.getByTestId('webhook-test-plan')).toContainText('开多');

  // Batch disable (confirmed), then enable again.
  await card.getByTestId('webhook-config-select').click();
  await page.getByTestId('webhook-batch-disable').click();
  await confirmDialog(page);
  await expect(card).toHaveAttribute('data-enabled', 'false');
  await page.getByTestId('webhook-batch-enable').click();
  await confirmDialog(page);
  await expect(card).toHaveAttribute('data-enabled', 'true');
  await page.screenshot({ path: `${screensDir}/webhooks-zh-CN-1280.png`, fullPage: true });

  // TradingView posts the alert as text; the receiver answers 202 at once.
  const hookPath = new URL(url).pathname;
  const alert = await request.post(hookPath, {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    data: JSON.stringify({ action: 'buy', symbol: 'BINANCE:BTCUSDT.P', id: `e2e-${Date.now()}` }),
  });
  expect(alert.status()).toBe(202);
  const { signal_id: signalId } = (await alert.json()) as { signal_id: number };

  // Signal monitoring shows it go to filled; its trail runs received → filled.
  await page.getByTestId('webhook-tabs').getByText('信号监控').click();
  await expect(page).toHaveURL(/\/webhook-trading\/signals$/);
  const row = page.getByTestId('webhook-signal').first();
  await expect(row).toHaveAttribute('data-status', 'filled', { timeout: 30_000 });
  await row.click();
  const trail = page.getByTestId('webhook-trail');
  await expect(page.getByText(`信号 #${signalId}`)).toBeVisible();
  await expect(trail).toHaveAttribute('data-status', 'filled');
  const steps = trail.getByTestId('webhook-trail-step');
  await expect(steps.first()).toHaveAttribute('data-step', 'received');
  await expect(steps.last()).toHaveAttribute('data-step', 'filled');
  await expect(trail.getByTestId('webhook-trail-execution')).toHaveAttribute(
    'data-status',
    'filled',
  );
  await expect(trail.getByTestId('webhook-trail-reason')).toHaveCount(0);
  // The steps are worded in the reader's language, not the engine's ("open_long 0.01 … @ …").
  const stepTexts = trail.getByTestId('webhook-trail-step-text');
  await expect(stepTexts.last()).toContainText('开多 成交');
  await expect(stepTexts.last()).toContainText('均价');
  for (const text of await stepTexts.allTextContents()) {
    expect(text).not.toMatch(/open_long|reverse_to|close_long|@|order /);
  }
  await page.screenshot({ path: `${screensDir}/webhooks-signals-zh-CN-1280.png` });
  await page.keyboard.press('Escape');

  // A stale alert is refused (400), recorded, and its reason said in the reader's language.
  const stale = await request.post(hookPath, {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    data: JSON.stringify({ action: 'sell', timestamp: Math.floor(Date.now() / 1000) - 3600 }),
  });
  expect(stale.status()).toBe(400);
  await page.getByRole('button', { name: /刷新/ }).click();
  const refused = page.locator('[data-testid="webhook-signal"][data-status="refused"]');
  await expect(refused).toHaveCount(1, { timeout: 20_000 });
  await refused.click();
  await expect(page.getByTestId('webhook-trail-reason')).toHaveText('警报已超过信号最大时效');
  await expect(
    page.getByTestId('webhook-trail').getByTestId('webhook-trail-step').last(),
  ).toHaveAttribute('data-step', 'refused');
  await page.keyboard.press('Escape');

  // The logs record the receipt and the fill.
  await page.getByTestId('webhook-tabs').getByText('日志').click();
  await expect(page).toHaveURL(/\/webhook-trading\/logs$/);
  const filledLog = page.locator('[data-testid="webhook-log"][data-event="order_filled"]');
  await expect(filledLog).toHaveCount(1);
  await expect(filledLog).toContainText(`信号 #${signalId}：开多 成交`);
  for (const text of await page.getByTestId('webhook-log-text').allTextContents()) {
    expect(text).not.toMatch(/open_long|reverse_to|close_long|@|order \d/);
  }
  await page.screenshot({ path: `${screensDir}/webhooks-logs-zh-CN-1280.png`, fullPage: true });

  // The position is on the account overview.
  await page.goto('/my/account');
  await expect(page.getByTestId('account-position').filter({ hasText: 'BTC' })).toHaveCount(1, {
    timeout: 30_000,
  });

  // The screens in English, and on a phone in both languages.
  for (const language of ['en', 'zh-CN']) {
    await page.evaluate((lang) => localStorage.setItem('qs.language', lang), language);
    for (const width of language === 'en' ? [1280, 375] : [375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      for (const [screen, path] of [
        ['webhooks', '/webhook-trading'],
        ['webhooks-signals', '/webhook-trading/signals'],
        ['webhooks-logs', '/webhook-trading/logs'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByTestId('webhook-tabs')).toBeVisible();
        if (screen === 'webhooks') await expect(card).toBeVisible();
        else if (screen === 'webhooks-signals') {
          await expect(page.getByTestId('webhook-signal').first()).toBeVisible();
        } else {
          await expect(page.getByTestId('webhook-log').first()).toBeVisible();
          const filled = page.locator('[data-testid="webhook-log"][data-event="order_filled"]');
          await expect(filled).toContainText(
            language === 'en' ? `Signal #${signalId}:` : `信号 #${signalId}：`,
          );
          await expect(filled).not.toContainText(/open_long|@/);
        }
        await expectFitsWidth(page, `${screen} ${language} ${width}`);
        await page.screenshot({
          path: `${screensDir}/${screen}-${language}-${width}.png`,
          fullPage: true,
        });
      }
    }
  }
  // The trail drawer on a phone.
  await page.goto(`/webhook-trading/signals?signal=${signalId}`);
  await expect(page.getByTestId('webhook-trail')).toHaveAttribute('data-status', 'filled');
  await page.screenshot({ path: `${screensDir}/webhooks-trail-zh-CN-375.png`, fullPage: true });
});
