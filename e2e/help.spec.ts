import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { expectFitsWidth } from './layout';
import { newCode, outboxIds } from './outbox';

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bitmap = path.join(repoRoot, 'packages/server/test/help/fixtures/bmp24.bmp');

interface Tokens {
  access: string;
  refresh: string;
}

/** A staff member made with the admin command (as operators do), logged in over the API. */
async function createStaff(request: APIRequestContext): Promise<Tokens> {
  const email = `staff-${Date.now()}@example.com`;
  const password = 'staff-password-42';
  execFileSync(
    'npm',
    ['run', '--silent', 'admin', '--', 'create-staff', '--email', email, '--password', password],
    {
      cwd: repoRoot,
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
      stdio: 'pipe',
    },
  );
  const seen = await outboxIds(request, email);
  const sent = await request.post('/api/auth/send-code/', {
    data: { type: 'email', target: email, action: 'login' },
  });
  expect(sent.ok()).toBe(true);
  const code = await newCode(request, email, seen);
  const login = await request.post('/api/auth/login/', {
    data: { email, password, email_code: code },
  });
  expect(login.status()).toBe(200);
  const body = (await login.json()) as Tokens & { user: { is_staff: boolean } };
  expect(body.user.is_staff).toBe(true);
  return body;
}

async function registerReader(request: APIRequestContext, prefix: string): Promise<Tokens> {
  const password = 'correct-horse-42';
  const answer = await request.post('/api/auth/register/', {
    data: { email: `${prefix}-${Date.now()}@example.com`, password, password2: password },
  });
  expect(answer.status()).toBe(201);
  return (await answer.json()) as Tokens;
}

/** A page of its own (separate storage) signed in with `tokens`. */
async function pageFor(browser: Browser, tokens: Tokens, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.addInitScript(({ access, refresh }) => {
    if (!localStorage.getItem('access')) {
      localStorage.setItem('access', access);
      localStorage.setItem('refresh', refresh);
    }
  }, tokens);
  return context.newPage();
}

const badge = (page: Page) => page.getByTestId('announcements-unread-badge');

test('staff publish an announcement with a bold line and an image; a reader sees the badge, opens it and the badge clears', async ({
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const staff = await createStaff(request);
  const reader = await registerReader(request, 'reader');

  // The reader has the help centre open before anything is published.
  const readerPage = await pageFor(browser, reader);
  await readerPage.goto('/help-center');
  await expect(readerPage.getByTestId('tutorial-quickStart')).toBeVisible();
  await expect(readerPage.getByTestId('tutorial-binance')).toContainText('启用提现');
  await expect(badge(readerPage)).toHaveCount(0);

  const staffPage = await pageFor(browser, staff);
  await staffPage.goto('/help-center?tab=announcements');
  await staffPage.getByTestId('announcement-publish').click();
  const form = staffPage.getByTestId('announcement-form');
  await expect(form.locator('.ql-editor')).toBeVisible();

  // Publishing with nothing filled in shows the spec's texts and sends nothing.
  await staffPage.getByTestId('announcement-submit').click();
  await expect(form.getByText('请输入标题')).toBeVisible();
  await expect(form.getByText('请输入公告内容')).toBeVisible();

  await staffPage.getByTestId('announcement-title').fill('交易系统升级通知');
  await staffPage.getByTestId('announcement-summary').fill('周六凌晨升级撮合引擎，期间暂停下单。');
  await form.getByText('重要', { exact: true }).click();
  const editor = form.locator('.ql-editor');
  await editor.click();
  await staffPage.keyboard.press('Control+b');
  await staffPage.keyboard.type('升级期间请勿下单');
  await staffPage.keyboard.press('Control+b');
  await staffPage.keyboard.press('Enter');
  await staffPage.keyboard.type('升级完成后机器人自动恢复。');
  await staffPage.keyboard.press('Enter');
  // The picture goes through the toolbar's file picker; a BMP is stored as PNG.
  const chooser = staffPage.waitForEvent('filechooser');
  await form.locator('.ql-toolbar button.ql-image').click();
  await (await chooser).setFiles(bitmap);
  await expect(editor.locator('img[src^="/api/uploads/help/"]')).toHaveAttribute('src', /\.png$/);
  await expect(editor.locator('strong')).toHaveText('升级期间请勿下单');
  await staffPage.screenshot({ path: `${screensDir}/help-publish-1280.png` });
  await staffPage.getByTestId('announcement-submit').click();
  await expect(form).toBeHidden();
  const published = staffPage
    .getByTestId('announcement-row')
    .filter({ hasText: '交易系统升级通知' });
  await expect(published).toBeVisible();
  await expect(published).toHaveAttribute('data-new', 'false');

  // The reader's badge appears without a reload (pushed over the socket, well before the 60 s poll).
  await expect(badge(readerPage)).toHaveText('1', { timeout: 15_000 });
  await readerPage.getByTestId('help-menu').getByText('系统公告').click();
  const row = readerPage.getByTestId('announcement-row').filter({ hasText: '交易系统升级通知' });
  await expect(row).toHaveAttribute('data-new', 'true');
  await expect(row.getByText('重要')).toBeVisible();
  await expect(row).toContainText('刚刚');
  await readerPage.screenshot({
    path: `${screensDir}/help-announcements-1280.png`,
    fullPage: true,
  });

  await row.getByTestId('announcement-row-title').click();
  const content = readerPage.getByTestId('announcement-content');
  await expect(content.locator('strong')).toHaveText('升级期间请勿下单');
  const image = content.locator('img');
  await expect(image).toHaveAttribute('src', /^\/api\/uploads\/help\/[a-f0-9]{32}\.png$/);
  await expect
    .poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth))
    .toBeGreaterThan(0);
  await expect(readerPage.getByTestId('announcement-detail')).toContainText('1 次浏览');
  await readerPage.screenshot({ path: `${screensDir}/help-detail-1280.png` });

  // Opening it marked it read: the badge and the flag clear at once, and stay cleared.
  await expect(badge(readerPage)).toHaveCount(0);
  await readerPage.getByTestId('announcement-detail-close').click();
  await expect(row).toHaveAttribute('data-new', 'false');
  // The list counts the view just made, without a reload.
  await expect(row).toContainText('1 次浏览');
  await readerPage.reload();
  await expect(row).toHaveAttribute('data-new', 'false');
  await expect(badge(readerPage)).toHaveCount(0);

  // Phone width: the same list fits the screen.
  await readerPage.setViewportSize({ width: 375, height: 812 });
  await expect(row).toBeVisible();
  await expectFitsWidth(readerPage);
  await readerPage.screenshot({ path: `${screensDir}/help-announcements-375.png`, fullPage: true });
});

