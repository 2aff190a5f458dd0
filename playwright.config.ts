import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_CODE_COOLDOWN_SECONDS } from './e2e/timers';

// The browser tests run the product exactly as `npm start` does — built SPA, API and workers in
// one process on a fresh embedded database — and drive Debian's Chromium (no browser download).
const port = Number(process.env.E2E_PORT ?? 8300);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'qs-e2e-'));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  // Two browsers share the one server: most of a browser test's time is waiting on the page or
  // the server, so a second worker fills it (E2E_WORKERS overrides).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 10_000 },
  forbidOnly: true,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The pages follow the device's reduced-motion setting (antd's animations are off): no test
    // waits on a modal's or a drawer's animation, and Chromium draws far fewer frames. Specs that
    // check the animated pages ask for motion themselves.
    reducedMotion: 'reduce',
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Fewer processes talking to each other: the compositor's GPU thread in the browser
        // process, and one renderer per site rather than per frame (the tests use one origin).
        // Each message between processes costs a system call; on a small sandboxed machine this
        // took the copy-trading spec from 124 to 110 CPU-s.
        '--in-process-gpu',
        '--disable-features=site-per-process,IsolateOrigins',
        '--renderer-process-limit=2',
      ],
    },
    // Traces are recorded only when asked for (E2E_TRACE=1: a failed test keeps its trace, every
    // action with the page's DOM before and after). Recording them for every test cost about a
    // fifth of the suite's CPU (the runner, the browser and its snapshots: 150 → 123 CPU-s for
    // the copy-trading spec), and the browser tests are bound by CPU. A failure always keeps its
    // final screenshot. The screencast stays off either way: it doubled Chromium's CPU.
    trace: process.env.E2E_TRACE
      ? { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true }
      : 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: 'node scripts/start.mjs',
    url: `http://127.0.0.1:${port}/api/health/`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      MARKET_DATA: 'simulated',
      // The browser tests run on the embedded database, as `npm start` does.
      DATABASE_URL: '',
      CODE_COOLDOWN_SECONDS: String(E2E_CODE_COOLDOWN_SECONDS),
    },
  },
});
