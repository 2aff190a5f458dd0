import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { signedInUser } from './session';

// Adding a live key checks it at once (the exchange cannot be reached from this machine, so
// every check fails): the form says so and the list never shows the key as normal.
const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

async function addBinanceKey(page: Page, name: string) {
  await page.getByTestId('api-add').click();
  await page.getByTestId('api-form-name').fill(name);
  await page.getByTestId('api-form-key').fill('abc');
  await page.getByTestId('api-form-secret').fill('def');
  await page.getByTestId('api-form-submit').click();
}

async function statusOf(request: APIRequestContext, access: string, name: string) {
  const answer = await request.get('/api/auth/apis/', {
    headers: { authorization: `Bearer ${access}` },
  });
  const { results } = (await answer.json()) as {
    results: { name: string; last_check_ok: boolean | null }[];
  };
  return results.find((a) => a.name === name)?.last_check_ok;
}

test('a junk live key is checked on adding and never shown as normal', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { access } = await signedInUser(page, request, 'api-check-on-add');
  await page.goto('/my/api-management');

  await addBinanceKey(page, 'Junk key');
  const toast = page.getByTestId('api-added-check-failed');
  await expect(toast).toBeVisible({ timeout: 30_000 });
  await expect(toast).toContainText(/^API 已添加，但连接检测失败：\S+/);
  const row = page.locator('[data-testid="api-row"][data-name="Junk key"]');
  await expect(row.getByTestId('api-status')).toHaveAttribute('data-status', 'abnormal');
  await expect(row.getByTestId('api-status')).toHaveText('异常');
  await expect(row.getByTestId('api-status')).not.toHaveText('正常');
  expect(await statusOf(request, access, 'Junk key')).toBe(false);
  await page.screenshot({ path: `${screensDir}/api-check-on-add-zh-1280.png` });

  await page.evaluate(() => localStorage.setItem('qs.language', 'en'));
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await addBinanceKey(page, 'Junk key 2');
  const enToast = page.getByTestId('api-added-check-failed');
  await expect(enToast).toBeVisible({ timeout: 30_000 });
  await expect(enToast).toContainText(/^API added, but the connection check failed: \S+/);
  const enRow = page.locator('[data-testid="api-row"][data-name="Junk key 2"]');
  await expect(enRow.getByTestId('api-status')).toHaveText('Abnormal');
  await page.screenshot({ path: `${screensDir}/api-check-on-add-en-375.png` });
});
