import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly pid: number,
    readonly lockFile: string,
  ) {
    super(
      `The data directory is in use by another QuantSquare process (pid ${pid}). ` +
        `Stop it first, or use another DATA_DIR. Lock file: ${lockFile}`,
    );
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockFilePath(dataDir: string): string {
  return path.join(dataDir, 'server.lock');
}

/** Reads the pid of a live lock holder, or undefined when the lock is free or stale. */
export function readLiveLockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockFilePath(dataDir), 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)
      ? pid
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes DATA_DIR/server.lock (holding our pid) so two processes never open the embedded
 * database together. A lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const file = lockFilePath(dataDir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          try {
            if (readFileSync(file, 'utf8').trim() === String(process.pid)) rmSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readLiveLockHolder(dataDir);
      if (holder !== undefined) throw new DataDirLockedError(holder, file);
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
