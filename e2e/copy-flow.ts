import { mkdirSync } from 'node:fs';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { animationsOver } from './antd';
import { signedInUser } from './session';

// What the copy-trading browser tests share: users, paper accounts, coins, layouts, screenshots.

export const screensDir = process.env.E2E_SCREENS_DIR ?? '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 375, height: 812 };
export const LAYOUTS = [
  ['zh-CN', 1280],
  ['zh-CN', 375],
  ['en', 1280],
  ['en', 375],
] as const;

export type Session = Awaited<ReturnType<typeof signedInUser>>;
export const auth = (session: { access: string }) => ({
  authorization: `Bearer ${session.access}`,
});

export async function useLayout(page: Page, language: string, width: number) {
  await page.evaluate((lang) => localStorage.setItem('qs.language', lang), language);
  await page.setViewportSize(width === 375 ? PHONE : DESKTOP);
}

/**
 * Picks an account in the copy modal's Select. The machine may be slow: each step waits as long
 * as it needs instead of retrying on short timeouts (a retry would toggle the list shut).
 */
export async function chooseAccount(page: Page, name: string) {
  const select = page.getByTestId('copy-account');
  await select.click();
  const option = page.locator(`.ant-select-item-option[title="${name}"]:visible`);
  await expect(option).toBeVisible();
  await settled(option);
  await option.click();
  await expect(select).toContainText(name);
}

/** Waits until the dialog's opening animation is over (a click during the zoom can miss). */
export const settled = animationsOver;

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${screensDir}/${name}.png`, fullPage: true });
}

/** A signed-in user in a browser context of their own. */
export async function userIn(browser: Browser, request: APIRequestContext, prefix: string) {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: DESKTOP,
  });
  const page = await context.newPage();
  const session = await signedInUser(page, request, prefix);
  await page.addInitScript(() => {
    if (!localStorage.getItem('qs.language')) localStorage.setItem('qs.language', 'zh-CN');
  });
  return { context, page, session };
}

export async function paperAccount(
  request: APIRequestContext,
  session: Session,
  name: string,
  exchange: 'binance' | 'okx' = 'binance',
) {
  const answer = await request.post('/api/auth/apis/', {
    headers: auth(session),
    data: { name, exchange, is_paper: true, default_leverage: 2 },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { id: number }).id;
}

export async function userId(request: APIRequestContext, session: Session) {
  const answer = await request.get('/api/auth/profile/', { headers: auth(session) });
  return ((await answer.json()) as { id: number }).id;
}

export async function coinBalance(request: APIRequestContext, session: Session) {
  const answer = await request.get('/api/auth/balance/?page=1&page_size=1', {
    headers: auth(session),
  });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { balance: string }).balance;
}

export function unique(prefix: string) {
  return `${prefix} ${Date.now().toString(36)}`;
}
