import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { clickSettled } from './antd';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

test('a user adds a paper account, sees its balance, and finds it on the account overview', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signedInUser(page, request, 'paper');
  const name = 'Paper desk';

  await page.goto('/my/api-management');
  await page.getByTestId('api-add').click();
  await page.getByTestId('api-form-name').fill(name);
  await page.getByTestId('api-form-paper').click();
  await page.getByTestId('api-form-leverage').fill('5');
  await page.getByTestId('api-form-submit').click();

  const row = page.locator(`[data-testid="api-row"][data-name="${name}"]`);
  await expect(row).toBeVisible();
  await page.screenshot({ path: `${screensDir}/api-management-1280.png`, fullPage: true });

  await row.getByTestId('api-balance').click();
  await expect(page.getByTestId('api-balance-modal')).toBeVisible();
  await expect(page.getByTestId('api-balance-usdt-total')).toContainText('10,000');
  await page.screenshot({ path: `${screensDir}/api-balance-1280.png` });
  await page.keyboard.press('Escape');

  await page.goto('/my/account');
  const card = page.locator(`[data-testid="account-card"][data-name="${name}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId('account-balance-total')).toContainText('10,000');
  // With every new user's experience account (10,000 virtual USDT) beside it.
  await expect(page.getByTestId('accounts-total-balance')).toContainText('20,000');
  await expect(page.getByTestId('accounts-active-count')).toHaveText('2');
  await page.screenshot({ path: `${screensDir}/account-1280.png`, fullPage: true });

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(card).toBeVisible();
  await expectFitsWidth(page);
  await page.screenshot({ path: `${screensDir}/account-375.png`, fullPage: true });
  await page.goto('/my/api-management');
  await expect(row).toBeVisible();
  await expectFitsWidth(page);
  await page.screenshot({ path: `${screensDir}/api-management-375.png`, fullPage: true });
});

test('deleting an API account asks first and then removes it', async ({ page, request }) => {
  const { access } = await signedInUser(page, request, 'delete');
  const created = await request.post('/api/auth/apis/', {
    headers: { authorization: `Bearer ${access}` },
    data: { name: 'Short-lived', exchange: 'okx', is_paper: true, default_leverage: 3 },
  });
  expect(created.status()).toBe(201);
  await page.goto('/my/api-management');
  const row = page.locator('[data-testid="api-row"][data-name="Short-lived"]');
  await expect(row).toBeVisible();
  await row.getByTestId('api-delete').click();
  await expect(page.getByText('Short-lived"').first()).toBeVisible();
  await clickSettled(page.getByTestId('api-delete-confirm'));
  await expect(row).toHaveCount(0);
});
