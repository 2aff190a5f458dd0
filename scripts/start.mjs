#!/usr/bin/env node
// `npm start`: builds the web app when its build is missing or older than its sources, then runs
// the server (API, workers and the built SPA) in this process's place.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const web = join(root, 'packages/web');
const builtIndex = join(web, 'dist/index.html');

/** Newest modification time under the given files and folders (node_modules and dist skipped). */
function newestMtimeMs(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) {
        if (name !== 'node_modules' && name !== 'dist') visit(join(path, name));
      }
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  };
  for (const path of paths) visit(path);
  return newest;
}

const sources = [
  join(web, 'src'),
  join(web, 'index.html'),
  join(web, 'public'),
  join(web, 'vite.config.ts'),
  join(web, 'package.json'),
  join(root, 'packages/contracts/src'),
  join(root, 'package-lock.json'),
];
const isStale = !existsSync(builtIndex) || statSync(builtIndex).mtimeMs < newestMtimeMs(sources);
if (isStale) {
  process.stdout.write('Building the web app (missing or out of date)…\n');
  // Always a production build, whatever NODE_ENV the server runs with (the browser tests run it
  // with NODE_ENV=test; a development React would be twice the size and slower).
  const build = spawnSync('npm', ['run', 'build', '-w', '@quantsquare/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'packages/server/src/main.ts')],
  { cwd: root, stdio: 'inherit', env: process.env },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
