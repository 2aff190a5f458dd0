import { expect, type Page } from '@playwright/test';
import { chooseOption } from './antd';

/**
 * Fills the dashboard's bot form the way a user does (account, strategy when given, symbol,
 * timeframe, amount), saves it and starts the new bot after its confirmation; answers its row.
 */
export async function createAndStartBot(
  page: Page,
  form: { account: string; strategy?: string; symbol: string; timeframe: string; amount: string },
) {
  await page.getByTestId('bot-create').click();
  await chooseOption(page, 'bot-form-account', form.account);
  if (form.strategy !== undefined) await chooseOption(page, 'bot-form-strategy', form.strategy);
  await chooseOption(page, 'bot-form-symbol', form.symbol);
  await chooseOption(page, 'bot-form-timeframe', form.timeframe);
  await page.getByTestId('bot-form-amount').fill(form.amount);
  await page.getByTestId('bot-form-submit').click();

  const row = page.locator(`[data-testid="bot-row"][data-symbol="${form.symbol}"]`);
  await expect(row).toHaveAttribute('data-status', 'created');
  await row.getByTestId('bot-start').click();
  await confirmDialog(page);
  await expect(row).toHaveAttribute('data-status', 'running');
  return row;
}

/** Presses the primary (or danger) button of the topmost dialog. */
export async function confirmDialog(page: Page) {
  await page
    .getByRole('dialog')
    .last()
    .locator('.ant-btn-primary, .ant-btn-dangerous')
    .last()
    .click();
}
