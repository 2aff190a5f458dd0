import { mkdirSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import type { Bot, BotList, OperationLogEntry, OperationLogList } from '@quantsquare/contracts';
import { expectFitsWidth } from './layout';
import { signedInUser } from './session';

const screensDir = '.test-output/screens';
mkdirSync(screensDir, { recursive: true });

// A bot holding a position and its log, as the server answers them once an entry has filled
// (the server's own tests cover how it gets there; a paper bot cannot be made to trade on cue).
// These answers check how the screens show the figures: prices with 2 decimals, amounts by size
// (≥ 1000: 2, ≥ 1: 4, else 8), money with 2 (document 1 §9).
const ENTRY_PRICE = 3285.422784;
const AMOUNT = 0.0304;

const bot = {
  id: 41,
  symbol: 'ETH/USDT:USDT',
  exchange: 'binance',
  exchange_api: 7,
  exchange_api_name: 'Paper desk',
  account_type: 'classic',
  position_mode: 'hedge',
  is_paper: true,
  strategy: 1,
  strategy_type: 'ma_cross',
  strategy_name: 'MA Cross',
  strategy_parameters: { fast_period: 7, slow_period: 25 },
  timeframe: '1h',
  trade_amount: '100',
  stop_loss_percentage: 5,
  take_profit_percentage: 5,
  status: 'running',
  can_start: true,
  data_fresh: true,
  total_trades: 1,
  winning_trades: 0,
  losing_trades: 0,
  win_rate: 0,
  total_profit_loss: '0',
  last_error: null,
  last_error_at: null,
  last_trade_at: '2026-11-21T02:00:00.000Z',
  open_positions: [
    {
      id: 3,
      side: 'long',
      amount: String(AMOUNT),
      entry_price: String(ENTRY_PRICE),
      stop_loss: '3121.1516448',
      take_profit: '3449.6939232',
      unrealized_pnl: '1.234567',
      unrealized_pnl_percentage: 1.2345,
    },
  ],
  created_at: '2026-11-21T01:00:00.000Z',
} satisfies Bot;

const logEntry = (
  id: number,
  type: OperationLogEntry['type'],
  event: OperationLogEntry['event'],
  details: Record<string, unknown>,
  message: string,
): OperationLogEntry => ({
  id,
  type,
  bot_id: bot.id,
  bot_symbol: bot.symbol,
  event,
  message,
  details,
  created_at: `2026-11-21T0${id}:00:00.000Z`,
});

const logs: OperationLogList = {
  results: [
    logEntry(
      3,
      'trade',
      'trade_closed',
      {
        side: 'long',
        asset: 'ETH',
        amount: 1234.56789,
        price: 3301.987654,
        reason: 'take_profit',
        pnl: 12.3456,
      },
      'Closed long 1234.56789 ETH at 3301.987654 (take_profit)',
    ),
    logEntry(
      2,
      'trade',
      'trade_opened',
      { side: 'long', asset: 'ETH', amount: AMOUNT, price: ENTRY_PRICE },
      `Opened long ${AMOUNT} ETH at ${ENTRY_PRICE}`,
    ),
    logEntry(
      1,
      'user_action',
      'bot_created',
      { timeframe: '1h', trade_amount: 100 },
      'Created bot ETH/USDT:USDT (1h, 100 USDT)',
    ),
  ],
  count: 3,
  page: 1,
  page_size: 20,
};

async function withServerAnswers(page: Page) {
  await page.route('**/api/trading/logs/**', (route) => route.fulfill({ json: logs }));
  await page.route('**/api/trading/bots/', (route) =>
    route.request().method() === 'GET'
      ? route.fulfill({ json: { results: [bot], count: 1 } satisfies BotList })
      : route.continue(),
  );
}

test('the operation log is stacked cards at 375 px, with figures by the spec rules', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signedInUser(page, request, 'figures');
  await withServerAnswers(page);
  await page.goto('/dashboard');

  const log = page.getByTestId('operation-log');
  await expect(log.getByTestId('operation-log-cards')).toBeVisible({ timeout: 20_000 });
  await expect(log.locator('table')).toHaveCount(0);
  const rows = log.getByTestId('operation-log-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('已开多 0.03040000 ETH，成交价 3,285.42');
  await expect(rows.nth(0)).toContainText('已平多 1,234.57 ETH，成交价 3,301.99（止盈）');
  await expect(rows.nth(0).getByTestId('operation-log-pnl')).toHaveText('12.35');
  await expect(rows.nth(2)).toContainText('创建机器人 ETH/USDT:USDT（1h，100.00 USDT）');
  await expect(log).not.toContainText('3285.422784');

  // Every card fits the phone: nothing cut off or scrolled sideways.
  for (const row of await rows.all()) {
    const box = await row.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
  }
  await expectFitsWidth(page);

  // The bot holding the position: its trade, last trade time and prices.
  const card = page.locator('[data-testid="bot-row"][data-symbol="ETH/USDT:USDT"]');
  await expect(card).toContainText('3,285.42');
  await expect(card).toContainText('3,121.15 / 3,449.69');
  await expect(card).toContainText('0.03040000');
  await expect(card).toContainText('2026-11-21 10:00:00');
  await expect(card).not.toContainText('3285.422784');
  await log.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screensDir}/operation-log-375.png`, fullPage: true });
});

test('the operation log is a table at 1280 px, with the same figures in English', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.addInitScript(() => localStorage.setItem('qs.language', 'en'));
  await signedInUser(page, request, 'figures-en');
  await withServerAnswers(page);
  await page.goto('/dashboard');

  const log = page.getByTestId('operation-log');
  await expect(log.locator('table')).toBeVisible({ timeout: 20_000 });
  const rows = log.getByTestId('operation-log-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('Opened long 0.03040000 ETH at 3,285.42');
  await expect(rows.nth(0)).toContainText('12.35');
  const card = page.locator('[data-testid="bot-row"][data-symbol="ETH/USDT:USDT"]');
  await expect(card).toContainText('3,285.42');
  await log.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screensDir}/operation-log-en-1280.png`, fullPage: true });
});

