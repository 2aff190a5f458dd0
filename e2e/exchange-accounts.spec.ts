import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { EXCHANGE_ERROR_MESSAGES } from '@quantsquare/contracts';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

// The Chinese texts of the exchange error kinds (accounts.zh-CN.ts), any of which a failed check
// may show: the machine here cannot reach a real exchange.
const ZH_KIND_TEXTS = [
  'API 密钥无效或权限不足',
  '交易所账户余额不足',
  '交易所拒绝了该请求',
  '请求交易所过于频繁，请稍后再试',
  '交易所暂不可用，请稍后再试',
  '交易所未及时应答，请稍后再试',
];
const anyZhKind = new RegExp(ZH_KIND_TEXTS.join('|'));
const anyEnKind = new RegExp(
  Object.values(EXCHANGE_ERROR_MESSAGES)
    .map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|'),
);

function grantVip(email: string) {
  execFileSync('npm', ['run', 'admin', '--', 'grant-vip', '--email', email, '--days', '30'], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });
}

/** A live Binance account with keys the exchange cannot confirm (it cannot be reached here). */
async function liveAccount(request: APIRequestContext, access: string, name: string) {
  const answer = await request.post('/api/auth/apis/', {
    headers: { authorization: `Bearer ${access}` },
    data: {
      name,
      exchange: 'binance',
      api_key: 'e2e-key-0000000000000000',
      api_secret: 'e2e-secret-0000000000000000',
      default_leverage: 3,
    },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { id: number }).id;
}

test("a failed exchange check says its kind in the reader's language, details on demand, and the status follows it", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { access } = await signedInUser(page, request, 'exchange-error');
  const name = 'Unreachable desk';
  await liveAccount(request, access, name);

  await page.goto('/my/api-management');
  const row = page.locator(`[data-testid="api-row"][data-name="${name}"]`);
  // Checked on adding: a key the exchange never confirmed is not shown as normal.
  await expect(row.getByTestId('api-status')).toHaveAttribute('data-status', 'abnormal');

  // Test connection: a toast in Chinese; the exchange's own words only behind "详情".
  await row.getByTestId('api-test').click();
  const toast = page.getByTestId('connection-failed');
  await expect(toast).toBeVisible({ timeout: 30_000 });
  await expect(toast).toContainText(/^连接失败：/);
  await expect(toast).toContainText(anyZhKind);
  await expect(toast.getByTestId('exchange-error-details')).toHaveCount(0);
  await toast.getByTestId('exchange-error-details-toggle').click();
  await expect(toast.getByTestId('exchange-error-details')).not.toBeEmpty();
  await page.screenshot({ path: `${screensDir}/api-test-failed-1280.png` });

  // The status follows the last check.
  await expect(row.getByTestId('api-status')).toHaveAttribute('data-status', 'abnormal');
  await expect(row.getByTestId('api-status')).toHaveText('异常');
  await expect(row.getByTestId('api-last-error').getByTestId('exchange-error-kind')).toHaveText(
    anyZhKind,
  );

  // The permission check says the same.
  await row.getByTestId('api-validate').click();
  const validation = page.getByTestId('api-validate-result');
  await expect(validation.getByTestId('api-validate-status')).toContainText(/验证失败：/, {
    timeout: 30_000,
  });
  await expect(validation.getByTestId('api-validate-status')).toContainText(anyZhKind);
  await validation.getByTestId('exchange-error-details-toggle').click();
  await expect(validation.getByTestId('exchange-error-details')).not.toBeEmpty();
  await page.keyboard.press('Escape');

  // The account card too, and it is not counted active.
  await page.goto('/my/account');
  const card = page.locator(`[data-testid="account-card"][data-name="${name}"]`);
  await expect(card.getByTestId('account-error')).toContainText(/加载失败：/, { timeout: 30_000 });
  await expect(card.getByTestId('account-error')).toContainText(anyZhKind);
  await expect(card.getByTestId('account-status')).toHaveText('异常');
  const overview = (await (
    await request.get('/api/trading/accounts/', { headers: { authorization: `Bearer ${access}` } })
  ).json()) as {
    accounts: { name: string; is_active: boolean }[];
    total: { active_count: number };
  };
  expect(overview.accounts.find((a) => a.name === name)?.is_active).toBe(false);
  await expect(page.getByTestId('accounts-active-count')).toHaveText(
    String(overview.total.active_count),
  );
  // Nothing of the exchange's raw English is on screen until asked for.
  await expect(page.locator('body')).not.toContainText(anyEnKind);
  await card.getByTestId('exchange-error-details-toggle').click();
  await expect(card.getByTestId('exchange-error-details')).toBeVisible();
  await page.screenshot({ path: `${screensDir}/account-failed-1280.png`, fullPage: true });

  // In English, the kind's English text.
  await page.evaluate(() => localStorage.setItem('qs.language', 'en'));
  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(card.getByTestId('account-error')).toContainText(/Load failed: /, {
    timeout: 30_000,
  });
  await expect(card.getByTestId('account-error')).toContainText(anyEnKind);
  await expectFitsWidth(page);
  await page.screenshot({ path: `${screensDir}/account-failed-en-375.png`, fullPage: true });
});

