import { expect, type Page, test } from '@playwright/test';
import { chooseOption } from './antd';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

// Walk-forward optimisation in the browser: a small grid runs to the end with its progress,
// results table and heat map, and "Use these parameters" fills the bot form, whose bot then
// runs exactly the best parameters.

interface Answer {
  status: string;
  best: { parameters: Record<string, number> } | null;
  results: unknown[];
}

async function runSmallGrid(page: Page) {
  await expect(page.getByTestId('optimise-axis-fast_period-vary')).toBeVisible();
  await page.getByTestId('optimise-in-sample').fill('200');
  await page.getByTestId('optimise-out-of-sample').fill('100');
  await page.getByTestId('optimise-step').fill('200');
  await expect(page.getByTestId('optimise-combination-count')).toContainText('9');
  await page.getByTestId('optimise-start').click();
  await expect(page).toHaveURL(/run=\d+/);
  await expect(page.getByTestId('optimise-progress')).toBeVisible();
}

test('optimises a small grid, shows the results and hands the best parameters to the bot form', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const { access } = await signedInUser(page, request, 'optimise');
  const headers = { authorization: `Bearer ${access}` };
  const account = await request.post('/api/auth/apis/', {
    headers,
    data: { name: 'Optimised desk', exchange: 'binance', is_paper: true, default_leverage: 2 },
  });
  expect(account.status()).toBe(201);

  // Reached from the sidebar of the account area.
  await page.goto('/my/strategy-builder');
  await page.getByTestId('my-sidebar').getByText('参数优化').click();
  await expect(page).toHaveURL(/\/my\/optimise/);
  await expect(page.getByText('参数优化（滚动窗口）')).toBeVisible();
  await runSmallGrid(page);

  await expect(page.getByTestId('optimise-status')).toHaveText('已完成', { timeout: 60_000 });
  await expect(page.getByTestId('optimise-progress')).toHaveAttribute('aria-valuenow', '100');
  const runId = Number(new URL(page.url()).searchParams.get('run'));
  const answer = (await (
    await request.get(`/api/trading/optimisations/${runId}/`, { headers })
  ).json()) as Answer;
  expect(answer.status).toBe('completed');
  expect(answer.results).toHaveLength(9);
  const best = answer.best?.parameters ?? {};
  await expect(page.getByTestId('optimise-table').locator('tbody tr.ant-table-row')).toHaveCount(9);
  await expect(page.getByTestId('optimise-heat-map').locator('tbody tr')).toHaveCount(3);
  // The parameters are named in the reader's language.
  const zhNames: Record<string, string> = { fast_period: '快线周期', slow_period: '慢线周期' };
  for (const [name, value] of Object.entries(best)) {
    await expect(page.getByTestId('optimise-best-parameters')).toContainText(
      `${zhNames[name] ?? name} = ${value}`,
    );
  }
  await page.screenshot({ path: 'test-results/optimise-zh-1280.png', fullPage: true });

  await page.getByTestId('optimise-use').click();
  await expect(page.getByText('配置交易机器人')).toBeVisible();
  const parameters = page.getByTestId('bot-form-parameters');
  await expect(parameters).toBeVisible();
  for (const [name, value] of Object.entries(best)) {
    await expect(parameters).toContainText(`${zhNames[name] ?? name} = ${value}`);
  }
  await chooseOption(page, 'bot-form-account', 'Optimised desk');
  await page.screenshot({ path: 'test-results/optimise-bot-form-zh-1280.png' });
  await page.getByTestId('bot-form-submit').click();
  await expect
    .poll(async () => {
      const bots = (await (await request.get('/api/trading/bots/', { headers })).json()) as {
        results: { strategy_type: string; strategy_parameters: Record<string, number> }[];
      };
      return bots.results[0]?.strategy_parameters;
    })
    .toEqual(best);

  await page.setViewportSize({ width: 375, height: 812 });
  await page.screenshot({ path: 'test-results/optimise-zh-375.png', fullPage: true });
});

test('the optimisation page speaks English and fits a phone', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.addInitScript(() => localStorage.setItem('qs.language', 'en'));
  await signedInUser(page, request, 'optimise-en');
  await page.goto('/my/optimise');
  await expect(page.getByText('Parameter optimisation (walk-forward)')).toBeVisible();
  await runSmallGrid(page);
  await expect(page.getByTestId('optimise-status')).toHaveText('Completed', { timeout: 60_000 });
  await expect(page.getByTestId('optimise-use')).toHaveText('Use these parameters');
  await expectFitsWidth(page);
  await page.screenshot({ path: 'test-results/optimise-en-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: 'test-results/optimise-en-1280.png', fullPage: true });
});