test('the operation log pages through the server pages, with its total', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.addInitScript(() => localStorage.setItem('qs.language', 'en'));
  await signedInUser(page, request, 'log-pages');
  const TOTAL = 45;
  await page.route('**/api/trading/logs/**', (route) => {
    const at = Number(new URL(route.request().url()).searchParams.get('page') ?? '1');
    const first = (at - 1) * 20;
    const results = Array.from({ length: Math.min(20, TOTAL - first) }, (_, i) => ({
      ...logEntry(1, 'system', 'bot_started', {}, `Entry ${first + i + 1}`),
      id: first + i + 1,
      event: null,
    }));
    return route.fulfill({ json: { results, count: TOTAL, page: at, page_size: 20 } });
  });
  await page.goto('/dashboard');

  const log = page.getByTestId('operation-log');
  const rows = log.getByTestId('operation-log-row');
  await expect(rows).toHaveCount(20, { timeout: 20_000 });
  const pager = log.getByTestId('operation-log-pager');
  await expect(pager).toContainText('45 entries');
  await expect(pager.getByTestId('operation-log-pager-page')).toHaveText('Page 1 of 3');
  await expect(pager.getByTestId('operation-log-pager-previous')).toBeDisabled();
  await pager.getByTestId('operation-log-pager-next').click();
  await pager.getByTestId('operation-log-pager-next').click();
  await expect(pager.getByTestId('operation-log-pager-page')).toHaveText('Page 3 of 3');
  await expect(rows).toHaveCount(5);
  await expect(rows.first()).toContainText('Entry 41');
  await expect(pager.getByTestId('operation-log-pager-next')).toBeDisabled();
  await log.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screensDir}/operation-log-pages-en-1280.png` });
});
