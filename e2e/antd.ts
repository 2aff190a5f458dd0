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
  await clickSettled(entry);
}

/**
 * Waits until the animations of the dialog, list, popover or drawer around `locator` are over.
 * A cancelled animation counts as over (its `finished` rejects with AbortError when antd
 * cancels it, so waiting on all of them to fulfil fails at random).
 */
export async function animationsOver(locator: Locator) {
  await locator.evaluate(async (element) => {
    const root =
      element.closest('.ant-modal-wrap, .ant-select-dropdown, .ant-popover, .ant-drawer') ??
      element;
    await Promise.allSettled(root.getAnimations({ subtree: true }).map((a) => a.finished));
  });
}

/** Clicks `locator` once its surroundings stopped moving: a click during a zoom can miss. */
export async function clickSettled(locator: Locator) {
  await expect(locator).toBeVisible();
  await animationsOver(locator);
  await locator.click();
}
