import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

test('a user halts an account with the kill switch, after a confirmation, and resumes it', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signedInUser(page, request, 'kill-switch');

  // Every new user has the experience account: its card carries the risk controls.
  await page.goto('/my/account');
  const card = page.getByTestId('account-card').first();
  await expect(card).toBeVisible();
  const state = card.getByTestId('risk-state');
  await expect(state).toHaveAttribute('data-state', 'active');

  // Halting asks first; cancelling changes nothing.
  await card.getByTestId('risk-halt').click();
  const confirm = page.getByTestId('risk-halt-confirm');
  await expect(confirm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(state).toHaveAttribute('data-state', 'active');

  await card.getByTestId('risk-halt').click();
  await page.getByTestId('risk-halt-confirm').click();
  await expect(state).toHaveAttribute('data-state', 'halted');
  await expect(card.getByTestId('risk-reason')).toBeVisible();
  await page.screenshot({ path: `${screensDir}/risk-halted-zh-CN-1280.png`, fullPage: true });

  // The same state in English on a phone.
  await page.evaluate(() => localStorage.setItem('qs.language', 'en'));
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(card.getByTestId('risk-state')).toHaveAttribute('data-state', 'halted');
  await expectFitsWidth(page);
  await page.screenshot({ path: `${screensDir}/risk-halted-en-375.png`, fullPage: true });

  await card.getByTestId('risk-resume').click();
  await expect(card.getByTestId('risk-state')).toHaveAttribute('data-state', 'active');
});
