// Runs `drizzle-kit generate` for this package. npm keeps drizzle-orm in this package's
// node_modules while drizzle-kit is hoisted to the root, and drizzle-kit imports drizzle-orm
// from its own location; so both are linked side by side in a temp dir and drizzle-kit runs
// from there with symlinks preserved.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function findPackage(name) {
  for (let dir = packageDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed`);
  }
}

const temp = mkdtempSync(path.join(tmpdir(), 'qs-drizzle-kit-'));
try {
  mkdirSync(path.join(temp, 'node_modules'));
  for (const name of ['drizzle-kit', 'drizzle-orm']) {
    symlinkSync(findPackage(name), path.join(temp, 'node_modules', name), 'dir');
  }
  const result = spawnSync(
    process.execPath,
    [
      '--preserve-symlinks',
      '--preserve-symlinks-main',
      path.join(temp, 'node_modules', 'drizzle-kit', 'bin.cjs'),
      'generate',
      ...process.argv.slice(2),
    ],
    { cwd: packageDir, stdio: 'inherit' },
  );
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(temp, { recursive: true, force: true });
}
