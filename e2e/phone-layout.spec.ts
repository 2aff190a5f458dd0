import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { type Browser, expect, type Locator, test } from '@playwright/test';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

// Layout on phones and in tables: nothing the user needs is cut, squeezed or stepped.

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const LANGUAGES = ['zh-CN', 'en'] as const;
const PHONE = { width: 375, height: 760 };
const DESKTOP = { width: 1280, height: 860 };
type Language = (typeof LANGUAGES)[number];

async function pageIn(browser: Browser, language: Language, viewport: typeof PHONE) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.addInitScript((lng) => {
    localStorage.setItem('qs.language', lng);
    localStorage.setItem('qs.welcomeClosedAt', String(Date.now()));
  }, language);
  return page;
}

/** Whether the element's text is shown whole (not cut with an ellipsis or overflow). */
async function isWhole(locator: Locator) {
  return locator.evaluate((element) => element.scrollWidth <= element.clientWidth + 1);
}

test('on a phone the signed-in header shows the whole brand and the selectors their whole labels', async ({
  browser,
  request,
}) => {
  for (const language of LANGUAGES) {
    const page = await pageIn(browser, language, PHONE);
    await signedInUser(page, request, 'phone-header');
    await page.goto('/dashboard');
    await expect(page.getByTestId('coin-balance')).toBeVisible();
    const brand = page.locator('header a[href="/dashboard"] span').first();
    await expect(brand).toHaveText('QuantSquare');
    expect(await isWhole(brand)).toBe(true);
    await page
      .locator('header')
      .first()
      .screenshot({
        path: `${screensDir}/phone-header-${language}-375.png`,
      });

    const exchange = page
      .getByTestId('dashboard-exchange')
      .locator('.ant-select-content, .ant-select-selection-item')
      .first();
    await expect(exchange).toContainText('Binance');
    expect(await isWhole(exchange)).toBe(true);
    await page
      .getByTestId('dashboard-exchange')
      .locator('xpath=../../..')
      .screenshot({
        path: `${screensDir}/phone-selectors-${language}-375.png`,
      });

    await page.goto('/strategy-square');
    for (const id of ['square-exchange', 'square-sort', 'square-period']) {
      const shown = page
        .getByTestId(id)
        .locator('.ant-select-content, .ant-select-selection-item')
        .first();
      await expect(shown).not.toHaveText('');
      expect(await isWhole(shown), `${id} ${language}`).toBe(true);
    }
    await expectFitsWidth(page);
    await page.getByTestId('square-toolbar').screenshot({
      path: `${screensDir}/phone-square-filters-${language}-375.png`,
    });
    await page.context().close();
  }
});

test('the deposit networks line up in an even grid on a phone', async ({ browser, request }) => {
  for (const language of LANGUAGES) {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await pageIn(browser, language, viewport);
      await signedInUser(page, request, 'networks');
      await page.goto('/deposit');
      const buttons = page.getByTestId('deposit-network').locator('.ant-radio-button-wrapper');
      await expect(buttons.first()).toBeVisible();
      const boxes = await buttons.evaluateAll((elements) =>
        elements.map((e) => {
          const box = e.getBoundingClientRect();
          return { x: Math.round(box.x), width: Math.round(box.width) };
        }),
      );
      // Every button starts on a column of the grid and all have one width: no staircase.
      const widths = boxes.map((b) => b.width);
      expect(Math.max(...widths) - Math.min(...widths), JSON.stringify(boxes)).toBeLessThanOrEqual(
        1,
      );
      const columns = new Set(boxes.map((b) => b.x));
      expect(columns.size).toBeLessThanOrEqual(boxes.length);
      if (viewport === PHONE) expect(columns.size, JSON.stringify(boxes)).toBe(1);
      await expectFitsWidth(page);
      await page.getByTestId('deposit-network').screenshot({
        path: `${screensDir}/deposit-networks-${language}-${viewport.width}.png`,
      });
      await page.context().close();
    }
  }
});

