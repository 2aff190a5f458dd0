import { mkdirSync } from 'node:fs';
import { type APIRequestContext, type Browser, expect, test } from '@playwright/test';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';
import { tradeThroughWebhook } from './webhook-signal';

// The strategy square, the strategy page and the sharing controls, driven as users do
// (document 1 §2 sharing, document 2 §2–§9).

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

type Session = Awaited<ReturnType<typeof signedInUser>>;

const auth = (session: Session) => ({ authorization: `Bearer ${session.access}` });

async function paperAccount(request: APIRequestContext, session: Session, name: string) {
  const answer = await request.post('/api/auth/apis/', {
    headers: auth(session),
    data: { name, exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { id: number }).id;
}

async function shareSettings(
  request: APIRequestContext,
  session: Session,
  accountId: number,
  body: Record<string, unknown>,
) {
  const answer = await request.put(`/api/strategy-square/accounts/${accountId}/share-settings/`, {
    headers: auth(session),
    data: body,
  });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
}

/** A second signed-in user in a browser context of their own. */
async function otherUser(browser: Browser, request: APIRequestContext, prefix: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const session = await signedInUser(page, request, prefix);
  return { context, page, session };
}

function unique(prefix: string) {
  return `${prefix} ${Date.now().toString(36)}`;
}

test('the owner publishes an account from the publish page and finds it on the account overview', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await signedInUser(page, request, 'publisher');
  const accountName = unique('Paper desk');
  const accountId = await paperAccount(request, owner, accountName);
  const strategyName = unique('Alpha Grid');

  await page.goto('/my/strategies/create');
  await page.locator(`[data-testid="publish-account"][data-name="${accountName}"]`).click();
  await page.getByTestId('publish-next').click();
  await expect(page.getByTestId('publish-name')).toHaveValue(accountName);
  await page.getByTestId('publish-name').fill(strategyName);
  const editor = page.locator('.ql-editor');
  await editor.click();
  await page.keyboard.type('Trend following on BTC with a 2% stop.');
  await expect(page.getByTestId('description-counter')).toHaveText('38 / 2000');
  await page.getByTestId('share-show_positions').click();
  await page.screenshot({ path: `${screensDir}/publish-details-1280.png`, fullPage: true });
  await page.getByTestId('publish-submit').click();
  await expect(page.getByTestId('publish-done')).toContainText(strategyName);
  await page.screenshot({ path: `${screensDir}/publish-done-1280.png`, fullPage: true });

  const saved = await request.get(`/api/strategy-square/accounts/${accountId}/share-settings/`, {
    headers: auth(owner),
  });
  expect(await saved.json()).toMatchObject({
    name: strategyName,
    is_public: true,
    show_positions: false,
    accept_copy: true,
  });

  // The page offers a bot on the published account, then opens the strategy.
  await expect(page.getByTestId('publish-open-strategy')).toBeVisible();
  await page.getByTestId('publish-create-bot').click();
  await expect(page.getByTestId('bot-form-account')).toContainText(accountName);
  await page.getByTestId('bot-form-submit').click();
  await expect(page).toHaveURL(new RegExp(`/strategy/${accountId}$`));
  const bots = await request.get('/api/trading/bots/', { headers: auth(owner) });
  expect(((await bots.json()) as { results: { exchange_api: number }[] }).results).toEqual([
    expect.objectContaining({ exchange_api: accountId }),
  ]);
  await expect(page.getByTestId('strategy-name')).toHaveText(strategyName);
  await expect(page.getByTestId('strategy-description-html')).toContainText('Trend following');
  // The owner sees neither follow nor copy, and no positions grid (switched off).
  await expect(page.getByTestId('follow-toggle')).toHaveCount(0);
  await expect(page.getByTestId('copy-trade')).toHaveCount(0);
  await expect(page.getByTestId('strategy-positions')).toHaveCount(0);

  await page.goto('/my/account');
  const card = page.locator(`[data-testid="account-card"][data-name="${accountName}"]`);
  await expect(card.getByTestId('share-toggle')).toHaveAttribute('aria-checked', 'true');
  await expect(card.getByTestId('share-view-strategy')).toBeVisible();
});

test('user B finds a strategy by search, follows, comments, and watches its trades arrive live', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(720_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await signedInUser(page, request, 'leader');
  const accountId = await paperAccount(request, owner, unique('Leader paper'));
  const strategyName = unique('Momentum');
  await shareSettings(request, owner, accountId, { is_public: true, name: strategyName });

  const viewer = await otherUser(browser, request, 'viewer');
  const b = viewer.page;
  await b.setViewportSize({ width: 1280, height: 900 });
  await b.goto('/strategy-square');
  await expect(b.getByTestId('square-stats')).toBeVisible();
  await b.getByTestId('square-search').fill(strategyName.split(' ')[1] ?? strategyName);
  // The search goes out after the 500 ms pause and lands in the address.
  await expect(b).toHaveURL(/q=/);
  const card = b.locator(`[data-testid="strategy-card"][data-id="${accountId}"]`);
  await expect(card).toBeVisible();
  await expect(b.getByTestId('strategy-card')).toHaveCount(1);
  await b.screenshot({ path: `${screensDir}/square-search-1280.png`, fullPage: true });
  await card.click();

  await expect(b).toHaveURL(new RegExp(`/strategy/${accountId}$`));
  await expect(b.getByTestId('strategy-name')).toHaveText(strategyName);
  await expect(b.getByTestId('strategy-live')).toBeVisible();
  await expect(b.getByTestId('strategy-exchange')).toHaveText('BINANCE');

  await b.getByTestId('follow-toggle').click();
  await expect(b.getByTestId('follow-toggle')).toHaveAttribute('data-following', 'true');
  await expect(b.getByTestId('strategy-followers')).toContainText('1');

  await b.getByTestId('comment-input').fill('  Nice risk control, how do you size positions?  ');
  await b.getByTestId('comment-post').click();
  const comment = b.getByTestId('comment').first();
  await expect(comment.getByTestId('comment-content')).toHaveText(
    'Nice risk control, how do you size positions?',
  );
  await expect(b.getByTestId('comments-title')).toContainText('1');
  await comment.getByTestId('comment-like').click();
  await expect(comment.getByTestId('comment-likes')).toHaveText('1');
  await comment.getByTestId('comment-reply').click();
  await b.getByTestId('reply-input').fill('Following this one.');
  await b.getByTestId('reply-post').click();
  await expect(comment.getByTestId('comment-replies')).toContainText('Following this one.');
  await expect(b.getByTestId('comments-title')).toContainText('2');

  // The page must not reload from here on: a marker on the window would be lost.
  await b.evaluate(() => {
    (window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true;
  });
  await expect(b.getByTestId('strategy-trade-row')).toHaveCount(0);
  // A new row is highlighted for a second: watch for the class while the trade comes in.
  await b.evaluate(() => {
    const seen = window as unknown as { sawHighlight?: boolean };
    new MutationObserver(() => {
      if (document.querySelector('.qs-live-row-new')) seen.sawHighlight = true;
    }).observe(document.body, { subtree: true, childList: true, attributeFilter: ['class'] });
  });
  // The leader trades as a TradingView alert would make it: one deterministic fill.
  await tradeThroughWebhook(request, owner.access, accountId, 'buy');
  await expect(b.getByTestId('strategy-trade-row').first()).toBeVisible({ timeout: 30_000 });
  expect(
    await b.evaluate(() => (window as unknown as { sawHighlight?: boolean }).sawHighlight),
  ).toBe(true);
  await expect(b.locator('.qs-live-row-new')).toHaveCount(0, { timeout: 3000 });
  // The fill opened a position, which the live connection brought too.
  await expect(b.getByTestId('strategy-position').first()).toBeVisible();
  await b.screenshot({ path: `${screensDir}/strategy-live-trade-1280.png`, fullPage: true });
  expect(
    await b.evaluate(
      () => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage === true,
    ),
  ).toBe(true);
  await viewer.context.close();
});

test('a stored XSS description renders inert, from the server and even past it', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await signedInUser(page, request, 'xss');
  const accountId = await paperAccount(request, owner, unique('XSS desk'));
  const attack = [
    '<p>Safe <strong>bold</strong> text</p>',
    '<img src=x onerror="window.__xss=1">',
    '<script>window.__xss=2</script>',
    '<p><a href="javascript:window.__xss=3">click me</a></p>',
    '<svg onload="window.__xss=4"></svg>',
    '<iframe srcdoc="<script>parent.__xss=5</script>"></iframe>',
    '<p onclick="window.__xss=6" style="background:url(javascript:alert(7))">paragraph</p>',
    '<a href="data:text/html,<script>alert(8)</script>">data link</a>',
  ].join('');
  await shareSettings(request, owner, accountId, { is_public: true, description: attack });

  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const check = async () => {
    const description = page.getByTestId('strategy-description-html');
    await expect(description).toContainText('Safe bold text');
    await expect(description.locator('script, img, svg, iframe, [onclick], [style]')).toHaveCount(
      0,
    );
    for (const link of await description.locator('a').all()) {
      const href = (await link.getAttribute('href')) ?? '';
      expect(href).not.toMatch(/^(javascript|data):/i);
      await link.click({ force: true, noWaitAfter: true });
    }
    await description.getByText('paragraph').click();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBe(
      undefined,
    );
    expect(dialogs).toEqual([]);
  };

  await page.goto(`/strategy/${accountId}`);
  await check();

  // The page's own filter holds even when an answer carries the raw attack.
  await page.route(`**/api/strategy-square/strategies/${accountId}/?*`, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { share_settings: { description: string } };
    body.share_settings.description = attack;
    await route.fulfill({ response, json: body });
  });
  await page.reload();
  await check();
});

