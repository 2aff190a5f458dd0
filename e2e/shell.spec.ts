import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { REGISTER_NOTICE_MS } from '@quantsquare/contracts';
import { chooseMenuEntry } from './antd';
import { expectFitsWidth } from './layout';
import { newCode, outboxIds } from './outbox';
import { signedInUser } from './session';

// The shell's menus, drawers and modals as most users see them: animated (the other specs run
// with reduced motion, which the pages honour by turning antd's animations off).
test.use({ reducedMotion: 'no-preference' });

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

/** A visitor who closed the dashboard's welcome pop-up before (it is not what these tests see). */
async function welcomeSeen(page: Page) {
  await page.addInitScript(() => localStorage.setItem('qs.welcomeClosedAt', String(Date.now())));
}

async function english(page: Page) {
  await page.addInitScript(() => localStorage.setItem('qs.language', 'en'));
}

/** Promotes a user to staff through the admin CLI (handed to the running server). */
function makeStaff(email: string) {
  execFileSync(
    'npm',
    ['run', 'admin', '--', 'create-staff', '--email', email, '--password', 'correct-horse-42'],
    {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
      stdio: 'pipe',
    },
  );
}

async function registerPhoneUser(request: APIRequestContext) {
  const phone = `139${String(Date.now()).slice(-8)}`;
  const seen = await outboxIds(request, phone);
  // Without `action` a code is for registering (document 1 §7: `action` only for login).
  const sent = await request.post('/api/auth/send-code/', {
    data: { type: 'phone', target: phone },
  });
  expect(sent.ok()).toBe(true);
  const code = await newCode(request, phone, seen);
  const answer = await request.post('/api/auth/phone-register/', {
    data: { phone, code, password: 'correct-horse-42', password2: 'correct-horse-42' },
  });
  expect(answer.status()).toBe(201);
  return { phone, ...((await answer.json()) as { access: string; refresh: string }) };
}

test('registering shows a notice on the security page that hides after 5 s', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  const email = `notice-${Date.now()}@example.com`;
  await page.goto('/register');
  await page.locator('#register_email').fill(email);
  await page.locator('#register_password').fill('correct-horse-42');
  await page.locator('#register_password2').fill('correct-horse-42');
  await page.getByTestId('register-submit').click();

  await expect(page).toHaveURL(/\/my\/security$/);
  const notice = page.getByTestId('register-success-notice');
  await expect(notice).toBeVisible();
  const shownAt = Date.now();
  await expect(notice).toHaveAttribute('role', 'alert');
  await expect(notice).toContainText('注册成功');
  await expect(notice).toContainText('10,000 USDT 的模拟体验账户');
  await page.screenshot({ path: `${screensDir}/register-notice-1280.png` });
  await expect(notice).toBeHidden({ timeout: REGISTER_NOTICE_MS + 3000 });
  expect(Date.now() - shownAt).toBeGreaterThan(REGISTER_NOTICE_MS - 1500);
  await expect(page).toHaveURL(/\/my\/security$/);
});

test('the desktop navigation has the spec entries and each goes to its route', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await welcomeSeen(page);
  await page.goto('/dashboard');
  await expect(page.getByTestId('nav-home')).toHaveText('首页');
  await expect(page.getByTestId('nav-strategySquare')).toHaveText('策略广场');
  await expect(page.getByTestId('nav-helpCenter')).toHaveText('帮助中心');
  await expect(page.getByTestId('nav-managementCenter')).toHaveCount(0);
  await page.getByTestId('nav-strategySquare').click();
  await expect(page).toHaveURL(/\/strategy-square$/);
  await expect(page.getByTestId('nav-strategySquare')).toHaveAttribute('aria-current', 'page');
  await page.getByTestId('nav-helpCenter').click();
  await expect(page).toHaveURL(/\/help-center$/);

  const { email } = await signedInUser(page, request, 'nav');
  await page.goto('/dashboard');
  await expect(page.getByTestId('nav-managementCenter')).toHaveText('管理中心');
  await page.getByTestId('nav-managementCenter').click();
  await expect(page).toHaveURL(/\/my\/account$/);
  await expect(page.getByTestId('coin-balance')).toContainText('平台币');

  const menu: [string, RegExp][] = [
    ['deposit', /\/deposit$/],
    ['withdraw', /\/withdraw$/],
    ['exchangeAccounts', /\/my\/account$/],
    ['copyManagement', /\/my\/copy-trading$/],
    ['apiManagement', /\/my\/api-management$/],
    ['accountSecurity', /\/my\/security$/],
    ['vip', /\/my\/profile$/],
  ];
  for (const [key, url] of menu) {
    await chooseMenuEntry(page.getByTestId('user-menu'), page.getByTestId(`user-menu-${key}`));
    await expect(page).toHaveURL(url);
  }
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('user-menu-staffConsole')).toHaveCount(0);
  await page.screenshot({ path: `${screensDir}/user-menu-1280.png` });
  await page.keyboard.press('Escape');

  // Staff see the staff console entry.
  makeStaff(email);
  await page.reload();
  await chooseMenuEntry(page.getByTestId('user-menu'), page.getByTestId('user-menu-staffConsole'));
  await expect(page).toHaveURL(/\/staff$/);
});

