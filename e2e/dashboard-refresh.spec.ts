import { expect, type Page, test } from '@playwright/test';
import { CHART_INITIAL_VIEW_CANDLES, CHART_REFRESH_MS } from '@quantsquare/contracts';

// The candle colours of packages/web/src/shared/charts/palette.ts.
const CANDLE_COLOURS = ['#26a69a', '#ef5350'];
// lightweight-charts draws each candle as three rectangles: the wick above and below the body,
// and the body.
const RECTS_PER_CANDLE = 3;

/**
 * Counts, per canvas, what the chart draws: the candle rectangles since the canvas was last
 * cleared, and how often it was cleared. lightweight-charts starts every full paint of a pane
 * by filling it with the background in 'copy' mode; the candles drawn since then are the ones
 * on screen.
 */
function recordCanvasDrawing(candleColours: string[]) {
  type Drawing = { rectsSinceClear: number; clears: number };
  const drawings = new WeakMap<HTMLCanvasElement, Drawing>();
  const drawingOf = (canvas: HTMLCanvasElement) => {
    let drawing = drawings.get(canvas);
    if (!drawing) {
      drawing = { rectsSinceClear: 0, clears: 0 };
      drawings.set(canvas, drawing);
    }
    return drawing;
  };
  const colours = new Set(candleColours);
  const fillRect = CanvasRenderingContext2D.prototype.fillRect;
  CanvasRenderingContext2D.prototype.fillRect = function (x, y, w, h) {
    const canvas = this.canvas;
    if (canvas instanceof HTMLCanvasElement) {
      const drawing = drawingOf(canvas);
      const coversCanvas = w >= canvas.width && h >= canvas.height;
      if (this.globalCompositeOperation === 'copy' && coversCanvas) {
        drawing.rectsSinceClear = 0;
        drawing.clears++;
      } else if (typeof this.fillStyle === 'string' && colours.has(this.fillStyle)) {
        drawing.rectsSinceClear++;
      }
    }
    return fillRect.call(this, x, y, w, h);
  };
  const clearRect = CanvasRenderingContext2D.prototype.clearRect;
  CanvasRenderingContext2D.prototype.clearRect = function (x, y, w, h) {
    const canvas = this.canvas;
    if (canvas instanceof HTMLCanvasElement && w >= canvas.width && h >= canvas.height) {
      const drawing = drawingOf(canvas);
      drawing.rectsSinceClear = 0;
      drawing.clears++;
    }
    return clearRect.call(this, x, y, w, h);
  };
  (window as unknown as { qsCanvasDrawing: (c: HTMLCanvasElement) => Drawing }).qsCanvasDrawing = (
    canvas,
  ) => ({ ...drawingOf(canvas) });
}

/** The candle pane's drawing: the canvas of the candle chart that draws candles. */
async function candlePane(page: Page) {
  return page.getByTestId('candle-chart').evaluate((chart) => {
    const read = (
      window as unknown as {
        qsCanvasDrawing: (c: HTMLCanvasElement) => { rectsSinceClear: number; clears: number };
      }
    ).qsCanvasDrawing;
    const panes = [...chart.querySelectorAll('canvas')]
      .map((canvas) => read(canvas))
      .filter((drawing) => drawing.rectsSinceClear > 0);
    return {
      panes: panes.length,
      rectsSinceClear: panes[0]?.rectsSinceClear ?? 0,
      clears: panes[0]?.clears ?? 0,
    };
  });
}

test('the candle chart draws each candle once, also after its automatic refresh', async ({
  page,
}) => {
  // The page's clock is Playwright's: the test jumps over the 30 s refresh instead of waiting.
  await page.clock.install();
  await page.addInitScript(recordCanvasDrawing, CANDLE_COLOURS);
  await page.addInitScript(() => localStorage.setItem('qs.welcomeClosedAt', String(Date.now())));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard');

  const chart = page.getByTestId('candle-chart');
  await expect(chart).toHaveAttribute('data-candle-count', /^[1-9]\d*$/, { timeout: 20_000 });
  const candleCount = Number(await chart.getAttribute('data-candle-count'));
  expect(candleCount).toBeGreaterThan(CHART_INITIAL_VIEW_CANDLES);

  // The first view shows the last 100 candles (a partly visible one at each edge may be drawn).
  const drawnCandles = async () => {
    const pane = await candlePane(page);
    expect(pane.panes).toBe(1);
    return pane.rectsSinceClear / RECTS_PER_CANDLE;
  };
  // A loaded machine may paint the first view some seconds after the data arrived: until the
  // one pane has drawn, nothing counts (a callback that threw would end the poll at once).
  const paintedInOnePane = async () => {
    const pane = await candlePane(page);
    return pane.panes === 1 ? pane.rectsSinceClear / RECTS_PER_CANDLE : -1;
  };
  await expect
    .poll(paintedInOnePane, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(CHART_INITIAL_VIEW_CANDLES);
  expect(await drawnCandles()).toBeLessThanOrEqual(CHART_INITIAL_VIEW_CANDLES + 2);

  // Let the dashboard run past its first automatic refresh (market data every 30 s).
  const clearsBeforeRefresh = (await candlePane(page)).clears;
  const refreshing = page.waitForResponse(
    (response) =>
      response.url().includes('/api/trading/market-data/') && response.request().method() === 'GET',
    { timeout: 30_000 },
  );
  await page.clock.fastForward(CHART_REFRESH_MS);
  const refreshed = await refreshing;
  expect(refreshed.ok()).toBe(true);
  // The refreshed data is painted (a full paint clears the pane first)…
  await expect
    .poll(async () => (await candlePane(page)).clears, { timeout: 30_000 })
    .toBeGreaterThan(clearsBeforeRefresh);
  await page.waitForTimeout(1000);

  // …and the pane holds one drawing of the same view: each candle once, not twice.
  const after = await drawnCandles();
  expect(after).toBeGreaterThanOrEqual(CHART_INITIAL_VIEW_CANDLES);
  expect(after).toBeLessThanOrEqual(CHART_INITIAL_VIEW_CANDLES + 2);
  expect(Number.isInteger(after)).toBe(true);
  await expect(chart).toHaveAttribute('data-candle-count', String(candleCount));

  // Scrolling the chart repaints it cleanly too.
  const box = await chart.boundingBox();
  if (!box) throw new Error('candle chart has no box');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await page.waitForTimeout(500);
  expect(await drawnCandles()).toBeLessThanOrEqual(CHART_INITIAL_VIEW_CANDLES + 2);
});
