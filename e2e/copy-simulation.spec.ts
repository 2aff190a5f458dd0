import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import type { CopyFollowingResponse } from '@quantsquare/contracts';
import { animationsOver } from './antd';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';
import { tradeThroughWebhook } from './webhook-signal';

// The copy simulator in the browser: the copy modal previews what copying the strategy would
// have made over 7/30/90 days (chart and four figures) before the user confirms, with its empty
// state for a strategy that never traded; a running copy's page shows simulated beside actual.

const screensDir = process.env.E2E_SCREENS_DIR ?? '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
const LAYOUTS = [
  ['zh-CN', 1280],
  ['zh-CN', 375],
  ['en', 1280],
  ['en', 375],
] as const;

type Session = Awaited<ReturnType<typeof signedInUser>>;
const auth = (session: { access: string }) => ({ authorization: `Bearer ${session.access}` });
const unique = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

async function useLayout(page: Page, language: string, width: number) {
  await page.evaluate((lang) => localStorage.setItem('qs.language', lang), language);
  await page.setViewportSize(width === 375 ? PHONE : DESKTOP);
}

async function paperAccount(request: APIRequestContext, session: Session, name: string) {
  const answer = await request.post('/api/auth/apis/', {
    headers: auth(session),
    data: { name, exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(answer.status()).toBe(201);
  return ((await answer.json()) as { id: number }).id;
}

async function publish(
  request: APIRequestContext,
  session: Session,
  accountId: number,
  name: string,
) {
  const shared = await request.put(`/api/strategy-square/accounts/${accountId}/share-settings/`, {
    headers: auth(session),
    data: { is_public: true, accept_copy: true, name },
  });
  expect(shared.status()).toBe(200);
}

function credit(email: string, amount: string) {
  const args = ['--email', email, '--amount', amount, '--reason', 'browser test'];
  execFileSync('npm', ['run', 'admin', '--', 'credit', ...args], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
    stdio: 'pipe',
  });
}

test('the copy modal simulates the copy over a switchable period before confirming', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(300_000);
  // A trades on a public paper account: a long opened and closed, then another long.
  const leaderContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const a = await signedInUser(await leaderContext.newPage(), request, 'sim-leader');
  const leaderAccount = await paperAccount(request, a, unique('Sim leader'));
  await publish(request, a, leaderAccount, unique('Sim strategy'));
  const first = await tradeThroughWebhook(request, a.access, leaderAccount, 'buy', {
    amount: 1000,
    leverage: 10,
  });
  await tradeThroughWebhook(request, a.access, leaderAccount, 'close', { reuse: first });
  await tradeThroughWebhook(request, a.access, leaderAccount, 'buy', {
    amount: 500,
    leverage: 10,
    reuse: first,
  });
  // A strategy that never traded.
  const quietAccount = await paperAccount(request, a, unique('Quiet leader'));
  await publish(request, a, quietAccount, unique('Quiet strategy'));
  await leaderContext.close();

  // B has a paper account (its copies simulate paper fills).
  const b = await signedInUser(page, request, 'sim-follower');
  await paperAccount(request, b, unique('Sim follower'));
  await page.goto(`/strategy/${leaderAccount}`);

  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto(`/strategy/${leaderAccount}`);
    await page.getByTestId('copy-trade').click();
    const modal = page.getByTestId('copy-modal');
    await animationsOver(modal);
    const simulation = page.getByTestId('copy-simulation');
    await expect(simulation).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
    await expect(simulation).toHaveAttribute('data-days', '30');
    for (const figure of ['sim-return', 'sim-drawdown', 'sim-fees', 'sim-skipped']) {
      await expect(page.getByTestId(figure)).toBeVisible();
    }
    await expect(page.getByTestId('sim-return')).toHaveText(/^[+-]?\d+\.\d{2}%$/);
    await expect(page.getByTestId('sim-skipped')).toHaveText('0');
    await expect(simulation.getByTestId('sparkline')).toBeVisible();
    // The period switches to 7 days and the figures come back for it.
    await simulation.getByText(language === 'en' ? '7 d' : '7天').click();
    await expect(simulation).toHaveAttribute('data-days', '7');
    await expect(simulation).toHaveAttribute('data-state', 'ready');
    await expect(page.getByTestId('sim-trades')).toContainText(language === 'en' ? 'orders' : '笔');
    await expectFitsWidth(page, `modal ${language} ${width}`);
    await simulation.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screensDir}/copy-simulation-${language}-${width}.png` });
    // The assumptions, in the reader's language.
    await page.getByTestId('sim-assumptions-link').click();
    await expect(page.getByTestId('sim-assumptions')).toContainText(
      language === 'en' ? 'leader' : '交易员',
    );
    await page.keyboard.press('Escape');
    await modal.getByRole('button', { name: language === 'en' ? 'Cancel' : '取消' }).click();
    await expect(modal).toBeHidden();
  }

  // A strategy without trades: the empty state.
  await useLayout(page, 'zh-CN', 1280);
  await page.goto(`/strategy/${quietAccount}`);
  await page.getByTestId('copy-trade').click();
  await expect(page.getByTestId('copy-simulation')).toHaveAttribute('data-state', 'empty', {
    timeout: 30_000,
  });
  await expect(page.getByTestId('sim-empty')).toContainText('30');
  await page.screenshot({ path: `${screensDir}/copy-simulation-empty-zh-CN-1280.png` });
  await page.keyboard.press('Escape');

  // B copies (coins credited by support) and the copy's page shows simulated beside actual.
  credit(b.email, '200');
  const following = async () =>
    (
      (await (
        await request.get('/api/strategy-square/copy-trading/following/', { headers: auth(b) })
      ).json()) as CopyFollowingResponse
    ).results;
  const accounts = (await (await request.get('/api/auth/apis/', { headers: auth(b) })).json()) as {
    results: { id: number }[];
  };
  const created = await request.post('/api/strategy-square/copy-trading/create/', {
    headers: auth(b),
    data: {
      leader_account_id: leaderAccount,
      follower_account_id: accounts.results[0]?.id,
      copy_amount: '100',
      copy_mode: 'normal',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const copyId = (await following())[0]?.id;
  for (const [language, width] of [
    ['zh-CN', 1280],
    ['en', 375],
  ] as const) {
    await useLayout(page, language, width);
    await page.goto(`/copy-trading/${copyId}`);
    const card = page.getByTestId('copy-sim-vs-actual');
    await expect(card.getByTestId('sim-vs-simulated-return')).toHaveText(/%/, { timeout: 30_000 });
    await expect(card.getByTestId('sim-vs-actual-return')).toHaveText(/%/);
    await expect(card.getByTestId('sim-vs-actual-trades')).toHaveText('0');
    await expectFitsWidth(page, `detail ${language} ${width}`);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screensDir}/copy-sim-vs-actual-${language}-${width}.png` });
  }
});
