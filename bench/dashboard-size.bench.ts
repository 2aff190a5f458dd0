// What /dashboard makes the browser download as JavaScript, gzip-compressed (the size that
// crosses the network with compression on), measured in Chromium rather than from the build.
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
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

export async function benchDashboardSize(server: RunningServer): Promise<string[]> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const scripts = new Map<string, number>();
    page.on('response', async (response) => {
      const url = response.url();
      if (response.request().resourceType() !== 'script') return;
      const body = await response.body().catch(() => undefined);
      if (body) scripts.set(url, gzipSync(body, { level: 9 }).length);
    });
    await page.goto(`${server.baseUrl}/dashboard`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(2000);
    const total = [...scripts.values()].reduce((sum, size) => sum + size, 0);
    const lines = [
      `JavaScript loaded by /dashboard: ${(total / 1024).toFixed(1)} KB gzip in ${scripts.size} files (goal < 300 KB)`,
    ];
    for (const [url, size] of [...scripts].sort((a, b) => b[1] - a[1])) {
      lines.push(`  ${(size / 1024).toFixed(1).padStart(6)} KB  ${new URL(url).pathname}`);
    }
    return lines;
  } finally {
    await browser.close();
  }
}
