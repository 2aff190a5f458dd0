import { mkdirSync } from 'node:fs';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { giveCoins } from './coins';
import { expectFitsWidth } from './layout';
import { newCode, outboxIds } from './outbox';
import { signedInUser } from './session';

// What a copy is called and who follows (issue items 17 and 24): every new user's paper account
// is "Experience account", so a copy is named by the published strategy, the leader's nickname
// and avatar; the experience account's name is translated on copies, bot cards, webhook cards
// and the publish wizard; a follower registered by phone shows to the leader as a masked phone.

const screensDir = process.env.E2E_SCREENS_DIR ?? '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const PASSWORD = 'correct-horse-42';
const LAYOUTS = [
  ['zh-CN', 1280],
  ['zh-CN', 375],
  ['en', 1280],
  ['en', 375],
] as const;
const EXPERIENCE = { 'zh-CN': '体验账户', en: 'Experience account' } as const;
const BY = { 'zh-CN': '交易员：', en: 'by ' } as const;
const auth = (access: string) => ({ authorization: `Bearer ${access}` });

async function useLayout(page: Page, language: string, width: number) {
  await page.evaluate((lang) => localStorage.setItem('qs.language', lang), language);
  await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
}

async function experienceAccount(request: APIRequestContext, access: string) {
  const answer = await request.get('/api/auth/apis/', { headers: auth(access) });
  const { results } = (await answer.json()) as {
    results: { id: number; is_experience: boolean }[];
  };
  const account = results.find((a) => a.is_experience);
  expect(account).toBeDefined();
  return account?.id as number;
}

/** A user registered by phone (no e-mail), signed in on a page of its own. */
async function phoneUser(browser: Browser, request: APIRequestContext) {
  const phone = `+86139${String(Date.now() % 100_000_000).padStart(8, '0')}`;
  const seen = await outboxIds(request, phone);
  const sent = await request.post('/api/auth/send-code/', {
    data: { type: 'phone', target: phone, action: 'register' },
  });
  expect(sent.ok(), await sent.text()).toBe(true);
  const code = await newCode(request, phone, seen);
  const answer = await request.post('/api/auth/phone-register/', {
    data: { phone, code, password: PASSWORD, password2: PASSWORD },
  });
  expect(answer.status(), await answer.text()).toBe(201);
  const tokens = (await answer.json()) as { access: string; refresh: string };
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await page.addInitScript(({ access, refresh }) => {
    if (!localStorage.getItem('access')) {
      localStorage.setItem('access', access);
      localStorage.setItem('refresh', refresh);
    }
    localStorage.setItem('qs.welcomeClosedAt', String(Date.now()));
  }, tokens);
  return { phone, page, context, access: tokens.access };
}