test('the share toggle saves at once, reverts on failure, and resets the flags when turned off', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const owner = await signedInUser(page, request, 'toggle');
  const accountName = unique('Toggle desk');
  const accountId = await paperAccount(request, owner, accountName);
  await shareSettings(request, owner, accountId, { show_trades: false, allow_comments: false });

  await page.goto('/my/account');
  const card = page.locator(`[data-testid="account-card"][data-name="${accountName}"]`);
  const toggle = card.getByTestId('share-toggle');
  await expect(toggle).toHaveAttribute('aria-checked', 'false');

  // A failing save puts the toggle back and says why.
  await page.route('**/share-settings/', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({ status: 500, json: { error: 'boom', code: 'internal' } })
      : route.continue(),
  );
  await toggle.click();
  await expect(page.getByText('更新分享设置失败：')).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await page.unroute('**/share-settings/');

  await toggle.click();
  await expect(page.getByText('已公开到策略广场')).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  // The toggle moves at once; the save it started is awaited by polling what the server holds.
  const savedSettings = async () =>
    (
      await request.get(`/api/strategy-square/accounts/${accountId}/share-settings/`, {
        headers: auth(owner),
      })
    ).json();
  await expect.poll(savedSettings).toMatchObject({
    is_public: false,
    accept_copy: true,
    show_trades: true,
    show_positions: true,
    allow_comments: true,
  });

  // The description editor: counter, save, and the spec's success text.
  await card.getByTestId('share-description-open').click();
  await page.locator('.ql-editor').click();
  await page.keyboard.type('Mean reversion on ETH.');
  await expect(page.getByTestId('description-counter')).toHaveText('22 / 2000');
  await page.screenshot({ path: `${screensDir}/description-editor-1280.png` });
  await page.getByTestId('description-save').click();
  await expect(page.getByText('策略说明已更新')).toBeVisible();

  // The settings dialog saves every flag together.
  await card.getByTestId('share-settings-open').click();
  await page.getByTestId('share-is_public').click();
  await page.getByTestId('share-accept_copy').click();
  await page.screenshot({ path: `${screensDir}/share-settings-1280.png` });
  await page.getByTestId('share-save').click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect.poll(savedSettings).toMatchObject({
    is_public: true,
    accept_copy: false,
    description: '<p>Mean reversion on ETH.</p>',
  });
  await page.screenshot({ path: `${screensDir}/account-sharing-1280.png`, fullPage: true });
});

