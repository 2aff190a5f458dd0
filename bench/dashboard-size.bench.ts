// What /dashboard makes the browser download as JavaScript, gzip-compressed (the size that
// crosses the network with compression on), measured in Chromium rather than from the build:
// every finished request for a script, modulepreloads and lazy chunks included, for a visitor
// (with the welcome pop-up) and for a signed-in user (with the bot area and operation log).
import { gzipSync } from 'node:zlib';
import { type Browser, chromium, type Page } from '@playwright/test';
import type { RunningServer } from './server-process.js';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const GOAL_KB = 300;
const STEP_TIMEOUT_MS = 60_000;

export async function benchDashboardSize(server: RunningServer): Promise<string[]> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const visitor = await measure(browser, server, null, async (page) => {
      // The first visit's welcome pop-up opens 1.5 s after load and is part of that load.
      await page.getByTestId('welcome-modal').waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    const tokens = await register(server);
    const member = await measure(browser, server, tokens, async (page) => {
      await page.getByTestId('bot-list').waitFor({ timeout: STEP_TIMEOUT_MS });
      await page.getByTestId('operation-log').waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    return [...report('visitor', visitor), ...report('signed in', member)];
  } finally {
    await browser.close();
  }
}

type Sizes = Map<string, number>;

async function measure(
  browser: Browser,
  server: RunningServer,
  tokens: { access: string; refresh: string } | null,
  shown: (page: Page) => Promise<void>,
): Promise<Sizes> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    if (tokens) {
      await page.addInitScript((saved) => {
        localStorage.setItem('access', saved.access);
        localStorage.setItem('refresh', saved.refresh);
        localStorage.setItem('qs.welcomeClosedAt', new Date().toISOString());
      }, tokens);
    }
    const sizes: Sizes = new Map();
    const pending: Promise<void>[] = [];
    // Every finished request whose answer is JavaScript, whatever Chromium calls its type
    // (`script` for imports and modulepreloads, `other` for a worker).
    page.on('requestfinished', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.resourceType() !== 'script' && !/\.m?js$/.test(path)) return;
      pending.push(
        (async () => {
          const body = await (await request.response())?.body().catch(() => undefined);
          if (body) sizes.set(path, gzipSync(body, { level: 9 }).length);
        })(),
      );
    });
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.locator('canvas').first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await page.getByTestId('market-status').waitFor({ timeout: STEP_TIMEOUT_MS });
    await shown(page);
    await page.waitForLoadState('networkidle');
    await Promise.all(pending);
    return sizes;
  } finally {
    await context.close();
  }
}

async function register(server: RunningServer): Promise<{ access: string; refresh: string }> {
  const password = 'bench-dashboard-42';
  const answer = await fetch(`${server.baseUrl}/api/auth/register/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: `bench-dashboard-${Date.now()}@example.com`,
      password,
      password2: password,
    }),
  });
  if (answer.status !== 201) throw new Error(`registration answered ${answer.status}`);
  return (await answer.json()) as { access: string; refresh: string };
}

function report(who: string, sizes: Sizes): string[] {
  const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  const lines = [
    `JavaScript loaded by /dashboard, ${who}: ${(total / 1024).toFixed(1)} KB gzip in ${sizes.size} files (goal ≤ ${GOAL_KB} KB)`,
  ];
  for (const [path, size] of [...sizes].sort((a, b) => b[1] - a[1])) {
    lines.push(`  ${(size / 1024).toFixed(1).padStart(6)} KB  ${path}`);
  }
  return lines;
}
