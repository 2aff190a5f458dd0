import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { confirmDialog, createAndStartBot } from './bot-flow';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

/** Grants VIP through the admin CLI, which hands the command to the running server. */
function grantVip(email: string) {
  execFileSync('npm', ['run', 'admin', '--', 'grant-vip', '--email', email, '--days', '30'], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });
}

async function paperAccount(request: APIRequestContext, access: string, name: string) {
  const answer = await request.post('/api/auth/apis/', {
    headers: { authorization: `Bearer ${access}` },
    data: { name, exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { id: number }).id;
}

test('a VIP user creates a bot on a paper account, starts it and watches the operation log', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { email, access } = await signedInUser(page, request, 'vip');
  grantVip(email);
  await paperAccount(request, access, 'Paper bots');

  await page.goto('/dashboard');
  const row = await createAndStartBot(page, {
    account: 'Paper bots',
    symbol: 'BTC/USDT:USDT',
    timeframe: '1m',
    amount: '100',
  });
  await expect(row.getByTestId('bot-live')).toBeVisible();

  // Creating and starting the bot are two user actions on its symbol in the operation log.
  const log = page.getByTestId('operation-log');
  const botActions = log
    .locator('[data-testid="operation-log-row"][data-type="user_action"]')
    .filter({ hasText: 'BTC/USDT:USDT' });
  await expect(botActions).toHaveCount(2, { timeout: 15_000 });
  // …said in the page's language (Chinese by default), not in the server's English.
  await expect(botActions.filter({ hasText: '启动机器人 BTC/USDT:USDT' })).toHaveCount(1);
  await expect(
    botActions.filter({ hasText: '创建机器人 BTC/USDT:USDT（1m，100.00 USDT）' }),
  ).toHaveCount(1);
  await page.screenshot({ path: `${screensDir}/bots-1280.png`, fullPage: true });

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(row).toBeVisible();
  await expectFitsWidth(page);
  await page.screenshot({ path: `${screensDir}/bots-375.png`, fullPage: true });

  // A running bot is not deleted: the user is told to stop it first, and nothing is asked.
  await page.setViewportSize({ width: 1280, height: 900 });
  await row.getByTestId('bot-delete').click();
  await expect(page.getByText('请先停止机器人再删除')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(row).toHaveAttribute('data-status', 'running');

  // Stop, then delete, each after its confirmation.
  await row.getByTestId('bot-stop').click();
  await confirmDialog(page);
  await expect(row).toHaveAttribute('data-status', 'stopped');
  await expect(page.getByText('机器人停止成功')).toBeVisible();
  await row.getByTestId('bot-delete').click();
  await expect(page.getByRole('dialog').last()).toContainText('此操作不可撤销。');
  await confirmDialog(page);
  await expect(row).toHaveCount(0);
  await expect(page.getByText('机器人删除成功')).toBeVisible();
  await expect(
    log
      .locator('[data-testid="operation-log-row"]')
      .filter({ hasText: '删除机器人 BTC/USDT:USDT' }),
  ).toHaveCount(1, { timeout: 15_000 });
});

test('a user without VIP is told that starting a bot needs VIP', async ({ page, request }) => {
  const { access } = await signedInUser(page, request, 'novip');
  const accountId = await paperAccount(request, access, 'Paper no VIP');
  const created = await request.post('/api/trading/bots/', {
    headers: { authorization: `Bearer ${access}` },
    data: {
      exchange_api: accountId,
      strategy: 1,
      symbol: 'ETH/USDT:USDT',
      timeframe: '1h',
      trade_amount: 50,
    },
  });
  expect(created.status()).toBe(201);

  await page.goto('/dashboard');
  const row = page.locator('[data-testid="bot-row"][data-symbol="ETH/USDT:USDT"]');
  await expect(row).toHaveAttribute('data-status', 'created');
  await row.getByTestId('bot-start').click();
  await expect(page.getByTestId('bot-vip-required')).toBeVisible();
  await expect(row).toHaveAttribute('data-status', 'created');
});
