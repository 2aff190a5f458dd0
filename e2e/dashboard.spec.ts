import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { chooseOption } from './antd';
import { expectFitsWidth } from './layout';

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

async function chartState(page: Page) {
  const chart = page.getByTestId('candle-chart');
  return {
    count: Number(await chart.getAttribute('data-candle-count')),
    first: Number(await chart.getAttribute('data-first-time')),
    last: Number(await chart.getAttribute('data-last-time')),
    markers: Number(await chart.getAttribute('data-marker-count')),
  };
}

/** Pixels of the chart's canvases in the candles' red or green: zero when nothing is drawn. */
async function candlePixels(page: Page) {
  return page.getByTestId('candle-chart').evaluate((chart) => {
    let count = 0;
    for (const canvas of chart.querySelectorAll('canvas')) {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0 || canvas.height === 0) continue;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) {
        const [r = 0, g = 0, b = 0] = [data[i], data[i + 1], data[i + 2]];
        if ((r > 150 && g < 120 && b < 120) || (g > 130 && r < 120)) count++;
      }
    }
    return count;
  });
}

test('a visitor sees candles, signals and a backtest, and the chart follows symbol and timeframe', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard');

  // The welcome modal appears once (1.5 s after the page's code has loaded, which takes its own
  // time on a busy machine); closing it is remembered on this device.
  await expect(page.getByTestId('welcome-modal')).toBeVisible({ timeout: 20_000 });
  await page.getByTestId('welcome-modal').getByRole('button').first().click();
  await expect(page.getByTestId('welcome-modal')).toBeHidden();

  const chart = page.getByTestId('candle-chart');
  await expect(chart).toHaveAttribute('data-candle-count', /^[1-9]\d*$/, { timeout: 20_000 });
  const ethHourly = await chartState(page);
  expect(ethHourly.count).toBeGreaterThan(100);
  expect(ethHourly.markers).toBeGreaterThan(0);
  // One hour between candles on the default 1h timeframe.
  expect((ethHourly.last - ethHourly.first) / (ethHourly.count - 1)).toBe(3_600_000);
  await expect(page.getByTestId('dashboard-source')).toHaveAttribute('data-source', 'simulated');

  const summary = page.getByTestId('backtest-summary');
  await expect(summary.getByTestId('backtest-initial')).toContainText('10,000');
  await expect(summary.getByTestId('backtest-final')).toContainText(/\d/);
  await expect(summary.getByTestId('backtest-return')).toContainText('%');
  await expect(summary.getByTestId('backtest-drawdown')).toContainText('%');
  await expect(summary.getByTestId('backtest-winrate')).toContainText('%');
  await expect(page.getByTestId('equity-chart')).toBeVisible();
  await expect(
    page.getByTestId('visitor-prompt').or(page.getByTestId('dashboard-visitor')),
  ).toBeVisible();
  await page.screenshot({ path: `${screensDir}/dashboard-1280.png`, fullPage: true });

  // Another symbol: different prices, same number of candles.
  const firstClose = await chart.getAttribute('data-last-close');
  await chooseOption(page, 'dashboard-symbol', 'BTC/USDT:USDT');
  await expect(chart).not.toHaveAttribute('data-last-close', firstClose ?? '', { timeout: 20_000 });

  // Another timeframe: candles four hours apart.
  await chooseOption(page, 'dashboard-timeframe', '4h');
  await expect
    .poll(
      async () => {
        const state = await chartState(page);
        return (state.last - state.first) / (state.count - 1);
      },
      { timeout: 20_000 },
    )
    .toBe(4 * 3_600_000);

  // Turning a phone or narrowing the window redraws the chart instead of leaving it empty.
  expect(await candlePixels(page)).toBeGreaterThan(500);
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => candlePixels(page), { timeout: 5000 }).toBeGreaterThan(500);
  await page.setViewportSize({ width: 1280, height: 900 });

  // The dismissed welcome modal stays closed after a reload.
  await page.reload();
  await expect(chart).toHaveAttribute('data-candle-count', /^[1-9]\d*$/, { timeout: 20_000 });
  await page.waitForTimeout(2000);
  await expect(page.getByTestId('welcome-modal')).toHaveCount(0);
});

test('the dashboard fits a 375 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.addInitScript(() => {
    // A visitor who already closed the welcome modal.
    localStorage.setItem('qs.welcomeClosedAt', String(Date.now()));
  });
  await page.goto('/dashboard');
  await expect(page.getByTestId('candle-chart')).toHaveAttribute(
    'data-candle-count',
    /^[1-9]\d*$/,
    {
      timeout: 20_000,
    },
  );
  await expect(page.getByTestId('backtest-summary')).toBeVisible();
  await expectFitsWidth(page);
  await page.screenshot({ path: `${screensDir}/dashboard-375.png`, fullPage: true });
});
