import { expect, type Page } from '@playwright/test';

/**
 * Waits until the page is no wider than its window. A resize, a reload or a language switch lays
 * the page out again over a few frames (antd's breakpoints answer through matchMedia listeners),
 * so this polls for the state the test needs instead of reading it once.
 */
export async function expectFitsWidth(page: Page, what?: string) {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), {
      message: what ? `${what} fits the window's width` : "the page fits the window's width",
    })
    .toBe(true);
}