test('every new user has a labelled experience account, as the welcome pop-up promises', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = `experience-${Date.now()}@example.com`;
  const registered = await request.post('/api/auth/register/', {
    data: { email, password: 'correct-horse-42', password2: 'correct-horse-42' },
  });
  expect(registered.status()).toBe(201);
  const tokens = (await registered.json()) as { access: string; refresh: string };

  // The visitor's welcome pop-up promises exactly that account.
  await page.goto('/dashboard');
  await expect(page.getByTestId('welcome-modal')).toContainText(
    '新用户福利：注册即送 10,000 USDT 模拟体验账户',
    { timeout: 20_000 },
  );
  await page.getByTestId('welcome-modal-close').click();

  await page.evaluate(({ access, refresh }) => {
    localStorage.setItem('access', access);
    localStorage.setItem('refresh', refresh);
  }, tokens);
  await page.goto('/my/api-management');
  const row = page
    .locator('[data-testid="api-row"]')
    .filter({ has: page.getByTestId('api-experience-tag') });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('api-name')).toHaveText('体验账户');
  // The name says what it is; the gift tag marks it as the (paper) new-user account.
  await expect(row.getByTestId('api-experience-tag')).toHaveText('模拟');
  await row.getByTestId('api-balance').click();
  await expect(page.getByTestId('api-balance-usdt-total')).toContainText('10,000');
  await page.keyboard.press('Escape');

  await page.goto('/my/account');
  const card = page
    .locator('[data-testid="account-card"]')
    .filter({ has: page.getByTestId('account-experience-tag') });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('account-name')).toHaveText('体验账户');
  await expect(card.getByTestId('account-experience-tag')).toBeVisible();
  await expect(card.getByTestId('account-balance-total')).toContainText('10,000');

  // Renamed by its owner, it keeps its label.
  const apis = (await (
    await request.get('/api/auth/apis/', { headers: { authorization: `Bearer ${tokens.access}` } })
  ).json()) as { results: { id: number; is_experience: boolean }[] };
  const experience = apis.results.find((a) => a.is_experience);
  expect(experience).toBeDefined();
  const renamed = await request.patch(`/api/auth/apis/${experience?.id}/`, {
    headers: { authorization: `Bearer ${tokens.access}` },
    data: { name: 'My trial' },
  });
  expect(renamed.ok()).toBe(true);
  await page.reload();
  await expect(card.getByTestId('account-name')).toHaveText('My trial');
  await expect(card.getByTestId('account-experience-tag')).toHaveText('体验账户');

  // Where bots are created, too.
  await page.goto('/dashboard');
  await page.getByTestId('bot-create').click();
  await expect(page.getByTestId('bot-form-account')).toContainText('My trial · Binance · 体验账户');
});

