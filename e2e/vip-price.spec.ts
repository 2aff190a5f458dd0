import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { signedInUser } from './session';

// The VIP offer of 1 coin is a limited-time offer for a FIRST purchase (balance under 100):
// after any purchase the card shows the full price, 100, whatever the balance.
const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

function credit(email: string, amount: string) {
  const args = ['--email', email, '--amount', amount, '--reason', 'browser test'];
  execFileSync('npm', ['run', 'admin', '--', 'credit', ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });
}

async function buyVip(page: Page) {
  await page.getByTestId('vip-buy').click();
  await page.getByTestId('vip-confirm').click();
  await expect(page.getByTestId('vip-confirm')).toHaveCount(0);
  await expect(page.getByTestId('vip-card')).toHaveAttribute('data-active', 'true');
}

test('after a first VIP purchase at the offer, the card shows the full price', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { email } = await signedInUser(page, request, 'vip-price');
  credit(email, '50');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/my/profile');
  // First purchase, balance 50: the limited-time offer, with the first-purchase hint.
  await expect(page.getByTestId('vip-price')).toContainText('1.00');
  await expect(page.getByTestId('vip-promo')).toBeVisible();
  await expect(page.getByTestId('vip-card')).toContainText('首次开通 VIP');
  await page.getByTestId('vip-card').screenshot({ path: `${screensDir}/vip-offer-zh-CN-1280.png` });
  await buyVip(page);

  // 49 coins left: under 100, but the offer is spent — the full price, and not affordable.
  await expect(page.getByTestId('vip-price')).toContainText('100.00');
  await expect(page.getByTestId('vip-promo')).toHaveCount(0);
  await expect(page.getByTestId('vip-buy')).toBeDisabled();
  await page
    .getByTestId('vip-card')
    .screenshot({ path: `${screensDir}/vip-renewal-zh-CN-1280.png` });

  await page.evaluate(() => localStorage.setItem('qs.language', 'en'));
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(page.getByTestId('vip-price')).toContainText('100.00');
  await expect(page.getByTestId('vip-buy')).toContainText('Insufficient balance');
  await page.getByTestId('vip-card').screenshot({ path: `${screensDir}/vip-renewal-en-375.png` });
});
