import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { signedInUser } from './session';
import { totp } from './totp';

// Step-up for money and keys: with 2FA on, the withdrawal, the new webhook URL and a live
// exchange key are confirmed with the authenticator code in the same dialog; a wrong code is
// said there in the reader's language and nothing happens.
const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });
// A well-formed TRC20 address (base58check, starts with T, 34 characters).
const TRC20_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const auth = (access: string) => ({ authorization: `Bearer ${access}` });

function credit(email: string, amount: string) {
  const args = ['--email', email, '--amount', amount, '--reason', 'browser test'];
  execFileSync('npm', ['run', 'admin', '--', 'credit', ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });
}

/** Turns 2FA on over the API with the previous step's code (the next two steps stay usable). */
async function enableTwoFactor(request: APIRequestContext, access: string) {
  const enabled = await request.post('/api/auth/2fa/enable/', { headers: auth(access) });
  expect(enabled.ok()).toBe(true);
  const { secret } = (await enabled.json()) as { secret: string };
  const verified = await request.post('/api/auth/2fa/verify/', {
    headers: auth(access),
    data: { google_code: totp(secret, Date.now(), -1) },
  });
  expect(verified.ok()).toBe(true);
  return secret;
}

async function useLayout(page: Page, language: string, width: number) {
  await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
  await page.evaluate((lang) => localStorage.setItem('qs.language', lang), language);
}

async function balanceOf(request: APIRequestContext, access: string) {
  const answer = await request.get('/api/auth/balance/', { headers: auth(access) });
  return ((await answer.json()) as { balance: string }).balance;
}

test('a 2FA user confirms a withdrawal and a new webhook URL with the code in the dialog', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const { email, access } = await signedInUser(page, request, 'step-up');
  credit(email, '50');
  const secret = await enableTwoFactor(request, access);

  // The withdrawal, in Chinese at 1280 px: a wrong code is refused in the dialog.
  await page.goto('/withdraw');
  await useLayout(page, 'zh-CN', 1280);
  await page.goto('/withdraw');
  await page.getByTestId('withdraw-network-TRC20').click();
  await page.getByTestId('withdraw-address').fill(TRC20_ADDRESS);
  await page.getByTestId('withdraw-amount').fill('10');
  await page.getByTestId('withdraw-submit').click();
  const code = page.getByTestId('step-up-code');
  await expect(code).toBeVisible();
  await expect(
    page.getByText('您已开启双重验证，请输入验证器中的 6 位验证码确认此操作。'),
  ).toBeVisible();
  await code.fill('000000');
  await page.getByTestId('withdraw-confirm').click();
  await expect(page.getByText('谷歌验证码错误或已使用')).toBeVisible();
  await expect(page.getByTestId('withdraw-confirm')).toBeVisible();
  await page.screenshot({ path: `${screensDir}/step-up-withdraw-zh-CN-1280.png` });
  expect(await balanceOf(request, access)).toBe('50.00000000');
  await code.fill(totp(secret));
  await page.getByTestId('withdraw-confirm').click();
  await expect(page.getByTestId('withdraw-confirm')).toHaveCount(0);
  await expect.poll(() => balanceOf(request, access)).toBe('40.00000000');

  // A new webhook URL, in English at 375 px.
  const accounts = await request.get('/api/auth/apis/', { headers: auth(access) });
  const accountId = ((await accounts.json()) as { results: { id: number }[] }).results[0]?.id;
  const created = await request.post('/api/webhook-trading/configs/', {
    headers: auth(access),
    data: { name: 'TV', exchange_api: accountId, symbol: 'BTCUSDT.P' },
  });
  expect(created.status()).toBe(201);
  const oldUrl = ((await created.json()) as { webhook_url: string }).webhook_url;
  await useLayout(page, 'en', 375);
  await page.goto('/webhook-trading');
  await page.getByTestId('webhook-url-regenerate').click();
  const dialog = page.getByTestId('webhook-regenerate-dialog');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog.getByText('Enter the 6-digit code of your authenticator app')).toBeVisible();
  await dialog.getByTestId('step-up-code').fill('123456');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(dialog.getByText('Wrong or already used authenticator code')).toBeVisible();
  await page.screenshot({ path: `${screensDir}/step-up-webhook-en-375.png` });
  await dialog.getByTestId('step-up-code').fill(totp(secret, Date.now(), 1));
  await dialog.getByRole('button', { name: 'OK' }).click();
  const revealed = page.getByTestId('webhook-revealed-url');
  await expect(revealed).toBeVisible();
  await expect(revealed).not.toHaveText(oldUrl);
});

test('a 2FA user is asked for the code when adding a live key; a user without 2FA is not', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { access } = await signedInUser(page, request, 'step-up-key');
  await enableTwoFactor(request, access);
  for (const [language, width] of [
    ['zh-CN', 1280],
    ['en', 375],
  ] as const) {
    await page.goto('/my/api-management');
    await useLayout(page, language, width);
    await page.goto('/my/api-management');
    await page.getByTestId('api-add').click();
    await page.getByTestId('api-form-name').fill('Live desk');
    await page.getByTestId('api-form-key').fill('step-up-key-1234567890');
    await page.getByTestId('api-form-secret').fill('step-up-secret-0987654321');
    await page.getByTestId('api-form-submit').click();
    await expect(
      page.getByText(
        language === 'en'
          ? 'Enter the 6-digit code of your authenticator app'
          : '请输入验证器中的 6 位验证码',
        { exact: true },
      ),
    ).toBeVisible();
    await page.getByTestId('step-up-code').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screensDir}/step-up-api-${language}-${width}.png` });
    await page.keyboard.press('Escape');
  }
  // Paper accounts have no key: no code.
  await page.getByTestId('api-add').click();
  await page.getByTestId('api-form-paper').click();
  await expect(page.getByTestId('step-up-code')).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Without 2FA the dialogs ask nothing.
  await page.context().clearCookies();
  const other = await request.post('/api/auth/register/', {
    data: {
      email: `step-up-none-${Date.now()}@example.com`,
      password: 'correct-horse-42',
      password2: 'correct-horse-42',
    },
  });
  const tokens = (await other.json()) as { access: string; refresh: string };
  await page.evaluate(({ access: a, refresh }) => {
    localStorage.setItem('access', a);
    localStorage.setItem('refresh', refresh);
  }, tokens);
  await page.goto('/my/api-management');
  await page.getByTestId('api-add').click();
  await page.getByTestId('api-form-key').fill('k');
  await expect(page.getByTestId('step-up-code')).toHaveCount(0);
});
