import { expect, test } from '@playwright/test';
import type { CopyDetailResponse, CopyFollowingResponse } from '@quantsquare/contracts';
import { giveCoins } from './coins';
import {
  auth,
  chooseAccount,
  coinBalance,
  LAYOUTS,
  paperAccount,
  settled,
  shot,
  unique,
  useLayout,
  userId,
  userIn,
} from './copy-flow';
import { expectFitsWidth } from './layout';
import { tradeThroughWebhook } from './webhook-signal';

// Copy trading in the browser (document 2 §1 copy modal, §2 strategy detail button, §4 copy
// management, §5 rules, §8 texts): user B copies user A's public paper strategy in reverse,
// manages the copy, and A sees B among the followers with the fee.

test('B copies A in reverse from the strategy page, edits, pauses, resumes, stops and deletes; A sees the follower and the fee', async ({
  browser,
  request,
}) => {
  test.setTimeout(480_000);
  // A publishes a paper account that accepts copying.
  const a = await userIn(browser, request, 'copy-leader');
  const strategyName = unique('Copy leader');
  const leaderAccount = await paperAccount(request, a.session, unique('Leader desk'));
  const shared = await request.put(
    `/api/strategy-square/accounts/${leaderAccount}/share-settings/`,
    {
      headers: auth(a.session),
      data: { is_public: true, accept_copy: true, name: strategyName },
    },
  );
  expect(shared.status()).toBe(200);

  // B has a paper account on the same exchange, one on the other, and 150 coins.
  const b = await userIn(browser, request, 'copy-follower');
  const bAccountName = unique('Follower desk');
  await paperAccount(request, b.session, bAccountName);
  const bOkxName = unique('Okx desk');
  await paperAccount(request, b.session, bOkxName, 'okx');
  await giveCoins(request, b.session.access, '150');
  expect(Number(await coinBalance(request, b.session))).toBe(150);

  // A visitor's click goes to /login.
  const visitorContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/strategy/${leaderAccount}`);
  await visitor.getByTestId('copy-trade').click();
  await expect(visitor).toHaveURL(/\/login$/);
  await visitorContext.close();

  // The owner sees no copy button on their own strategy.
  await a.page.goto(`/strategy/${leaderAccount}`);
  await expect(a.page.getByTestId('strategy-name')).toHaveText(strategyName);
  await expect(a.page.getByTestId('copy-trade')).toHaveCount(0);

  // The modal in both languages, desktop and phone; the other exchange is marked with a warning.
  const page = b.page;
  await page.goto(`/strategy/${leaderAccount}`);
  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto(`/strategy/${leaderAccount}`);
    await page.getByTestId('copy-trade').click();
    const modal = page.getByTestId('copy-modal');
    // The first opening loads the modal's code, the accounts and the balance.
    await expect(page.getByTestId('copy-balance')).toContainText('150.00', { timeout: 30_000 });
    await settled(modal);
    await chooseAccount(page, bOkxName);
    await expect(page.getByTestId('copy-cross-warning')).toBeVisible();
    await page.getByTestId('copy-late-join').click();
    await expect(page.getByTestId('copy-entry-distance')).toHaveValue('1.0');
    await page.getByTestId('copy-mode-reverse').click();
    // The protections open on request; a reverse copy's drift is the leader's rise.
    await modal.getByText(language === 'en' ? 'Protection (optional)' : '风控设置（可选）').click();
    await expect(page.getByTestId('copy-drift')).toBeVisible();
    await expect(
      modal.getByText(language === 'en' ? /rises this far from its low/ : /低点上涨达到此比例/),
    ).toBeVisible();
    await expectFitsWidth(page, `modal ${language} ${width}`);
    await shot(page, `copy-modal-${language}-${width}`);
    await page.getByTestId('copy-drift').scrollIntoViewIfNeeded();
    await shot(page, `copy-modal-protection-${language}-${width}`);
    await modal.getByRole('button', { name: language === 'en' ? 'Cancel' : '取消' }).click();
    await expect(modal).toBeHidden();
  }

  // B copies in reverse with the same-exchange account; a too-small amount is refused first.
  await useLayout(page, 'zh-CN', 1280);
  await page.goto(`/strategy/${leaderAccount}`);
  const copiersBefore = await page.getByTestId('strategy-copiers').textContent();
  await page.getByTestId('copy-trade').click();
  await expect(page.getByTestId('copy-trade')).toContainText('跟单（100 平台币）');
  await expect(page.getByTestId('copy-balance')).toContainText('150.00');
  await settled(page.getByTestId('copy-modal'));
  await chooseAccount(page, bAccountName);
  await expect(page.getByTestId('copy-cross-warning')).toHaveCount(0);
  await expect(page.getByTestId('copy-amount')).toHaveValue('100');
  await page.getByTestId('copy-amount').fill('5');
  await expect(page.getByText('跟单金额不能少于 10 USDT')).toBeVisible();
  await expect(page.getByTestId('copy-submit')).toBeDisabled();
  await page.getByTestId('copy-amount').fill('200');
  await page.getByTestId('copy-max-loss').fill('50');
  await page.getByTestId('copy-mode-reverse').click();
  // The protections: a slippage cap over 10% is refused where it is typed, then 0.8% and a
  // 15% drift limit are taken.
  await page.getByText('风控设置（可选）').click();
  await page.getByTestId('copy-slippage').fill('20');
  await expect(page.getByText('请输入大于 0 且不超过 10% 的数值')).toBeVisible();
  await expect(page.getByTestId('copy-submit')).toBeDisabled();
  await page.getByTestId('copy-slippage').fill('0.8');
  await page.getByTestId('copy-drift').fill('15');
  await expect(page.getByTestId('copy-submit')).toBeEnabled();
  await page.getByTestId('copy-submit').click();
  await expect(page).toHaveURL(/\/my\/copy-trading$/);

  const item = page.getByTestId('copy-following-item').first();
  await expect(item).toHaveAttribute('data-status', 'active');
  await expect(item.getByTestId('copy-badge-reverse')).toHaveText('反向');
  await expect(item.getByTestId('copy-badge-cross')).toHaveCount(0);
  await expect(item.getByTestId('copy-status')).toHaveText('运行中');
  await expect(item.getByTestId('copy-amount-value')).toHaveText('200.00');
  await expect(item.getByTestId('copy-max-loss-value')).toHaveText('50.00 USDT');
  // The fee left B's balance (100 coins).
  expect(Number(await coinBalance(request, b.session))).toBe(50);
  await expect(page.getByTestId('coin-balance')).toContainText('50.00');

  // A's account trades (a TradingView alert through a webhook): B's account holds the mirror
  // image within seconds — a short, sized by B's 200 USDT against A's 10,000 USDT equity.
  const following = (await (
    await request.get('/api/strategy-square/copy-trading/following/', { headers: auth(b.session) })
  ).json()) as CopyFollowingResponse;
  const copyId = following.results[0]?.id;
  expect(copyId).toBeDefined();
  const copiedPositions = async () => {
    const answer = await request.get(`/api/strategy-square/copy-trading/${copyId}/`, {
      headers: auth(b.session),
    });
    expect(answer.status()).toBe(200);
    const detail = (await answer.json()) as CopyDetailResponse;
    return detail.positions.map((position) => `${position.symbol} ${position.side}`);
  };
  await tradeThroughWebhook(request, a.session.access, leaderAccount, 'buy', {
    symbol: 'BTC/USDT:USDT',
    amount: 1000,
    leverage: 10,
  });
  await expect.poll(copiedPositions, { timeout: 30_000 }).toEqual(['BTC/USDT:USDT short']);
  await page.goto('/my/account');
  const bCard = page.locator('[data-testid="account-card"]').filter({ hasText: bAccountName });
  await expect(bCard.getByTestId('account-position').filter({ hasText: 'BTC' })).toContainText(
    '空',
  );
  await shot(page, 'copy-follower-short-zh-CN-1280');
  await page.goto('/my/copy-trading');

  // The strategy page now says Already Copying, with one more copier, and leads back here.
  await page.goto(`/strategy/${leaderAccount}`);
  await expect(page.getByTestId('copy-trade-copying')).toHaveText(/已跟单/);
  await expect(page.getByTestId('copy-trade')).toHaveCount(0);
  expect(await page.getByTestId('strategy-copiers').textContent()).not.toBe(copiersBefore);
  await page.getByTestId('copy-trade-copying').click();
  await expect(page).toHaveURL(/\/my\/copy-trading$/);

  // Copy management and the copy's own page, in both languages on desktop and phone.
  const relationId = await item.getAttribute('data-id');
  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto('/my/copy-trading');
    await expect(page.getByTestId('copy-following-item').first()).toBeVisible();
    await expectFitsWidth(page, `management ${language} ${width}`);
    await shot(page, `copy-management-${language}-${width}`);
    await page.goto(`/copy-trading/${relationId}`);
    await expect(page.getByTestId('copy-detail')).toHaveAttribute('data-status', 'active');
    await expect(page.getByTestId('copy-receipts')).toBeVisible();
    await expect(page.getByTestId('copy-detail-slippage')).toHaveText('0.80%');
    await expect(page.getByTestId('copy-detail-drift')).toHaveText('15.00%');
    // One copied trade already draws the P&L line, from 0 at the start to the P&L now.
    const chart = page.getByTestId('copy-pnl-chart');
    await expect(chart).toHaveAttribute('data-point-count', /^(?:[2-9]|\d{2,})$/);
    await expect(chart.locator('canvas').first()).toBeVisible();
    await expectFitsWidth(page, `detail ${language} ${width}`);
    await shot(page, `copy-detail-${language}-${width}`);
  }
  await useLayout(page, 'zh-CN', 1280);
  await page.goto('/my/copy-trading');

  // Clicking the item opens its page.
  await item.locator('.ant-typography').first().click();
  await expect(page).toHaveURL(new RegExp(`/copy-trading/${relationId}$`));
  await page.goBack();

  // Edit: the amount must be at least 10; empty max loss means no limit.
  await item.getByTestId('copy-edit').click();
  const edit = page.getByTestId('copy-edit-modal');
  await expect(edit.getByTestId('copy-edit-trades')).toHaveText('1');
  await expect(page.getByTestId('copy-edit-amount')).toHaveValue('200.00');
  await page.getByTestId('copy-edit-amount').fill('9.99');
  await expect(edit.getByText('跟单金额不能少于 10 USDT')).toBeVisible();
  await expect(page.getByTestId('copy-edit-save')).toBeDisabled();
  await page.getByTestId('copy-edit-amount').fill('150.5');
  await page.getByTestId('copy-edit-max-loss').fill('');
  // The protections come as saved; emptying the drift limit turns the breaker off.
  await expect(edit.getByTestId('copy-slippage')).toHaveValue('0.8');
  await expect(edit.getByTestId('copy-drift')).toHaveValue('15');
  await edit.getByTestId('copy-drift').fill('');
  await shot(page, 'copy-edit-zh-CN-1280');
  await page.getByTestId('copy-edit-save').click();
  await expect(edit).toBeHidden();
  await expect(item.getByTestId('copy-amount-value')).toHaveText('150.50');
  await expect(item.getByTestId('copy-max-loss-value')).toHaveText('不限制');
  const edited = (await (
    await request.get(`/api/strategy-square/copy-trading/${relationId}/`, {
      headers: auth(b.session),
    })
  ).json()) as CopyDetailResponse;
  expect(edited.relation).toMatchObject({
    max_slippage_percent: 0.8,
    leader_drawdown_limit_percent: null,
  });

  // Pause, resume, stop (after a confirmation that it cannot be undone), delete.
  await expect(item.getByTestId('copy-resume')).toHaveCount(0);
  await item.getByTestId('copy-pause').click();
  await expect(item).toHaveAttribute('data-status', 'paused');
  await expect(item.getByTestId('copy-status')).toHaveText('已暂停');
  await item.getByTestId('copy-resume').click();
  await expect(item).toHaveAttribute('data-status', 'active');
  await item.getByTestId('copy-stop').click();
  await expect(page.locator('.ant-modal-confirm-content')).toContainText('无法撤销');
  await page.getByTestId('copy-confirm-ok').click();
  await expect(item).toHaveAttribute('data-status', 'stopped');
  await expect(item.getByTestId('copy-status')).toHaveText('已停止');
  await expect(item.getByTestId('copy-edit')).toHaveCount(0);
  await expect(item.getByTestId('copy-resume')).toHaveCount(0);
  // Stopping closed the copied short.
  await expect.poll(copiedPositions, { timeout: 30_000 }).toEqual([]);

  // A sees B among the followers with the fee; a row opens B's profile.
  const bId = await userId(request, b.session);
  for (const [language, width] of LAYOUTS) {
    await useLayout(a.page, language, width);
    await a.page.goto('/my/copy-trading?tab=followers');
    await expect(a.page.getByTestId('copy-totals-followers')).toHaveText('1');
    await expect(a.page.getByTestId('copy-totals-fees')).toHaveText('100.00');
    await expect(a.page.getByTestId('copy-follower-row')).toHaveCount(1);
    await expect(a.page.getByTestId('copy-follower-fee')).toHaveText('100.00');
    await expectFitsWidth(a.page, `followers ${language} ${width}`);
    await shot(a.page, `copy-followers-${language}-${width}`);
  }
  await a.page.getByTestId('copy-follower-row').click();
  await expect(a.page).toHaveURL(new RegExp(`/user/${bId}$`));
  // A's own Mine tab is empty.
  await a.page.goto('/my/copy-trading');
  await expect(a.page.getByTestId('copy-following-empty')).toBeVisible();

  // B deletes the stopped copy.
  await item.getByTestId('copy-delete').click();
  await page.getByTestId('copy-confirm-ok').click();
  await expect(item).toHaveCount(0);
  await expect(page.getByTestId('copy-following-empty')).toBeVisible();
  await shot(page, 'copy-management-empty-zh-CN-1280');
  expect(Number(await coinBalance(request, b.session))).toBe(50);

  // B's operation log tells the copy's story in the page's language, not the server's English.
  await page.goto('/dashboard');
  const actions = page
    .getByTestId('operation-log')
    .locator('[data-testid="operation-log-row"][data-type="user_action"]');
  for (const text of [
    '开始跟单：200.00 USDT，反向跟单',
    '修改跟单设置：150.50 USDT，最大亏损 不限制',
    '跟单已暂停',
    '跟单已恢复',
    '跟单已停止：由您停止',
    '删除已停止的跟单',
  ]) {
    await expect(actions.filter({ hasText: text }), text).toHaveCount(1, { timeout: 15_000 });
  }
  await expect(actions.filter({ hasText: 'Copy trading' })).toHaveCount(0);
  await shot(page, 'copy-operation-log-zh-CN-1280');

  await a.context.close();
  await b.context.close();
});