test('deleting an exchange account lists its bots and is refused while one runs', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { email, access } = await signedInUser(page, request, 'delete-bots');
  grantVip(email);
  const headers = { authorization: `Bearer ${access}` };
  const account = await request.post('/api/auth/apis/', {
    headers,
    data: { name: 'Bot desk', exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(account.status()).toBe(201);
  const accountId = ((await account.json()) as { id: number }).id;
  const bot = async (symbol: string) => {
    const answer = await request.post('/api/trading/bots/', {
      headers,
      data: { exchange_api: accountId, strategy: 1, symbol, timeframe: '1h', trade_amount: 50 },
    });
    expect(answer.status()).toBe(201);
    return ((await answer.json()) as { bot: { id: number } }).bot.id;
  };
  const runningId = await bot('BTC/USDT:USDT');
  await bot('ETH/USDT:USDT');
  expect((await request.post(`/api/trading/bots/${runningId}/start/`, { headers })).ok()).toBe(
    true,
  );

  await page.goto('/my/api-management');
  const row = page.locator('[data-testid="api-row"][data-name="Bot desk"]');
  await row.getByTestId('api-delete').click();
  const confirm = page.getByTestId('api-delete-confirm-body');
  await expect(confirm.getByTestId('api-delete-bot')).toHaveCount(2);
  await expect(
    confirm.locator('[data-testid="api-delete-bot"][data-status="running"]'),
  ).toContainText('BTC/USDT:USDT');
  await expect(confirm).toContainText('以下机器人正在运行，请先停止后再删除');
  await page.screenshot({ path: `${screensDir}/api-delete-confirm-1280.png` });
  await page.getByTestId('api-delete-confirm').click();

  // The server refuses; its reason is shown and nothing is deleted.
  const refusal = page.getByTestId('api-delete-failed');
  await expect(refusal).toContainText(
    `无法删除：请先停止该账户下运行中的机器人（BTC/USDT:USDT #${runningId}）`,
  );
  await expect(row).toBeVisible();

  // Stopped, the account goes with its bots.
  expect((await request.post(`/api/trading/bots/${runningId}/stop/`, { headers })).ok()).toBe(true);
  await page.reload();
  await row.getByTestId('api-delete').click();
  await expect(
    confirm.locator('[data-testid="api-delete-bot"][data-status="running"]'),
  ).toHaveCount(0);
  await page.getByTestId('api-delete-confirm').click();
  await expect(row).toHaveCount(0);
  const bots = (await (await request.get('/api/trading/bots/', { headers })).json()) as {
    results: unknown[];
  };
  expect(bots.results).toHaveLength(0);
});

test('the Add API form shows the rule of an out-of-range leverage or paper balance instead of changing it', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { access } = await signedInUser(page, request, 'add-api-form');
  const names = async () => {
    const answer = await request.get('/api/auth/apis/', {
      headers: { authorization: `Bearer ${access}` },
    });
    return ((await answer.json()) as { results: { name: string }[] }).results.map((a) => a.name);
  };
  const before = await names();

  await page.goto('/my/api-management');
  await page.getByTestId('api-add').click();
  await page.getByTestId('api-form-name').fill('Typed desk');
  await page.getByTestId('api-form-paper').click();
  const balance = page.getByTestId('api-form-paper-balance');
  const leverage = page.getByTestId('api-form-leverage');
  await balance.fill('50');
  await leverage.fill('200');
  await leverage.blur();
  await expect(balance).toHaveValue('50');
  await expect(leverage).toHaveValue('200');
  await expect(page.getByText('模拟资金需在 100 到 100,000,000 USDT 之间')).toBeVisible();
  await expect(page.getByText('杠杆倍数需在 1 到 125 之间')).toBeVisible();
  await page.getByTestId('api-form-submit').click();
  await leverage.fill('2.5');
  await leverage.blur();
  await expect(leverage).toHaveValue('2.5');
  await expect(page.getByText('杠杆倍数必须为整数')).toBeVisible();
  await page.getByTestId('api-form-submit').click();
  await page.waitForTimeout(1000);
  expect(await names()).toEqual(before);

  await balance.fill('5000');
  await leverage.fill('20');
  await page.getByTestId('api-form-submit').click();
  await expect(page.locator('[data-testid="api-row"][data-name="Typed desk"]')).toBeVisible();
  await expect.poll(names).toContain('Typed desk');
});
