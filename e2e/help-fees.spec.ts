import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// The tutorial says what is true about fees: no platform fee on live trades, 0.05% counted only
// by backtests and paper accounts (it promised a 0.05% platform fee per trade, lower for VIP).
const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

for (const [language, width, truth, claim] of [
  ['zh-CN', 1280, '实盘交易平台不收取手续费', /平台每笔交易收取|VIP\s*更低/],
  ['en', 375, 'the platform takes no fee on live trades', /platform charges 0\.05%|less for VIP/],
] as const) {
  test(`the tutorial tells the fees truthfully (${language}, ${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.addInitScript((lang) => localStorage.setItem('qs.language', lang), language);
    await page.goto('/help-center');
    await expect(page.getByTestId('tutorial-risk')).toBeVisible();
    const risk = page.getByTestId('tutorial-risk');
    await risk.scrollIntoViewIfNeeded();
    await expect(risk).toContainText(truth);
    await expect(page.locator('body')).not.toContainText(claim);
    await risk.screenshot({ path: `${screensDir}/help-fees-${language}-${width}.png` });
  });
}
