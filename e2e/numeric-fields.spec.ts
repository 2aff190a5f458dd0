import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { chooseOption } from './antd';
import { signedInUser } from './session';

// A bad number is never changed behind the user's back: the field keeps what was typed, says the
// rule it breaks in the reader's language, and nothing is saved (webhook amount, deposit, copy).
const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const LAYOUTS = [
  ['zh-CN', 1280],
  ['en', 375],
] as const;

async function useLayout(page: Page, language: string, width: number) {
  await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
  await page.evaluate((lang) => localStorage.setItem('qs.language', lang), language);
}

const auth = (access: string) => ({ authorization: `Bearer ${access}` });

async function paperAccount(request: APIRequestContext, access: string, name: string) {
  const answer = await request.post('/api/auth/apis/', {
    headers: auth(access),
    data: { name, exchange: 'binance', is_paper: true, default_leverage: 3 },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { id: number }).id;
}

async function countOf(request: APIRequestContext, access: string, url: string) {
  const answer = await request.get(url, { headers: auth(access) });
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as { count: number }).count;
}

test('the webhook form keeps a negative default amount and says its rule', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { access } = await signedInUser(page, request, 'numbers-webhook');
  await paperAccount(request, access, 'Hook desk');
  await page.goto('/webhook-trading');
  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto('/webhook-trading');
    await page.getByTestId('webhook-create').click();
    await page.getByTestId('webhook-form-name').fill('Bad amount');
    await chooseOption(page, 'webhook-form-account', 'Hook desk');
    const amount = page.getByTestId('webhook-form-amount');
    await amount.fill('-100');
    await amount.blur();
    await page.getByTestId('webhook-form-submit').click();
    await expect(amount).toHaveValue('-100');
    await expect(
      page.getByText(
        language === 'en'
          ? 'The amount must be between 10 and 10,000,000 USDT'
          : '金额需在 10 到 10,000,000 USDT 之间',
      ),
    ).toBeVisible();
    await amount.scrollIntoViewIfNeeded();
    await page.screenshot({
      path: `${screensDir}/numbers-webhook-negative-${language}-${width}.png`,
    });
    await amount.fill('12.345');
    await amount.blur();
    await expect(amount).toHaveValue('12.345');
    await expect(
      page.getByText(language === 'en' ? 'At most two decimals' : '最多保留两位小数'),
    ).toBeVisible();
    await page.screenshot({ path: `${screensDir}/numbers-webhook-${language}-${width}.png` });
    await page.keyboard.press('Escape');
  }
  expect(await countOf(request, access, '/api/webhook-trading/configs/')).toBe(0);
});

test('the deposit form keeps a negative amount and says the minimum', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { access } = await signedInUser(page, request, 'numbers-deposit');
  await page.goto('/deposit');
  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto('/deposit');
    await page.getByTestId('deposit-network-TRC20').click();
    const amount = page.getByTestId('deposit-amount');
    await amount.fill('-5');
    await amount.blur();
    await page.getByTestId('deposit-submit').click();
    // Shown with the field's two decimals, never turned into 0.00.
    await expect(amount).toHaveValue(/^-5(\.00)?$/);
    await expect(
      page.getByText(
        language === 'en'
          ? /The amount must be at least [\d.,]+ USDT/
          : /充值金额不能少于 [\d.,]+ USDT/,
      ),
    ).toBeVisible();
    await page.screenshot({ path: `${screensDir}/numbers-deposit-${language}-${width}.png` });
    await amount.fill('20.555');
    await amount.blur();
    await expect(amount).toHaveValue('20.555');
    await expect(
      page.getByText(language === 'en' ? 'At most two decimals' : '最多保留两位小数'),
    ).toBeVisible();
  }
  expect(await countOf(request, access, '/api/auth/balance/?type=deposit')).toBe(0);
});

test('the copy modal keeps 1500.555 and says it has too many decimals', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const leader = await request.post('/api/auth/register/', {
    data: {
      email: `numbers-leader-${Date.now()}@example.com`,
      password: 'correct-horse-42',
      password2: 'correct-horse-42',
    },
  });
  const leaderAccess = ((await leader.json()) as { access: string }).access;
  const leaderAccount = await paperAccount(request, leaderAccess, 'Leader desk');
  const shared = await request.put(
    `/api/strategy-square/accounts/${leaderAccount}/share-settings/`,
    { headers: auth(leaderAccess), data: { is_public: true, accept_copy: true } },
  );
  expect(shared.ok()).toBe(true);
  const { access } = await signedInUser(page, request, 'numbers-copy');
  await page.goto(`/strategy/${leaderAccount}`);
  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto(`/strategy/${leaderAccount}`);
    await page.getByTestId('copy-trade').click();
    const amount = page.getByTestId('copy-amount');
    await expect(amount).toHaveValue('100', { timeout: 30_000 });
    await amount.fill('1500.555');
    await amount.blur();
    await expect(amount).toHaveValue('1500.555');
    const modal = page.getByTestId('copy-modal');
    await expect(
      modal.getByText(language === 'en' ? 'Use at most two decimals' : '金额最多保留两位小数'),
    ).toBeVisible();
    await expect(modal.getByText(/cannot be less than|不能少于/)).toHaveCount(0);
    await expect(page.getByTestId('copy-submit')).toBeDisabled();
    await page.screenshot({ path: `${screensDir}/numbers-copy-${language}-${width}.png` });
    await amount.fill('-5');
    await amount.blur();
    await expect(amount).toHaveValue('-5');
    await expect(
      modal.getByText(
        language === 'en'
          ? 'The copy amount cannot be less than 10 USDT'
          : '跟单金额不能少于 10 USDT',
      ),
    ).toBeVisible();
    await page.keyboard.press('Escape');
  }
  expect(await countOf(request, access, '/api/strategy-square/copy-trading/following/')).toBe(0);
});
