import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { chooseMenuEntry } from './antd';
import { expectFitsWidth } from './layout';
import { newCode, outboxIds } from './outbox';
import { E2E_CODE_COOLDOWN_SECONDS } from './timers';
import { totp } from './totp';

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const CODE_COOLDOWN_MS = E2E_CODE_COOLDOWN_SECONDS * 1000;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${screensDir}/${name}.png`, fullPage: true });
}

/**
 * Logs out from the user menu: the login screen opens at once (the device forgets the session
 * without waiting for the server), and the server revokes the session (its refresh token is
 * refused afterwards).
 */
async function logOut(page: Page, request: APIRequestContext) {
  const refresh = await page.evaluate(() => localStorage.getItem('refresh'));
  expect(refresh).toBeTruthy();
  await chooseMenuEntry(page.getByTestId('user-menu'), page.getByTestId('logout'));
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('access'))).toBeNull();
  await expect
    .poll(async () => (await request.post('/api/auth/refresh/', { data: { refresh } })).status())
    .toBe(401);
}

test('a new user registers, logs in with an e-mail code, turns on 2FA and is asked for it at the next login', async ({
  page,
  request,
}) => {
  // The second code to the address waits out its cooldown (shortened on the test server).
  test.setTimeout(120_000);
  const email = `trader-${Date.now()}@example.com`;
  const password = 'correct-horse-42';
  await page.setViewportSize({ width: 1280, height: 860 });

  // Register by e-mail: the account is logged in at once and sent to account security.
  await page.goto('/register');
  await expect(page.getByRole('heading', { name: '注册' })).toBeVisible();
  await page.locator('#register_email').fill(email);
  await page.locator('#register_password').fill(password);
  await page.locator('#register_password2').fill('something-else');
  await page.getByTestId('register-submit').click();
  await expect(page.getByText('密码不一致')).toBeVisible();
  await page.locator('#register_password2').fill(password);
  await shot(page, 'register-1280');
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/my\/security$/);
  await expect(page.getByTestId('2fa-status')).toHaveAttribute('data-enabled', 'false');

  // Log out, then log in with password and an e-mail code read from the outbox.
  await logOut(page, request);
  await page.locator('#login_email').fill(email);
  await page.locator('#login_password').fill(password);
  let seen = await outboxIds(request, email);
  await page.getByTestId('send-email-code').click();
  const firstCodeSentAt = Date.now();
  await expect(page.getByTestId('send-email-code')).toBeDisabled();
  const firstCode = await newCode(request, email, seen);
  await page.locator('#login_email_code').fill(firstCode);
  await shot(page, 'login-1280');
  await page.getByTestId('login-submit').click();

  // Without Google authentication the user is offered to set it up.
  await expect(page.getByTestId('google-auth-prompt')).toBeVisible();
  await page.getByTestId('google-prompt-setup').click();
  await expect(page).toHaveURL(/\/my\/security$/);

  // Turn on 2FA with a code computed from the shown secret.
  await page.getByTestId('2fa-enable').click();
  await expect(page.getByTestId('2fa-qr')).toBeVisible();
  const secret = (
    (await page.getByTestId('2fa-secret').locator('code').textContent()) ?? ''
  ).trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await shot(page, 'security-setup-1280');
  const setupCode = totp(secret);
  await page.getByTestId('2fa-verify-code').fill(setupCode);
  await page.getByTestId('2fa-verify-submit').click();
  await expect(page.getByTestId('2fa-status')).toHaveAttribute('data-enabled', 'true');
  await shot(page, 'security-1280');

  // Log out and log in again: the server now demands the Google code.
  await logOut(page, request);
  await page.waitForTimeout(Math.max(0, firstCodeSentAt + CODE_COOLDOWN_MS + 1000 - Date.now()));
  await page.locator('#login_email').fill(email);
  await page.locator('#login_password').fill(password);
  seen = await outboxIds(request, email);
  await page.getByTestId('send-email-code').click();
  const secondCode = await newCode(request, email, seen);
  await page.locator('#login_email_code').fill(secondCode);
  await expect(page.getByTestId('login-google-code')).toHaveCount(0);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-google-code')).toBeVisible();
  await shot(page, 'login-google-1280');

  // A code of a step already used is refused; the server also takes the next step's code.
  let loginCode = totp(secret);
  if (loginCode === setupCode) loginCode = totp(secret, Date.now(), 1);
  await page.getByTestId('login-google-code').fill(loginCode);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Signed in: the dashboard offers the bot area instead of the visitor's prompt.
  await expect(page.getByTestId('bot-create')).toBeVisible();
  await expect(page.getByTestId('dashboard-visitor')).toHaveCount(0);
  await expect(page.getByTestId('google-auth-prompt')).toHaveCount(0);
});

test('sign-in screens fit a 375 px phone and show the Chinese texts by default', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/login');
  await expect(page.getByTestId('login-tab-email')).toHaveText('邮箱登录');
  // Sending a code with no e-mail entered is not possible: the button waits for an address.
  await expect(page.getByTestId('send-email-code')).toBeDisabled();
  await expectFitsWidth(page);
  await shot(page, 'login-375');

  await page.getByTestId('login-tab-phone').click();
  await expect(page.locator('#login_phone')).toBeVisible();
  await expect(page.locator('#login_email')).toHaveCount(0);

  await page.goto('/register?type=phone&phone=13800138000');
  await expect(page.locator('#register_phone')).toHaveValue('13800138000');
  await expectFitsWidth(page);
  await shot(page, 'register-375');

  // A registered user (made over the API) opening the security page on a phone.
  const email = `phone-${Date.now()}@example.com`;
  const answer = await request.post('/api/auth/register/', {
    data: { email, password: 'correct-horse-42', password2: 'correct-horse-42' },
  });
  expect(answer.status()).toBe(201);
  const tokens = (await answer.json()) as { access: string; refresh: string };
  await page.evaluate(({ access, refresh }) => {
    localStorage.setItem('access', access);
    localStorage.setItem('refresh', refresh);
  }, tokens);
  await page.goto('/my/security');
  await expect(page.getByTestId('security-email')).toContainText(email);
  await expect(page.getByTestId('coin-balance')).toBeVisible();
  await expectFitsWidth(page);
  await shot(page, 'security-375');

  // A logged-in user opening /login is sent to the dashboard.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a login-only route sends a visitor to the login screen', async ({ page }) => {
  await page.goto('/my/security');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('dashboard-visitor')).toBeVisible();
});
