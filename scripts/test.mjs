#!/usr/bin/env node
// `npm test`: every suite — Vitest (unit, service and HTTP tests of every package) and the
// Playwright browser tests — then one closing line `N passed, N failed` summing them all.
// Database tests use TEST_DATABASE_URL (PostgreSQL) when it is set, else embedded PGlite.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, '.test-output');
const chromium = '/usr/bin/chromium';

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

function run(command, args, env = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return result.status ?? 1;
}

/** Like run(), and also keeps what the command printed (to repeat its failures at the end). */
function runCapturing(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env: process.env,
      stdio: ['inherit', 'pipe', 'pipe'],
    });
    const chunks = [];
    const forward = (stream, target) =>
      stream.on('data', (chunk) => {
        chunks.push(chunk);
        target.write(chunk);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on('close', (code) =>
      resolve({ status: code ?? 1, output: Buffer.concat(chunks).toString('utf8') }),
    );
  });
}

/**
 * Vitest's failure and unhandled-error sections, without colours, so that the end of the log
 * (all that a CI summary may keep) says what failed even after the browser tests' output.
 */
function failureSections(output) {
  const lines = stripVTControlCharacters(output).split('\n');
  const start = lines.findIndex((line) => /Failed Tests \d+|Unhandled Errors/.test(line));
  if (start < 0) return '';
  const end = lines.findIndex((line, i) => i > start && /^\s*Test Files\s/.test(line));
  const section = lines.slice(start, end < 0 ? undefined : end);
  const limit = 80;
  const shown = section.slice(0, limit).join('\n');
  return section.length > limit
    ? `${shown}\n… (${section.length - limit} more lines above in the log)\n`
    : `${shown}\n`;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

// The browser tests drive Debian's Chromium; install it when this machine has none.
if (!existsSync(chromium)) {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) {
    process.stdout.write('Installing Chromium for the browser tests…\n');
    run('sh', ['-c', 'apt-get update && apt-get install -y chromium']);
  } else {
    process.stdout.write(`${chromium} is missing: run \`sudo apt-get install -y chromium\`.\n`);
  }
}

const suites = [];

const minutesSince = (startMs) => `${((Date.now() - startMs) / 60_000).toFixed(1)} min`;

const vitestJson = join(outDir, 'vitest.json');
const vitestStart = Date.now();
const vitestRun = await runCapturing('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
const vitestStatus = vitestRun.status;
const vitest = readJson(vitestJson);
suites.push({
  name: 'vitest',
  time: minutesSince(vitestStart),
  passed: vitest?.numPassedTests ?? 0,
  // A crash before the report counts as one failure so the run can never look green.
  failed: vitest
    ? vitest.numFailedTests + (vitestStatus !== 0 && !vitest.numFailedTests ? 1 : 0)
    : 1,
});

const playwrightJson = join(outDir, 'playwright.json');
const playwrightStart = Date.now();
const playwrightStatus = run('npx', ['playwright', 'test', '--reporter=list,json'], {
  PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson,
});
const playwright = readJson(playwrightJson);
const stats = playwright?.stats;
suites.push({
  name: 'playwright',
  time: minutesSince(playwrightStart),
  passed: stats ? stats.expected + stats.flaky : 0,
  failed: stats ? stats.unexpected + (playwrightStatus !== 0 && !stats.unexpected ? 1 : 0) : 1,
});

if (vitestStatus !== 0) {
  const sections = failureSections(vitestRun.output);
  if (sections) process.stdout.write(`\nVitest failures, repeated:\n${sections}\n`);
}

const passed = suites.reduce((sum, s) => sum + s.passed, 0);
const failed = suites.reduce((sum, s) => sum + s.failed, 0);
for (const s of suites) {
  process.stdout.write(`${s.name}: ${s.passed} passed, ${s.failed} failed (${s.time})\n`);
}
process.stdout.write(`${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
