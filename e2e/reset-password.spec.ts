import { expect, test } from '@playwright/test';
import { newCode, outboxIds } from './outbox';
import { E2E_CODE_COOLDOWN_SECONDS } from './timers';

const CODE_COOLDOWN_MS = E2E_CODE_COOLDOWN_SECONDS * 1000;

test('a user who forgot the password resets it from the login screen and signs in with the new one', async ({
  page,
  request,
}) => {
  // The second code to the address waits out its cooldown (shortened on the test server).
  test.setTimeout(120_000);
  const email = `forgetful-${Date.now()}@example.com`;
  const oldPassword = 'the-old-password-17';
  const newPassword = 'a-brand-new-phrase-42';
  const registered = await request.post('/api/auth/register/', {
    data: { email, password: oldPassword, password2: oldPassword },
  });
  expect(registered.status()).toBe(201);
  const { refresh } = (await registered.json()) as { refresh: string };

  // From the login screen to the reset page.
  await page.goto('/login');
  await page.getByTestId('login-forgot-password').click();
  await expect(page).toHaveURL(/\/reset-password$/);
  await expect(page.getByRole('heading', { name: '重置密码' })).toBeVisible();

  // A code to the e-mail address, read from the dev outbox.
  await page.locator('#reset_target').fill(email);
  const seen = await outboxIds(request, email);
  await page.getByTestId('send-reset-code').click();
  const codeSentAt = Date.now();
  await expect(page.getByTestId('reset-message')).toContainText('验证码已发送');
  const code = await newCode(request, email, seen);
  await page.locator('#reset_code').fill(code);

  // A common password is refused in the reader's language, and the code stays usable.
  await page.locator('#reset_password').fill('password123');
  await page.locator('#reset_password2').fill('password123');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByText('该密码过于常见，请换一个')).toBeVisible();

  await page.locator('#reset_password').fill(newPassword);
  await page.locator('#reset_password2').fill(newPassword);
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-message')).toContainText('密码已重置');
  await expect(page).toHaveURL(/\/login$/);

  // Every earlier session ended with the reset.
  expect((await request.post('/api/auth/refresh/', { data: { refresh } })).status()).toBe(401);

  // Sign in with the new password and a fresh login code.
  await page.waitForTimeout(Math.max(0, codeSentAt + CODE_COOLDOWN_MS + 1000 - Date.now()));
  await page.locator('#login_email').fill(email);
  await page.locator('#login_password').fill(newPassword);
  const seenBeforeLogin = await outboxIds(request, email);
  await page.getByTestId('send-email-code').click();
  await page.locator('#login_email_code').fill(await newCode(request, email, seenBeforeLogin));
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('google-auth-prompt')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('access'))).toBeTruthy();
});