test('a copy is named by strategy and leader; a phone follower shows masked; the experience account is translated', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(300_000);
  // A: a nickname, and the experience account published as "Trend Rider …".
  const a = await signedInUser(page, request, 'names-leader');
  const suffix = Date.now().toString(36);
  const nickname = `Nakamoto ${suffix}`;
  const strategyName = `Trend Rider ${suffix}`;
  const profile = await request.put('/api/strategy-square/profile/', {
    headers: auth(a.access),
    data: { nickname },
  });
  expect(profile.ok(), await profile.text()).toBe(true);
  const leaderAccount = await experienceAccount(request, a.access);
  const shared = await request.put(
    `/api/strategy-square/accounts/${leaderAccount}/share-settings/`,
    { headers: auth(a.access), data: { is_public: true, accept_copy: true, name: strategyName } },
  );
  expect(shared.status(), await shared.text()).toBe(200);

  // P: registered by phone, copies A with its own experience account; a bot and a webhook on it.
  const p = await phoneUser(browser, request);
  await giveCoins(request, p.access, '100');
  const followerAccount = await experienceAccount(request, p.access);
  const copied = await request.post('/api/strategy-square/copy-trading/create/', {
    headers: auth(p.access),
    data: { leader_account_id: leaderAccount, follower_account_id: followerAccount },
  });
  expect(copied.status(), await copied.text()).toBe(201);
  const relationId = ((await copied.json()) as { id: number }).id;
  const bot = await request.post('/api/trading/bots/', {
    headers: auth(p.access),
    data: {
      exchange_api: followerAccount,
      strategy: 1,
      symbol: 'ETH/USDT:USDT',
      timeframe: '1h',
      trade_amount: 50,
    },
  });
  expect(bot.status(), await bot.text()).toBe(201);
  const hook = await request.post('/api/webhook-trading/configs/', {
    headers: auth(p.access),
    data: { name: `Names hook ${suffix}`, exchange_api: followerAccount, default_amount: 100 },
  });
  expect(hook.status(), await hook.text()).toBe(201);

  const masked = `${p.phone.slice(0, -8)}****${p.phone.slice(-4)}`;
  await p.page.goto('/dashboard');
  await page.goto('/dashboard');
  for (const [language, width] of LAYOUTS) {
    const tag = `${language}-${width}`;
    // P's copy management: the strategy's name, "by nickname", its own account translated.
    await useLayout(p.page, language, width);
    await p.page.goto('/my/copy-trading');
    const item = p.page.getByTestId('copy-following-item');
    await expect(item.getByTestId('copy-strategy-name')).toHaveText(strategyName);
    await expect(item.getByTestId('copy-leader-nickname')).toHaveText(`${BY[language]}${nickname}`);
    await expect(item).toContainText(EXPERIENCE[language]);
    await expectFitsWidth(p.page, `following ${tag}`);
    await p.page.screenshot({
      path: `${screensDir}/copy-names-following-${tag}.png`,
      fullPage: true,
    });

    // The copy's detail header.
    await p.page.goto(`/copy-trading/${relationId}`);
    const detail = p.page.getByTestId('copy-detail');
    await expect(detail.getByTestId('copy-strategy-name')).toHaveText(strategyName);
    await expect(detail.getByTestId('copy-leader-nickname')).toContainText(nickname);
    await expect(detail).toContainText(EXPERIENCE[language]);
    await expectFitsWidth(p.page, `detail ${tag}`);
    await p.page.screenshot({ path: `${screensDir}/copy-names-detail-${tag}.png`, fullPage: true });

    // The bot card and the webhook card name the experience account in the reader's language.
    await p.page.goto('/dashboard');
    const botRow = p.page.locator('[data-testid="bot-row"][data-symbol="ETH/USDT:USDT"]');
    await expect(botRow).toContainText(EXPERIENCE[language]);
    await p.page.screenshot({ path: `${screensDir}/copy-names-bot-${tag}.png`, fullPage: true });
    await p.page.goto('/webhook-trading');
    await expect(p.page.getByTestId('webhook-config')).toContainText(EXPERIENCE[language]);
    await p.page.screenshot({
      path: `${screensDir}/copy-names-webhook-${tag}.png`,
      fullPage: true,
    });

    // A's followers: the phone follower, masked, and the strategy's name.
    await useLayout(page, language, width);
    await page.goto('/my/copy-trading?tab=followers');
    const row = page.getByTestId('copy-follower-row');
    await expect(row.getByTestId('copy-follower-name')).toHaveText(masked);
    await expect(row.getByTestId('copy-strategy-name')).toHaveText(strategyName);
    await expectFitsWidth(page, `followers ${tag}`);
    await page.screenshot({
      path: `${screensDir}/copy-names-followers-${tag}.png`,
      fullPage: true,
    });

    // The publish wizard lists the experience account in the reader's language.
    await page.goto('/my/strategies/create');
    await expect(
      page.locator(`[data-testid="publish-account"]`).filter({ hasText: EXPERIENCE[language] }),
    ).toHaveCount(1);
    await page.screenshot({ path: `${screensDir}/copy-names-publish-${tag}.png`, fullPage: true });
  }
  await p.context.close();
});
