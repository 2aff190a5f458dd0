import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { chooseMenuEntry } from './antd';
import { expectFitsWidth } from './layout';
import { newCode, outboxIds } from './outbox';
import { signedInUser } from './session';

// Small flows of the walk-through: the session-expired notice, profile settings vs VIP
// invitation, the mobile menu's operation log, each strategy's own chart lines, leaving chart
// pages cleanly, phone sign-up with a country code, the VIP link of a refused bot start and a
// phone user's avatar.

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const LANGUAGES = ['zh-CN', 'en'] as const;
const SIZES = [
  { width: 1280, height: 860 },
  { width: 375, height: 760 },
] as const;
type Language = (typeof LANGUAGES)[number];

async function inLanguage(page: Page, language: Language) {
  await page.addInitScript((lng) => {
    localStorage.setItem('qs.language', lng);
    localStorage.setItem('qs.welcomeClosedAt', String(Date.now()));
  }, language);
}

/** Console errors and uncaught exceptions of the page, as text. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`${error.message}\n${error.stack ?? ''}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

test('a session that cannot be renewed lands on the login page saying it expired', async ({
  browser,
}) => {
  const notice = { 'zh-CN': '登录已过期，请重新登录', en: 'Your session has expired' };
  for (const language of LANGUAGES) {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      await inLanguage(page, language);
      // Tokens the server no longer honours: the access is refused and its renewal too.
      await page.addInitScript(() => {
        if (sessionStorage.getItem('seeded')) return;
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem('access', 'expired.access.token');
        localStorage.setItem('refresh', 'revoked.refresh.token');
      });
      await page.goto('/my/account');
      await expect(page).toHaveURL(/\/login$/);
      const shown = page.getByTestId('login-session-expired');
      await expect(shown).toBeVisible();
      await expect(shown).toContainText(notice[language]);
      await expectFitsWidth(page);
      await page.screenshot({
        path: `${screensDir}/session-expired-${language}-${size.width}.png`,
      });
      await context.close();
    }
  }
});

test('a login page opened directly shows no session-expired notice', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-submit')).toBeVisible();
  await expect(page.getByTestId('login-session-expired')).toHaveCount(0);
});

test('/my/settings edits the profile and /my/profile is the VIP invitation, each highlighted', async ({
  browser,
  request,
}) => {
  const labels = {
    'zh-CN': { settings: '个人设置', vip: 'VIP 邀请' },
    en: { settings: 'Profile settings', vip: 'VIP invitation' },
  };
  for (const language of LANGUAGES) {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      await inLanguage(page, language);
      await signedInUser(page, request, 'settings-split');
      const selected = page.getByTestId('my-sidebar').locator('.ant-menu-item-selected');

      await page.goto('/my/settings');
      await expect(page.getByTestId('profile-card')).toBeVisible();
      await expect(page.getByTestId('vip-card')).toHaveCount(0);
      await expect(page.getByTestId('invitation-card')).toHaveCount(0);
      await expect(selected).toHaveText(labels[language].settings);
      await expectFitsWidth(page);
      await page.screenshot({ path: `${screensDir}/my-settings-${language}-${size.width}.png` });

      await page.goto('/my/profile');
      await expect(page.getByTestId('vip-card')).toBeVisible();
      await expect(page.getByTestId('invitation-card')).toBeVisible();
      await expect(page.getByTestId('profile-card')).toHaveCount(0);
      await expect(selected).toHaveText(labels[language].vip);
      await expectFitsWidth(page);
      await page.screenshot({ path: `${screensDir}/my-profile-${language}-${size.width}.png` });
      await context.close();
    }
  }
});

test("the mobile menu's API operation log opens the bots' operation log, not the webhook log", async ({
  browser,
  request,
}) => {
  for (const language of LANGUAGES) {
    const context = await browser.newContext({ viewport: SIZES[1] });
    const page = await context.newPage();
    await inLanguage(page, language);
    await signedInUser(page, request, 'oplog-menu');
    await page.goto('/strategy-square');
    await chooseMenuEntry(
      page.getByTestId('mobile-menu'),
      page.getByTestId('mobile-menu-apiOperationLog'),
    );
    await expect(page).toHaveURL(/\/dashboard#operation-log$/);
    await expect(page.getByTestId('operation-log')).toBeInViewport();
    await page.screenshot({ path: `${screensDir}/menu-operation-log-${language}-375.png` });
    await context.close();
  }
});

/** Picks the dashboard strategy whose name contains `text`. */
async function chooseStrategy(page: Page, text: string) {
  const select = page.getByTestId('dashboard-strategy');
  await expect(async () => {
    await select.click();
    await page
      .locator('.ant-select-item-option:visible', { hasText: text })
      .first()
      .click({ timeout: 2000 });
    await expect(select).toContainText(text, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}

test('the dashboard draws each strategy its own indicators, and leaving it throws nothing', async ({
  browser,
}) => {
  for (const language of LANGUAGES) {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      const errors = collectErrors(page);
      await inLanguage(page, language);
      await page.goto('/dashboard');
      const chart = page.getByTestId('candle-chart');
      await expect(chart).toHaveAttribute('data-lines', 'ma_fast ma_slow');

      await chooseStrategy(page, 'RSI');
      await expect(chart).toHaveAttribute('data-lines', 'rsi');
      const legend = page.getByText(language === 'en' ? 'Fast MA' : '快线 MA');
      await expect(legend).toHaveCount(0);
      await expect(page.getByText('RSI', { exact: true })).toBeVisible();
      await page.waitForTimeout(300); // the lower pane draws on the next frame
      await chart.screenshot({ path: `${screensDir}/dashboard-rsi-${language}-${size.width}.png` });

      await chooseStrategy(page, 'Bollinger');
      await expect(chart).toHaveAttribute('data-lines', 'bb_upper bb_middle bb_lower');
      await chooseStrategy(page, 'MACD');
      await expect(chart).toHaveAttribute(
        'data-lines',
        'ma_fast ma_slow macd macd_signal macd_histogram',
      );
      await chart.screenshot({
        path: `${screensDir}/dashboard-macd-${language}-${size.width}.png`,
      });

      // Leaving the chart pages inside the app (no reload) disposes the charts without errors.
      await page.evaluate(() => {
        window.history.pushState({}, '', '/help-center');
        window.dispatchEvent(new PopStateEvent('popstate'));
      });
      await expect(page).toHaveURL(/\/help-center$/);
      await expect(chart).toHaveCount(0);
      await page.waitForTimeout(500);
      expect(errors.filter((e) => /disposed/i.test(e))).toEqual([]);
      await context.close();
    }
  }
});

async function registerPhoneWithCode(page: Page, request: APIRequestContext, national: string) {
  const full = `+44${national}`;
  const seen = await outboxIds(request, full);
  await page.getByTestId('register-tab-phone').click();
  const country = page.getByTestId('phone-country');
  await expect(async () => {
    await country.click();
    await page.keyboard.type('+44');
    await page
      .locator('.ant-select-item-option:visible', { hasText: '+44' })
      .first()
      .click({ timeout: 2000 });
    await expect(country).toContainText('+44', { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await page.locator('#register_phone').fill(national);
  await page.getByTestId('send-register-sms-code').click();
  // The code goes to the number with its country code.
  const code = await newCode(request, full, seen);
  await page.locator('#register_code').fill(code);
  await page.locator('#register_password').fill('correct-horse-42');
  await page.locator('#register_password2').fill('correct-horse-42');
  return full;
}

test('phone sign-up picks a country code, and the phone user avatar shows no digit', async ({
  browser,
  request,
}) => {
  for (const language of LANGUAGES) {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      await inLanguage(page, language);
      await page.goto('/register');
      const national = `7700${String(Date.now()).slice(-6)}`;
      const full = await registerPhoneWithCode(page, request, national);
      await expectFitsWidth(page);
      await page.screenshot({
        path: `${screensDir}/register-phone-country-${language}-${size.width}.png`,
      });
      await page.getByTestId('register-submit').click();
      await expect(page).toHaveURL(/\/my\/security$/);

      // Registered under its full international number.
      const profile = await page.evaluate(async () => {
        const answer = await fetch('/api/auth/profile/', {
          headers: { authorization: `Bearer ${localStorage.getItem('access')}` },
        });
        return (await answer.json()) as { phone: string | null };
      });
      expect(profile.phone).toBe(full);

      await page.goto('/my/settings');
      const avatar = page.getByTestId('profile-avatar');
      await expect(avatar).toBeVisible();
      await expect(avatar.locator('.anticon-user')).toBeVisible();
      await expect(avatar).not.toContainText(/\d|\+/);
      await page.getByTestId('profile-card').screenshot({
        path: `${screensDir}/phone-user-avatar-${language}-${size.width}.png`,
      });
      await context.close();
    }
  }
});

test('a refused bot start links to buying VIP', async ({ browser, request }) => {
  for (const language of LANGUAGES) {
    for (const size of SIZES) {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      await inLanguage(page, language);
      const { access } = await signedInUser(page, request, 'vip-link');
      const account = await request.post('/api/auth/apis/', {
        headers: { authorization: `Bearer ${access}` },
        data: { name: 'Paper', exchange: 'binance', is_paper: true, default_leverage: 2 },
      });
      expect(account.status()).toBe(201);
      const created = await request.post('/api/trading/bots/', {
        headers: { authorization: `Bearer ${access}` },
        data: {
          exchange_api: ((await account.json()) as { id: number }).id,
          strategy: 1,
          symbol: 'ETH/USDT:USDT',
          timeframe: '1h',
          trade_amount: 50,
        },
      });
      expect(created.status()).toBe(201);

      await page.goto('/dashboard');
      const row = page.locator('[data-testid="bot-row"][data-symbol="ETH/USDT:USDT"]');
      await row.getByTestId('bot-start').click();
      const link = row.getByTestId('bot-buy-vip');
      await expect(link).toBeVisible();
      await expect(link).toHaveText(language === 'en' ? 'Get VIP' : '开通 VIP');
      await row.screenshot({ path: `${screensDir}/bot-vip-link-${language}-${size.width}.png` });
      await link.click();
      await expect(page).toHaveURL(/\/my\/profile$/);
      await expect(page.getByTestId('vip-card')).toBeVisible();
      await context.close();
    }
  }
});
