import { expect, test } from '@playwright/test';

// A sign-in code's e-mail is written in the language the reader chose on the page.

test('the sign-in code e-mail follows the page language', async ({ browser, request }) => {
  const expected = { en: 'Your QuantSquare verification code', 'zh-CN': 'QuantSquare 验证码' };
  for (const language of ['en', 'zh-CN'] as const) {
    const email = `lang-${language}-${Date.now()}@example.com`;
    const registered = await request.post('/api/auth/register/', {
      data: { email, password: 'correct-horse-42', password2: 'correct-horse-42' },
    });
    expect(registered.status()).toBe(201);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript((lng) => localStorage.setItem('qs.language', lng), language);
    await page.goto('/login');
    await page.locator('#login_email').fill(email);
    const answer = page.waitForResponse('**/api/auth/send-code/');
    await page.getByTestId('send-email-code').click();
    expect((await answer).status()).toBe(200);
    const outbox = await request.get(`/api/dev/outbox/?to=${encodeURIComponent(email)}`);
    const latest = ((await outbox.json()) as { results: { subject: string }[] }).results[0];
    expect(latest?.subject).toBe(expected[language]);
    await context.close();
  }
});

test('an English reader sees server refusals worded as sentences, not raw lowercase', async ({
  page,
}) => {
  await page.addInitScript(() => localStorage.setItem('qs.language', 'en'));
  await page.goto('/strategy/999999');
  await expect(page.getByText('Strategy not found or not public', { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/strategy-square$/);
  await page.screenshot({ path: '.test-output/screens/strategy-missing-en-1280.png' });
});
