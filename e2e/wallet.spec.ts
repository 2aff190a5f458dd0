import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  test,
} from '@playwright/test';
import { expectFitsWidth } from './layout';
import { newCode, outboxIds } from './outbox';
import { signedInUser } from './session';

const screensDir = process.env.E2E_SCREENS_DIR ?? '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const PASSWORD = 'correct-horse-42';
// A well-formed TRC20 address (base58check, starts with T, 34 characters).
const TRC20_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${screensDir}/${name}.png`, fullPage: true });
}

/** Makes a staff user through the admin CLI, which hands the command to the running server. */
function createStaff(email: string, password: string) {
  execFileSync(
    'npm',
    ['run', 'admin', '--', 'create-staff', '--email', email, '--password', password],
    {
      env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '' },
      stdio: 'pipe',
    },
  );
}

/** Signs in over the API (password and an e-mail code from the dev outbox); answers the tokens. */
async function apiLogin(request: APIRequestContext, email: string, password: string) {
  const seen = await outboxIds(request, email);
  const sent = await request.post('/api/auth/send-code/', {
    data: { type: 'email', target: email, action: 'login' },
  });
  expect(sent.ok()).toBe(true);
  const code = await newCode(request, email, seen);
  const answer = await request.post('/api/auth/login/', {
    data: { email, password, email_code: code },
  });
  expect(answer.ok()).toBe(true);
  return (await answer.json()) as { access: string; refresh: string };
}

/** A browser context signed in with these tokens, in the given language. */
async function contextWith(
  browser: Browser,
  tokens: { access: string; refresh: string } | null,
  language: 'zh-CN' | 'en' = 'zh-CN',
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: DESKTOP,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await context.addInitScript(
    ({ tokens, language }) => {
      if (tokens && !localStorage.getItem('access')) {
        localStorage.setItem('access', tokens.access);
        localStorage.setItem('refresh', tokens.refresh);
      }
      if (!localStorage.getItem('qs.language')) localStorage.setItem('qs.language', language);
      localStorage.setItem('qs.welcomeClosedAt', String(Date.now()));
    },
    { tokens, language },
  );
  return context;
}

async function confirm(page: Page, testId: string) {
  await page.getByTestId(testId).click();
  await expect(page.getByTestId(testId)).toHaveCount(0);
}

test('an invitee deposits, staff approve it, the invitee buys VIP and the inviter is rewarded; a failed withdrawal is refunded', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now();

  // The inviter registers; their invitation code comes with the account.
  const inviterEmail = `inviter-${stamp}@example.com`;
  const registered = await request.post('/api/auth/register/', {
    data: { email: inviterEmail, password: PASSWORD, password2: PASSWORD },
  });
  expect(registered.status()).toBe(201);
  const inviter = (await registered.json()) as {
    access: string;
    refresh: string;
    user: { invitation_code: string };
  };
  const code = inviter.user.invitation_code;
  expect(code).not.toBe('');

  // The invitee registers in the browser with the inviter's code.
  const inviteeEmail = `invitee-${stamp}@example.com`;
  const inviteeContext = await contextWith(browser, null);
  const invitee = await inviteeContext.newPage();
  await invitee.goto('/register');
  await invitee.locator('#register_email').fill(inviteeEmail);
  await invitee.locator('#register_password').fill(PASSWORD);
  await invitee.locator('#register_password2').fill(PASSWORD);
  await invitee.locator('#register_invitation_code').fill(code);
  await invitee.getByTestId('register-submit').click();
  await expect(invitee).toHaveURL(/\/my\/security$/);
  await expect(invitee.getByTestId('coin-balance')).toContainText('0.00');

  // The deposit screen: choosing a network shows its address, QR and minimum; copy says so for 2 s.
  await invitee.goto('/deposit');
  await invitee.getByTestId('deposit-submit').click();
  await expect(invitee.getByText('请选择网络').first()).toBeVisible();
  await invitee.getByTestId('deposit-network-TRC20').click();
  const info = invitee.getByTestId('deposit-info');
  await expect(info).toHaveAttribute('data-network', 'TRC20');
  await expect(invitee.getByTestId('deposit-qr')).toBeVisible();
  const address = (await invitee.getByTestId('deposit-address').textContent())?.trim() ?? '';
  expect(address).toMatch(/^T/);
  await invitee.getByTestId('deposit-copy-address').click();
  await expect(invitee.getByTestId('deposit-copy-address')).toContainText('已复制');
  expect(await invitee.evaluate(() => navigator.clipboard.readText())).toBe(address);
  await expect(invitee.getByTestId('deposit-copy-address')).toContainText('复制地址', {
    timeout: 4000,
  });

  // A malformed hash is refused before sending; a good one makes a pending deposit.
  await invitee.getByTestId('deposit-amount').fill('150');
  await invitee.getByTestId('deposit-tx-hash').fill('not-a-hash');
  await invitee.getByTestId('deposit-submit').click();
  await expect(invitee.getByText('交易哈希格式与所选网络不符')).toBeVisible();
  const txHash = randomBytes(32).toString('hex');
  await invitee.getByTestId('deposit-tx-hash').fill(txHash);
  await invitee.getByTestId('deposit-submit').click();
  await expect(invitee.getByText('充值申请已提交', { exact: false })).toBeVisible();
  await expect(invitee.getByTestId('deposit-poll')).toHaveAttribute('data-phase', 'polling');
  const recentDeposit = invitee.getByTestId('recent-deposits-row').first();
  await expect(recentDeposit).toHaveAttribute('data-status', 'pending');
  await shot(invitee, 'deposit-pending-zh-1280');

  // A staff user approves it in the staff page.
  const staffEmail = `staff-${stamp}@example.com`;
  createStaff(staffEmail, PASSWORD);
  const staffContext = await contextWith(browser, await apiLogin(request, staffEmail, PASSWORD));
  const staff = await staffContext.newPage();
  await staff.goto('/staff');
  const depositRow = staff.getByTestId('staff-row').filter({ hasText: inviteeEmail });
  await expect(depositRow).toHaveAttribute('data-status', 'pending');
  await expect(depositRow).toContainText(txHash);
  await depositRow.getByTestId('staff-approve').click();
  await expect(staff.locator('.ant-modal-confirm-title')).toHaveText('确认通过充值？');
  await confirm(staff, 'staff-confirm-ok');
  // Approved requests leave the pending queue; the completed filter shows who decided.
  await expect(depositRow).toHaveCount(0);
  await staff.getByTestId('staff-filter-completed').click();
  await expect(depositRow.getByTestId('staff-decision')).toHaveAttribute('data-action', 'approve');
  await expect(depositRow.getByTestId('staff-decision')).toContainText(staffEmail);
  await shot(staff, 'staff-deposits-zh-1280');

  // The invitee's balance in the top nav rises (the deposit screen polls every 5 s).
  await expect(invitee.getByTestId('coin-balance')).toContainText('150.00', { timeout: 20_000 });
  await expect(invitee.getByTestId('deposit-poll')).toHaveAttribute('data-phase', 'credited');
  await expect(recentDeposit).toHaveAttribute('data-status', 'completed');

  // The invitee buys VIP at the standard price with a confirmation.
  await invitee.goto('/my/profile');
  await expect(invitee.getByTestId('vip-status')).toContainText('未开通');
  await expect(invitee.getByTestId('vip-price')).toContainText('100.00');
  await expect(invitee.getByTestId('vip-promo')).toHaveCount(0);
  await invitee.getByTestId('vip-buy').click();
  await confirm(invitee, 'vip-confirm');
  await expect(invitee.getByText('VIP 会员已开通！')).toBeVisible();
  await expect(invitee.getByTestId('vip-status')).toContainText('已开通');
  await expect(invitee.getByTestId('vip-expires')).toBeVisible();
  await expect(invitee.getByTestId('vip-badge')).toBeVisible();
  await expect(invitee.getByTestId('coin-balance')).toContainText('50.00');
  await expect(invitee.getByTestId('profile-transactions-row').first()).toHaveAttribute(
    'data-type',
    'vip_purchase',
  );

  // The inviter sees the reward and the VIP tag on the referral.
  const inviterContext = await contextWith(browser, inviter);
  const inviterPage = await inviterContext.newPage();
  await inviterPage.goto('/my/profile');
  await expect(inviterPage.getByTestId('invite-code')).toHaveText(code);
  await expect(inviterPage.getByTestId('invite-total-referrals')).toHaveText('1');
  await expect(inviterPage.getByTestId('invite-vip-count')).toHaveText('1');
  await expect(inviterPage.getByTestId('invite-total-rewards')).toContainText('50.00');
  const referral = inviterPage.getByTestId('referral-row').first();
  await expect(referral).toHaveAttribute('data-vip', 'true');
  await expect(referral.getByTestId('referral-tag')).toHaveText('VIP');
  await expect(referral).toContainText(`${inviteeEmail.slice(0, 2)}***@example.com`);
  await expect(inviterPage.getByTestId('coin-balance')).toContainText('50.00');
  await expect(inviterPage.getByTestId('profile-transactions-row').first()).toHaveAttribute(
    'data-type',
    'referral_bonus',
  );
  await shot(inviterPage, 'vip-invitation-inviter-zh-1280');

  // The invitee asks to withdraw 10: the confirmation names amount − 1, the address and network.
  await invitee.goto('/withdraw');
  await expect(invitee.getByTestId('withdraw-balance')).toContainText('50.00');
  await invitee.getByTestId('withdraw-network-TRC20').click();
  await invitee.getByTestId('withdraw-address').fill(TRC20_ADDRESS);
  await invitee.getByTestId('withdraw-amount').fill('60');
  await invitee.getByTestId('withdraw-submit').click();
  await expect(invitee.getByText('提现金额无效')).toBeVisible();
  await invitee.getByTestId('withdraw-amount').fill('10');
  await expect(invitee.getByTestId('withdraw-receive')).toContainText('9.00');
  await invitee.getByTestId('withdraw-submit').click();
  await expect(invitee.getByTestId('withdraw-confirm-text')).toHaveText(
    `确认通过 TRC20 提现 9.00 USDT 到 ${TRC20_ADDRESS}？`,
  );
  await shot(invitee, 'withdraw-confirm-zh-1280');
  await confirm(invitee, 'withdraw-confirm');
  await expect(invitee.getByText('提现申请已提交！')).toBeVisible();
  await expect(invitee.getByTestId('withdraw-balance')).toContainText('40.00');
  await expect(invitee.getByTestId('coin-balance')).toContainText('40.00');
  const recentWithdrawal = invitee.getByTestId('recent-withdrawals-row').first();
  await expect(recentWithdrawal).toHaveAttribute('data-status', 'pending');

  // Staff fail it with a reason: the whole amount is refunded.
  await staff.goto('/staff');
  await staff.getByTestId('staff-tab-withdrawals').click();
  const withdrawalRow = staff.getByTestId('staff-row').filter({ hasText: inviteeEmail });
  await expect(withdrawalRow).toContainText(TRC20_ADDRESS);
  await withdrawalRow.getByTestId('staff-fail').click();
  await staff.getByTestId('staff-decision-ok').click();
  await expect(staff.getByText('请填写原因')).toBeVisible();
  await staff.getByTestId('staff-decision-text').fill('Address on a blocklist');
  await shot(staff, 'staff-fail-modal-zh-1280');
  await staff.getByTestId('staff-decision-ok').click();
  await expect(withdrawalRow).toHaveCount(0);
  await staff.getByTestId('staff-filter-failed').click();
  await expect(withdrawalRow.getByTestId('staff-decision')).toHaveAttribute('data-action', 'fail');
  await expect(withdrawalRow).toContainText('Address on a blocklist');
  await shot(staff, 'staff-withdrawals-zh-1280');

  // The refund appears: the balance is whole again and the withdrawal shows failed with why.
  await invitee.reload();
  await expect(invitee.getByTestId('withdraw-balance')).toContainText('50.00');
  await expect(invitee.getByTestId('coin-balance')).toContainText('50.00');
  await expect(recentWithdrawal).toHaveAttribute('data-status', 'failed');
  await expect(recentWithdrawal.getByTestId('transaction-note')).toHaveText(
    'Address on a blocklist',
  );

  // Every wallet screen in both languages at both widths, fitting the screen.
  const screens: Array<[Page, string, string, string[]]> = [
    [invitee, '/deposit', 'deposit', ['deposit-submit', 'recent-deposits']],
    [invitee, '/withdraw', 'withdraw', ['withdraw-balance', 'recent-withdrawals']],
    [invitee, '/my/settings', 'settings', ['profile-card']],
    [
      inviterPage,
      '/my/profile',
      'vip-invitation',
      ['vip-card', 'referrals', 'profile-transactions'],
    ],
    [staff, '/staff', 'staff', ['staff-tab-deposits']],
  ];
  for (const language of ['zh-CN', 'en'] as const) {
    for (const [page, path, name, ready] of screens) {
      await page.evaluate((lng) => localStorage.setItem('qs.language', lng), language);
      for (const size of [DESKTOP, PHONE]) {
        await page.setViewportSize(size);
        await page.goto(path);
        for (const testId of ready) await expect(page.getByTestId(testId).first()).toBeVisible();
        await expect(page.locator('.ant-skeleton, .qs-spinner, .ant-spin-spinning')).toHaveCount(0);
        await expectFitsWidth(page, `${name} ${language} ${size.width}`);
        await shot(page, `${name}-${language === 'en' ? 'en' : 'zh'}-${size.width}`);
      }
    }
  }

  await Promise.all([inviteeContext.close(), staffContext.close(), inviterContext.close()]);
});

test('profile settings: nickname, bio, avatar checks and upload, a new invitation code', async ({
  page,
  request,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const { email } = await signedInUser(page, request, 'settings');
  await page.goto('/my/settings');
  await expect(page.getByTestId('profile-email')).toHaveText(email);
  for (const stat of ['following', 'followers', 'public-strategies', 'total-copiers']) {
    await expect(page.getByTestId(`profile-stat-${stat}`)).toHaveText('0');
  }

  await page.getByTestId('profile-nickname').fill('Night Owl');
  await page.getByTestId('profile-bio').fill('Trend follower.');
  await expect(page.getByText('15 / 200')).toBeVisible();
  await page.getByTestId('profile-save').click();
  await expect(page.getByText('保存成功')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('profile-nickname')).toHaveValue('Night Owl');
  await expect(page.getByTestId('profile-bio')).toHaveValue('Trend follower.');

  // Files are checked before upload: type first, then size.
  const input = page.getByTestId('profile-avatar-input');
  await input.setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hi'),
  });
  await expect(page.getByText('格式不支持，请选择 JPG、PNG、GIF 或 WebP')).toBeVisible();
  await input.setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  });
  await expect(page.getByText('文件过大，最大 5MB')).toBeVisible();
  // A real PNG (1×1) is uploaded, re-encoded and served from our own uploads.
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );
  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByText('头像已更新')).toBeVisible();
  await expect(page.getByTestId('profile-avatar').locator('img')).toHaveAttribute(
    'src',
    /^\/api\/uploads\//,
  );
  await page.getByTestId('profile-avatar-remove').click();
  await expect(page.getByText('头像已移除')).toBeVisible();
  await expect(page.getByTestId('profile-avatar').locator('img')).toHaveCount(0);

  // A new invitation code replaces the old one after a confirmation; copy puts it on the clipboard.
  // Invitations and VIP live on the VIP invitation page, not in the profile settings.
  await expect(page.getByTestId('invitation-card')).toHaveCount(0);
  await page.goto('/my/profile');
  const oldCode = (await page.getByTestId('invite-code').textContent()) ?? '';
  await page.getByTestId('invite-generate').click();
  await confirm(page, 'invite-generate-confirm');
  await expect(page.getByText('邀请码已生成')).toBeVisible();
  await expect(page.getByTestId('invite-code')).not.toHaveText(oldCode);
  const newCode = (await page.getByTestId('invite-code').textContent()) ?? '';
  await page.getByTestId('invite-copy').click();
  await expect(page.getByTestId('invite-copy')).toContainText('已复制');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newCode);

  // With no coins the VIP card offers the promotional price but cannot be bought.
  await expect(page.getByTestId('vip-promo')).toBeVisible();
  await expect(page.getByTestId('vip-price')).toContainText('1.00');
  await expect(page.getByTestId('vip-buy')).toBeDisabled();
  await expect(page.getByTestId('vip-buy')).toContainText('余额不足');
  await expect(page.getByTestId('vip-deposit-link')).toBeVisible();
  await shot(page, 'settings-new-user-zh-1280');
});

test('a user who is not staff is refused the staff page', async ({ page, request }) => {
  await signedInUser(page, request, 'not-staff');
  await page.goto('/staff');
  await expect(page.getByTestId('staff-refused')).toBeVisible();
  await expect(page.getByText('此页面仅限工作人员访问', { exact: false })).toBeVisible();
});

test('a broken QR image is hidden, and an off-chain deposit asks for its reference', async ({
  page,
  request,
}) => {
  await page.setViewportSize(PHONE);
  await signedInUser(page, request, 'offchain');
  // The TRC20 QR of the real answer is replaced by an image that cannot be decoded.
  await page.route('**/api/auth/deposit/', async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const answer = await route.fetch();
    const networks = (await answer.json()) as Record<string, { qr_code: string }>;
    if (networks.TRC20) networks.TRC20.qr_code = 'data:image/png;base64,AAAA';
    return route.fulfill({ response: answer, json: networks });
  });
  await page.goto('/deposit');
  await page.getByTestId('deposit-network-TRC20').click();
  await expect(page.getByTestId('deposit-address')).toBeVisible();
  await expect(page.getByTestId('deposit-qr')).toHaveCount(0);
  await page.getByTestId('deposit-network-BEP20').click();
  await expect(page.getByTestId('deposit-qr')).toBeVisible();

  await page.getByTestId('deposit-network-OFFCHAIN').click();
  await expect(page.getByTestId('deposit-tx-hash')).toHaveCount(0);
  await expect(page.getByTestId('deposit-qr')).toHaveCount(0);
  const minimum = (await page.getByTestId('deposit-min-amount').textContent()) ?? '';
  await page.getByTestId('deposit-amount').fill('0.5');
  await page.getByTestId('deposit-submit').click();
  await expect(
    page.getByText(`充值金额不能少于 ${minimum.replace(' USDT', '')} USDT`),
  ).toBeVisible();
  await expect(page.getByText('链下充值需填写转账凭证')).toBeVisible();
  await page.getByTestId('deposit-amount').fill('25.5');
  await page.getByTestId('deposit-reference').fill(`BANK-${Date.now()}`);
  await page.getByTestId('deposit-submit').click();
  await expect(page.getByText('充值申请已提交', { exact: false })).toBeVisible();
  const row = page.getByTestId('recent-deposits-row').first();
  await expect(row).toHaveAttribute('data-status', 'pending');
  await expect(row).toContainText('链下转账');
  await expectFitsWidth(page);
  await shot(page, 'deposit-offchain-zh-375');
});
