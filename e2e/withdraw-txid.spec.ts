import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { giveCoins, staffSession } from './coins';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

// The payout's TxID (issue item 25): staff enter it when they complete a withdrawal; the user
// sees it on the withdrawal, linked to the network's explorer (TRC20 tronscan, BEP20 bscscan).

const screensDir = process.env.E2E_SCREENS_DIR ?? '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

const LAYOUTS = [
  ['zh-CN', 1280],
  ['zh-CN', 375],
  ['en', 1280],
  ['en', 375],
] as const;
const LABEL = { 'zh-CN': '出款 TxID', en: 'Payout TxID' } as const;
const auth = (access: string) => ({ authorization: `Bearer ${access}` });

async function useLayout(page: Page, language: string, width: number) {
  await page.evaluate((lang) => localStorage.setItem('qs.language', lang), language);
  await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
}

test('a completed withdrawal shows its payout TxID linked to the explorer', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const user = await signedInUser(page, request, 'txid');
  const staff = await staffSession(request);
  await giveCoins(request, user.access, '50', staff);

  const trcHash = randomBytes(32).toString('hex');
  const bepHash = `0x${randomBytes(32).toString('hex')}`;
  const payouts = [
    ['TRC20', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', trcHash],
    ['BEP20', `0x${'ab'.repeat(20)}`, bepHash],
  ] as const;
  const ids: number[] = [];
  for (const [network, address, hash] of payouts) {
    const asked = await request.post('/api/auth/withdraw/', {
      headers: auth(user.access),
      data: { amount: '10', address, network },
    });
    expect(asked.status(), await asked.text()).toBe(201);
    const id = ((await asked.json()) as { transaction: { id: number } }).transaction.id;
    ids.push(id);
    const done = await request.post(`/api/staff/withdrawals/${id}/complete/`, {
      headers: auth(staff),
      data: { tx_hash: hash },
    });
    expect(done.ok(), await done.text()).toBe(true);
  }
  // A third one still pending has no TxID yet.
  const pending = await request.post('/api/auth/withdraw/', {
    headers: auth(user.access),
    data: { amount: '10', address: payouts[0][1], network: 'TRC20' },
  });
  expect(pending.status()).toBe(201);

  await page.goto('/withdraw');
  for (const [language, width] of LAYOUTS) {
    await useLayout(page, language, width);
    await page.goto('/withdraw');
    const rows = page.getByTestId('recent-withdrawals-row');
    await expect(rows).toHaveCount(3);
    // The pending one has no TxID yet; each completed one links its hash to its explorer.
    await expect(
      page
        .locator('[data-testid="recent-withdrawals-row"][data-status="pending"]')
        .getByTestId('withdraw-txid'),
    ).toHaveCount(0);
    const bep = page.locator(`[data-testid="withdraw-txid"][title="${bepHash}"]`);
    await expect(bep).toHaveAttribute('href', `https://bscscan.com/tx/${bepHash}`);
    await expect(bep).toHaveAttribute('target', '_blank');
    const trc = page.locator(`[data-testid="withdraw-txid"][title="${trcHash}"]`);
    await expect(trc).toHaveAttribute('href', `https://tronscan.org/#/transaction/${trcHash}`);
    await expect(trc).toHaveText(`${trcHash.slice(0, 8)}…${trcHash.slice(-6)}`);
    await expect(
      page.locator('[data-testid="recent-withdrawals-row"][data-status="completed"]'),
    ).toHaveCount(2);
    await expect(
      page.locator('[data-testid="recent-withdrawals-row"][data-status="completed"]').first(),
    ).toContainText(LABEL[language]);
    await expectFitsWidth(page);
    await page.screenshot({
      path: `${screensDir}/withdraw-txid-${language}-${width}.png`,
      fullPage: true,
    });
  }
});
