import { expect, test } from '@playwright/test';
import { chooseOption } from './antd';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

test('the bot form shows the rule of an out-of-range value, keeps it as typed and does not submit', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { access } = await signedInUser(page, request, 'botform');
  const headers = { authorization: `Bearer ${access}` };
  const account = await request.post('/api/auth/apis/', {
    headers,
    data: { name: 'Form desk', exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(account.status()).toBe(201);
  const bots = async () => {
    const answer = await request.get('/api/trading/bots/', { headers });
    expect(answer.ok()).toBe(true);
    return ((await answer.json()) as { results: Record<string, unknown>[] }).results;
  };
  const botCount = async () => (await bots()).length;

  await page.goto('/dashboard');
  await page.getByTestId('bot-create').click();
  await chooseOption(page, 'bot-form-account', 'Form desk');
  const amount = page.getByTestId('bot-form-amount');
  const stopLoss = page.getByTestId('bot-form-stop-loss');
  const takeProfit = page.getByTestId('bot-form-take-profit');
  await amount.fill('5');
  await stopLoss.fill('60');
  await takeProfit.fill('150');
  await takeProfit.blur();

  // Each value stays as typed (shown with its step's decimals), with its rule under the field
  // (Chinese by default).
  await expect(amount).toHaveValue('5.00');
  await expect(stopLoss).toHaveValue('60.0');
  await expect(takeProfit).toHaveValue('150.0');
  await expect(page.getByText('交易金额需在 10 到 10,000,000 USDT 之间')).toBeVisible();
  await expect(page.getByText('止损比例需在 0.1% 到 50% 之间')).toBeVisible();
  await expect(page.getByText('止盈比例需在 0.1% 到 100% 之间')).toBeVisible();

  await page.getByTestId('bot-form-submit').click();
  await page.waitForTimeout(1000);
  expect(await botCount()).toBe(0);
  await expect(amount).toHaveValue('5.00');

  // Off-step values are named too, not rounded.
  await stopLoss.fill('2.55');
  await stopLoss.blur();
  await expect(stopLoss).toHaveValue('2.55');
  await expect(page.getByText('请按 0.1 的最小单位输入')).toBeVisible();

  // In range, the bot is created with exactly what was typed.
  await amount.fill('10');
  await stopLoss.fill('50');
  await takeProfit.fill('100');
  await page.getByTestId('bot-form-submit').click();
  await expect.poll(botCount).toBe(1);
  const [bot] = await bots();
  expect(bot?.trade_amount).toBe('10');
  expect(bot?.stop_loss_percentage).toBe(50);
  expect(bot?.take_profit_percentage).toBe(100);
});

test('the bot form speaks English and fits a phone', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.addInitScript(() => localStorage.setItem('qs.language', 'en'));
  const { access } = await signedInUser(page, request, 'botform-en');
  await request.post('/api/auth/apis/', {
    headers: { authorization: `Bearer ${access}` },
    data: { name: 'Phone desk', exchange: 'okx', is_paper: true, default_leverage: 2 },
  });
  await page.goto('/dashboard');
  await page.getByTestId('bot-create').click();
  await page.getByTestId('bot-form-amount').fill('9.99');
  await page.getByTestId('bot-form-stop-loss').fill('0');
  await page.getByTestId('bot-form-stop-loss').blur();
  await expect(
    page.getByText('The trade amount must be between 10 and 10,000,000 USDT'),
  ).toBeVisible();
  await expect(page.getByText('Stop-loss must be between 0.1% and 50%')).toBeVisible();
  await expectFitsWidth(page);
});
