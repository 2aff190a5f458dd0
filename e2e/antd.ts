import { expect, type Locator, type Page } from '@playwright/test';

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

/**
 * Opens a header or drawer menu with `trigger` and clicks `entry` once the menu's opening
 * animation has finished: a click during the zoom can press on one entry and release on another,
 * which clicks nothing.
 */
export async function chooseMenuEntry(trigger: Locator, entry: Locator) {
  await trigger.click();
  await expect(entry).toBeVisible();
  await entry.evaluate(async (element) => {
    const menu = element.closest('.ant-popover, .ant-drawer') ?? element;
    await Promise.all(menu.getAnimations({ subtree: true }).map((a) => a.finished));
  });
  await entry.click();
}