test('a stored XSS attempt renders inert', async ({ browser, request }) => {
  const staff = await createStaff(request);
  const payloads = [
    '<p>Visible text</p>',
    '<img src="x" onerror="window.__xss = (window.__xss || 0) + 1">',
    '<svg onload="window.__xss = (window.__xss || 0) + 1"><circle r="4"/></svg>',
    '<p><a href="javascript:window.__xss=(window.__xss||0)+1" id="evil-link">click me</a></p>',
    '<iframe srcdoc="<script>parent.__xss=(parent.__xss||0)+1</script>"></iframe>',
    '<details open ontoggle="window.__xss = (window.__xss || 0) + 1"><summary>s</summary></details>',
    '<p><b><i>nested <img src=x onerror="window.__xss=(window.__xss||0)+1"></i></b></p>',
    '<scr<script>ipt>window.__xss=(window.__xss||0)+1</scr</script>ipt>',
    '<style>body{display:none}</style>',
  ].join('');
  const created = await request.post('/api/help/announcements/', {
    headers: { authorization: `Bearer ${staff.access}` },
    data: {
      title: 'XSS probe',
      summary: '<img src=x onerror=alert(1)>',
      type: 'normal',
      content: payloads,
    },
  });
  expect(created.status()).toBe(201);

  const reader = await registerReader(request, 'xss');
  const page = await pageFor(browser, reader);
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.goto('/help-center?tab=announcements');
  const row = page.getByTestId('announcement-row').filter({ hasText: 'XSS probe' });
  // The summary is shown as text, tags and all.
  await expect(row).toContainText('<img src=x onerror=alert(1)>');
  await row.getByTestId('announcement-row-title').click();
  const content = page.getByTestId('announcement-content');
  await expect(content).toContainText('Visible text');
  await expect(content).toContainText('click me');
  await content.getByText('click me').click();
  await page.waitForTimeout(1000);

  expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await expect(
    content.locator('script, svg, iframe, style, details, img, a[href^="javascript"]'),
  ).toHaveCount(0);
  expect(await content.evaluate((node) => node.innerHTML)).not.toMatch(/\son\w+=/i);
  await expect(page.locator('body')).toBeVisible();
});