test('visitors browse the square and a strategy, and are sent to login to act', async ({
  page,
  request,
  browser,
}) => {
  const owner = await otherUser(browser, request, 'visited');
  const accountId = await paperAccount(request, owner.session, unique('Visited desk'));
  await shareSettings(request, owner.session, accountId, {
    is_public: true,
    name: unique('Visitor view'),
  });
  await owner.context.close();

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/strategy/${accountId}`);
  await expect(page.getByTestId('strategy-live')).toBeVisible();
  await expect(page.getByTestId('comments-login-prompt')).toBeVisible();
  await page.getByTestId('follow-toggle').click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto(`/strategy/${accountId}`);
  await page.getByTestId('copy-trade').click();
  await expect(page).toHaveURL(/\/login$/);

  // A strategy that is not public sends the visitor to the square with the reason.
  await page.goto('/strategy/999999999');
  await expect(page).toHaveURL(/\/strategy-square$/);
  await expect(page.getByTestId('square-notice')).toHaveText('策略不存在或未公开');
});

test('square filters, quick tags, paging, empty state and failures', async ({ page, request }) => {
  test.setTimeout(180_000);
  const owner = await signedInUser(page, request, 'many');
  const tag = Date.now().toString(36);
  for (let i = 0; i < 13; i += 1) {
    const accountId = await paperAccount(request, owner, `Many ${tag} ${i}`);
    await shareSettings(request, owner, accountId, { is_public: true, name: `Pager ${tag} ${i}` });
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/strategy-square?q=${encodeURIComponent(`Pager ${tag}`)}`);
  await expect(page.getByTestId('strategy-card')).toHaveCount(12);
  await expect(page.getByTestId('square-count')).toContainText('13');
  await page.getByTestId('square-page-number').filter({ hasText: '2' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByTestId('strategy-card')).toHaveCount(1);
  // Their owner is visible on each card, and the copy button shows nothing to the owner.
  await expect(page.getByTestId('copy-trade')).toHaveCount(0);

  // Quick tags set the spec's sort and period.
  await page.getByTestId('square-tag-trending').click();
  await expect(page).toHaveURL(/period=weekly/);
  await expect(page).not.toHaveURL(/page=2/);
  await page.getByTestId('square-tag-high_return').click();
  await expect(page).toHaveURL(/sort=pnl/);
  await expect(page).not.toHaveURL(/period=/);
  await page.getByTestId('square-tag-low_risk').click();
  await expect(page).toHaveURL(/sort=sharpe_ratio/);

  // List view shows the same strategies as rows.
  await page
    .getByTestId('square-view')
    .getByTitle(/列表|List/)
    .click();
  await expect(page.getByTestId('strategy-row')).toHaveCount(12);
  await page.screenshot({ path: `${screensDir}/square-list-1280.png`, fullPage: true });
  await page
    .getByTestId('square-view')
    .getByTitle(/网格|Grid/)
    .click();

  // A strategy without snapshots draws the illustrative curve, labelled as such.
  await page.route('**/api/strategy-square/strategies/?*', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { results: { snapshots: unknown[] }[] };
    for (const card of body.results) card.snapshots = [];
    await route.fulfill({ response, json: body });
  });
  await page.getByTestId('square-tag-stable').click();
  await expect(page).toHaveURL(/sort=win_rate/);
  await expect(page.getByTestId('strategy-illustrative')).toHaveCount(12);
  await page.unroute('**/api/strategy-square/strategies/?*');

  // Switching the search mode clears the text.
  await page.getByTestId('square-search-mode').click();
  await page.locator('.ant-select-item-option[title="用户"]').click();
  await expect(page.getByTestId('square-search')).toHaveValue('');
  await expect(page).not.toHaveURL(/q=/);
  await page.getByTestId('square-search').fill(`nobody-${tag}`);
  await expect(page.getByTestId('square-empty')).toContainText('暂无符合条件的策略');

  // A failing list empties it (document 2 §8).
  await page.route('**/api/strategy-square/strategies/?*', (route) => route.abort());
  await page.getByTestId('square-search').fill('');
  await expect(page.getByTestId('square-error')).toBeVisible();
  await expect(page.getByTestId('strategy-card')).toHaveCount(0);
  await page.unroute('**/api/strategy-square/strategies/?*');
});

