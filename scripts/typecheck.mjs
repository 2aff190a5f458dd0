#!/usr/bin/env node
// `npm run typecheck`: type-checks every TypeScript project, two at a time (one per core of the
// machines CI runs on), longest first; prints each project's errors and exits 1 if any failed.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules/typescript/bin/tsc');
// Longest first, so the short ones fill in at the end.
const projects = [
  'packages/server',
  'packages/web',
  'bench',
  'e2e',
  'packages/engine',
  'packages/contracts',
];
const lanes = Math.max(1, Math.min(2, availableParallelism()));

function check(project) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? 'ok' : 'failed'} (${seconds} s)\n`);
      if (output) process.stdout.write(output);
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
const results = await Promise.all(
  Array.from({ length: lanes }, async () => {
    let ok = true;
    for (let project = queue.shift(); project; project = queue.shift()) {
      ok = (await check(project)) && ok;
    }
    return ok;
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
