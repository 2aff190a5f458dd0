import { expect, type Page } from '@playwright/test';

/**
 * Picks `title` in the antd Select with test id `selectTestId` and waits until the Select shows
 * it, opening the list again if a click landed while the list was still animating open.
 */
export async function chooseOption(page: Page, selectTestId: string, title: string) {
  const select = page.getByTestId(selectTestId);
  await expect(async () => {
    await select.click();
    await page
      .locator(`.ant-select-item-option[title="${title}"]:visible`)
      .click({ timeout: 2000 });
    await expect(select).toContainText(title, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
}
