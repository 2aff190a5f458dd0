import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Only the owner may read, write or enter anything the server creates from here on. */
export const OWNER_ONLY_UMASK = 0o077;

/**
 * DATA_DIR holds the database, the generated secret key and uploads: it is created 0700 and
 * whatever an earlier run (or an older version) left readable by others is closed to them,
 * keeping the owner's own permissions. Symbolic links are not followed.
 */
export function secureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const entry = path.join(dir, name);
      const stat = lstatSync(entry);
      if (stat.isSymbolicLink()) continue;
      if ((stat.mode & 0o077) !== 0) chmodSync(entry, stat.mode & 0o700);
      if (stat.isDirectory()) visit(entry);
    }
  };
  visit(dataDir);
}