test('the English desktop navigation fits 1280 px', async ({ page, request }) => {
  await english(page);
  await page.setViewportSize({ width: 1280, height: 860 });
  await signedInUser(page, request, 'nav-en');
  await page.goto('/my/account');
  await expect(page.getByTestId('nav-strategySquare')).toHaveText('Strategy Square');
  await expect(page.getByTestId('nav-managementCenter')).toHaveText('Management Center');
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await expectFitsWidth(page);
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('user-menu-vip')).toHaveText('VIP membership');
  await page.screenshot({ path: `${screensDir}/user-menu-en-1280.png` });
});

test('the mobile bottom navigation: visitor tabs, then the + quick actions and the 8-entry menu', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await welcomeSeen(page);
  await page.goto('/dashboard');
  const nav = page.getByTestId('mobile-nav');
  await expect(nav.getByRole('button')).toHaveText(['首页', '策略', '帮助', '登录']);
  await page.getByTestId('mobile-nav-strategySquare').click();
  await expect(page).toHaveURL(/\/strategy-square$/);
  await page.getByTestId('mobile-nav-helpCenter').click();
  await expect(page).toHaveURL(/\/help-center$/);
  await page.getByTestId('mobile-nav-login').click();
  await expect(page).toHaveURL(/\/login$/);
  await expectFitsWidth(page);

  await signedInUser(page, request, 'mobile');
  await page.goto('/dashboard');
  await expect(page.getByTestId('coin-balance')).toBeVisible();
  await expect(page.getByTestId('mobile-nav-login')).toHaveCount(0);

  const quick: [string, RegExp][] = [
    ['createStrategy', /\/my\/strategies\/create$/],
    ['follow', /\/strategy-square$/],
    ['deposit', /\/deposit$/],
    ['withdraw', /\/withdraw$/],
  ];
  for (const [key, url] of quick) {
    await page.getByTestId('mobile-nav-plus').click();
    await page.getByTestId(`quick-action-${key}`).click();
    await expect(page).toHaveURL(url);
  }

  await page.getByTestId('mobile-menu').click();
  const entries = page.getByRole('menuitem');
  await expect(entries).toHaveText([
    '充值',
    '提现',
    '账户总览',
    '跟单管理',
    '信号交易',
    '信号监控',
    'API 操作日志',
    '退出登录',
  ]);
  await page.screenshot({ path: `${screensDir}/mobile-menu-375.png` });
  await page.keyboard.press('Escape');
  const menu: [string, RegExp][] = [
    ['deposit', /\/deposit$/],
    ['withdraw', /\/withdraw$/],
    ['account', /\/my\/account$/],
    ['copyManagement', /\/my\/copy-trading$/],
    ['signalTrading', /\/webhook-trading$/],
    ['signalMonitoring', /\/webhook-trading\/signals$/],
    ['apiOperationLog', /\/dashboard#operation-log$/],
  ];
  for (const [key, url] of menu) {
    await chooseMenuEntry(page.getByTestId('mobile-menu'), page.getByTestId(`mobile-menu-${key}`));
    await expect(page).toHaveURL(url);
  }
  await expectFitsWidth(page);

  await chooseMenuEntry(page.getByTestId('mobile-menu'), page.getByTestId('logout'));
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('mobile-nav-login')).toBeVisible();
});

test('the footer shows the configured links, and none (without an error) until they exist', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  await welcomeSeen(page);
  // A server without the contact call (or failing it): the footer shows no links and no error.
  await page.route('**/api/help/contact/', (route) =>
    route.fulfill({ status: 404, json: { error: 'Not found', code: 'not_found' } }),
  );
  await page.goto('/dashboard');
  const footer = page.getByTestId('app-footer');
  await expect(footer.getByTestId('footer-copyright')).toContainText('QuantSquare');
  await expect(footer.getByTestId('footer-telegram')).toHaveCount(0);
  await expect(page.locator('.ant-message, .ant-notification')).toHaveCount(0);

  await page.unrouteAll();
  await page.route('**/api/help/contact/', (route) =>
    route.fulfill({
      json: {
        support_email: 'support@example.com',
        telegram_url: 'https://t.me/quantsquare_example',
        x_url: 'javascript:alert(1)',
        website_url: 'https://example.com',
      },
    }),
  );
  await page.reload();
  await expect(footer.getByTestId('footer-telegram')).toHaveAttribute(
    'href',
    'https://t.me/quantsquare_example',
  );
  await expect(footer.getByTestId('footer-telegram')).toHaveAttribute('rel', /noopener/);
  // Only web addresses become links.
  await expect(footer.getByTestId('footer-twitter')).toHaveCount(0);
});

test("a phone user's name in the header has its middle four digits masked", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 860 });
  const { phone, access, refresh } = await registerPhoneUser(request);
  await page.addInitScript(
    (tokens) => {
      localStorage.setItem('access', tokens.access);
      localStorage.setItem('refresh', tokens.refresh);
      localStorage.setItem('qs.welcomeClosedAt', '1');
    },
    { access, refresh },
  );
  await page.goto('/my/security');
  const masked = `${phone.slice(0, 3)}****${phone.slice(7)}`;
  await expect(page.getByTestId('user-name')).toHaveText(masked);
  await expect(page.getByTestId('security-phone')).toHaveText(masked);
  await expect(page.getByText(phone)).toHaveCount(0);
});
