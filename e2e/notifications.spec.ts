import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';
import { tradeThroughWebhook } from './webhook-signal.js';

// The header's bell: its count rises over the notifications socket when an order fills (no
// reload), the list says what filled in the reader's language, and marking read brings the count
// down; the settings card on /my/settings. Desktop and phone, Chinese and English.
const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const CASES = [
  { language: 'zh-CN', width: 1280, height: 900, filled: '订单成交', markAll: '全部已读' },
  { language: 'en', width: 1280, height: 900, filled: 'Order filled', markAll: 'Mark all read' },
  { language: 'zh-CN', width: 375, height: 812, filled: '订单成交', markAll: '全部已读' },
  { language: 'en', width: 375, height: 812, filled: 'Order filled', markAll: 'Mark all read' },
] as const;

for (const c of CASES) {
  test(`the bell counts a fill live and marks it read (${c.language}, ${c.width} px)`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: c.width, height: c.height });
    await page.addInitScript(
      (language) => localStorage.setItem('qs.language', language),
      c.language,
    );
    const { access } = await signedInUser(page, request, `notify-${c.language}-${c.width}`);
    const headers = { authorization: `Bearer ${access}` };
    const account = await request.post('/api/auth/apis/', {
      headers,
      data: { name: 'Notify desk', exchange: 'binance', is_paper: true, default_leverage: 2 },
    });
    expect(account.status()).toBe(201);
    const { id: accountId } = (await account.json()) as { id: number };

    await page.goto('/my/settings');
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toBeVisible();
    await expect(bell).toHaveAttribute('data-unread', '0');
    await expect(page.getByTestId('notification-settings')).toBeVisible();
    await page.screenshot({
      path: `${screensDir}/notification-settings-${c.language}-${c.width}.png`,
      fullPage: true,
    });

    // An order fills: the count rises without a reload (the socket pushes it).
    const first = await tradeThroughWebhook(request, access, accountId, 'buy');
    await expect(bell).toHaveAttribute('data-unread', '1');
    const second = await tradeThroughWebhook(request, access, accountId, 'close', {
      reuse: { config: first.config, hookPath: first.hookPath },
    });
    expect(second.execution?.status).toBe('filled');
    await expect(bell).toHaveAttribute('data-unread', '2');
    await expect(bell.getByText('2')).toBeVisible();
    await page.screenshot({ path: `${screensDir}/notification-bell-${c.language}-${c.width}.png` });

    await bell.click();
    const panel = page.getByTestId('notification-panel');
    await expect(panel).toBeVisible();
    const items = panel.getByTestId('notification-item');
    await expect(items).toHaveCount(2);
    await expect(items.first()).toContainText(c.filled);
    await expect(items.first()).toContainText('BTC/USDT:USDT');
    await expect(items.first()).toHaveAttribute('data-read', 'false');
    await expectFitsWidth(page);
    await page.screenshot({ path: `${screensDir}/notification-list-${c.language}-${c.width}.png` });

    // One read by its own button, then the rest at once.
    await items.first().getByTestId('notification-mark-read').click();
    await expect(bell).toHaveAttribute('data-unread', '1');
    await expect(items.first()).toHaveAttribute('data-read', 'true');
    await panel.getByRole('button', { name: c.markAll }).click();
    await expect(bell).toHaveAttribute('data-unread', '0');
    await expect(panel.locator('[data-testid="notification-item"][data-read="false"]')).toHaveCount(
      0,
    );
    await page.screenshot({ path: `${screensDir}/notification-read-${c.language}-${c.width}.png` });
  });
}