test('a long modal title wraps before the close button', async ({ browser, request }) => {
  for (const language of LANGUAGES) {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await pageIn(browser, language, viewport);
      const { access } = await signedInUser(page, request, 'long-title');
      const name = 'Paper account with a rather long name 01';
      const created = await request.post('/api/auth/apis/', {
        headers: { authorization: `Bearer ${access}` },
        data: { name: name.slice(0, 40), exchange: 'binance', is_paper: true, default_leverage: 2 },
      });
      expect(created.status()).toBe(201);
      await page.goto('/my/api-management');
      const row = page.locator(`[data-testid="api-row"][data-name="${name.slice(0, 40)}"]`);
      await row.getByTestId('api-balance').click();
      const dialog = page.getByRole('dialog');
      const title = dialog.locator('.ant-modal-title');
      await expect(title).toContainText(name.slice(0, 40));
      // Measured once the opening zoom has finished (a scaled box says nothing).
      await dialog.evaluate(async (element) => {
        const modal = element.closest('.ant-modal-wrap') ?? element;
        await Promise.allSettled(modal.getAnimations({ subtree: true }).map((a) => a.finished));
      });
      const close = dialog.locator('.ant-modal-close');
      const titleBox = await title.evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element);
        const rects = [...range.getClientRects()];
        return { right: Math.max(...rects.map((r) => r.right)) };
      });
      const closeBox = await close.boundingBox();
      expect(closeBox).not.toBeNull();
      expect(titleBox.right).toBeLessThanOrEqual(closeBox!.x);
      await dialog.locator('.ant-modal-header').screenshot({
        path: `${screensDir}/modal-long-title-${language}-${viewport.width}.png`,
      });
      await page.context().close();
    }
  }
});

test('API table headers stay on one line when a failed check is shown', async ({
  browser,
  request,
}) => {
  for (const language of LANGUAGES) {
    // A laptop width: the management centre's sidebar leaves the table about 700 px.
    const page = await pageIn(browser, language, { width: 1024, height: 800 });
    const { access } = await signedInUser(page, request, 'api-headers');
    const created = await request.post('/api/auth/apis/', {
      headers: { authorization: `Bearer ${access}` },
      data: { name: 'Main', exchange: 'binance', is_paper: true, default_leverage: 2 },
    });
    expect(created.status()).toBe(201);
    // The last check failed with the exchange's long words (a live key the venue refused).
    await page.route('**/api/auth/apis/', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const answer = await route.fetch();
      const list = (await answer.json()) as { results: Record<string, unknown>[]; count: number };
      const failed = list.results.map((api) =>
        api.name === 'Main'
          ? {
              ...api,
              last_check_ok: false,
              last_checked_at: new Date().toISOString(),
              last_error_kind: 'invalid_key',
              last_error:
                'binance {"code":-2015,"msg":"Invalid API-key, IP, or permissions for action, request ip: 203.0.113.7"}',
            }
          : api,
      );
      return route.fulfill({ response: answer, json: { ...list, results: failed } });
    });
    await page.goto('/my/api-management');
    await expect(page.getByTestId('api-last-error')).toBeVisible();
    const heights = await page.locator('.ant-table-thead th').evaluateAll((cells) =>
      cells.map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        return { text: cell.textContent, lines: range.getClientRects().length };
      }),
    );
    for (const cell of heights) expect(cell.lines, cell.text ?? '').toBeLessThanOrEqual(1);
    await page
      .locator('.ant-table')
      .first()
      .screenshot({
        path: `${screensDir}/api-table-failed-check-${language}-1024.png`,
      });
    await page.context().close();
  }
});

test('the staff queue shows the amount on a phone, before the approve button', async ({
  browser,
  request,
}) => {
  const depositor = await pageIn(browser, 'en', PHONE);
  const { access } = await signedInUser(depositor, request, 'staff-amount-user');
  const deposit = await request.post('/api/auth/deposit/', {
    headers: { authorization: `Bearer ${access}` },
    data: { amount: '12345.67', network: 'TRC20', tx_hash: randomBytes(32).toString('hex') },
  });
  expect(deposit.status()).toBeLessThan(300);
  await depositor.context().close();

  for (const language of LANGUAGES) {
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await pageIn(browser, language, viewport);
      const { email } = await signedInUser(page, request, 'staff-amount');
      // The admin CLI (handed to the running server) makes the user staff.
      execFileSync(
        'npm',
        ['run', 'admin', '--', 'create-staff', '--email', email, '--password', 'correct-horse-42'],
        {
          env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
          stdio: 'pipe',
        },
      );
      await page.goto('/staff');
      const row = page.getByTestId('staff-row').filter({ hasText: '12,345.67' }).first();
      const amount = row.getByText('12,345.67');
      await expect(amount).toBeInViewport();
      const amountBox = await amount.boundingBox();
      expect(amountBox!.x + amountBox!.width).toBeLessThanOrEqual(viewport.width);
      // No header is broken into single characters.
      const lines = await page.locator('.ant-table-thead th').evaluateAll((cells) =>
        cells.map((cell) => {
          const range = document.createRange();
          range.selectNodeContents(cell);
          return range.getClientRects().length;
        }),
      );
      for (const count of lines) expect(count).toBeLessThanOrEqual(1);
      await page.screenshot({
        path: `${screensDir}/staff-amount-${language}-${viewport.width}.png`,
      });
      await page.context().close();
    }
  }
});