test('screens of the square, a strategy and a profile in both languages, desktop and phone', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // The pages' clock is Playwright's, so the test can jump over the 30 s ping interval.
  await page.clock.install();
  const owner = await signedInUser(page, request, 'screens');
  const accountId = await paperAccount(request, owner, unique('Screens desk'));
  await shareSettings(request, owner, accountId, {
    is_public: true,
    name: unique('Screenshot strategy'),
    description: '<h2>Idea</h2><p>Buy <strong>breakouts</strong>, cut losers fast.</p>',
  });
  const profile = await request.get('/api/auth/profile/', { headers: auth(owner) });
  const userId = ((await profile.json()) as { id: number }).id;

  for (const language of ['zh-CN', 'en']) {
    await page.addInitScript((lang) => localStorage.setItem('qs.language', lang), language);
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
      for (const [name, path, ready] of [
        ['square', '/strategy-square', 'strategy-card'],
        ['strategy', `/strategy/${accountId}`, 'strategy-comments'],
        ['profile', `/user/${userId}`, 'profile-strategies'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByTestId(ready).first()).toBeVisible();
        await expectFitsWidth(page, `${name} ${language} ${width}`);
        await page.screenshot({
          path: `${screensDir}/${name}-${language}-${width}.png`,
          fullPage: true,
        });
      }
    }
  }
  // The strategy page after its ping interval (30 s): still live, nothing moved.
  await page.goto(`/strategy/${accountId}`);
  await expect(page.getByTestId('strategy-live')).toBeVisible();
  await page.clock.fastForward(31_000);
  await page.waitForTimeout(500);
  await expect(page.getByTestId('strategy-live')).toBeVisible();
  await expectFitsWidth(page);
  await page.screenshot({ path: `${screensDir}/strategy-after-ping-en-375.png`, fullPage: true });
});
