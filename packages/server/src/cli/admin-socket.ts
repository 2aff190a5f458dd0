import { chmodSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { DomainError } from '../common/errors.js';
import type { AdminService } from '../modules/admin/admin.service.js';

/** One JSON line each way: the command in, `{ok, message}` or `{ok: false, error}` out. */
const adminReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), message: z.string() }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);
export type AdminReply = z.infer<typeof adminReply>;

export const adminSocketPath = (dataDir: string): string => path.join(dataDir, 'admin.sock');

const MAX_LINE_BYTES = 64 * 1024;

interface SocketLogger {
  error(obj: Record<string, unknown>, msg: string): void;
}

/**
 * While the server holds the embedded database, the admin CLI cannot open it; it hands its
 * command to the server through this unix socket (mode 0600: only the owner may connect).
 */
export async function startAdminSocket(
  dataDir: string,
  admin: AdminService,
  log: SocketLogger,
): Promise<{ close(): Promise<void> }> {
  const file = adminSocketPath(dataDir);
  rmSync(file, { force: true }); // left by a crashed server; we hold the data-dir lock
  const server = net.createServer((socket) => {
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (buffer.length > MAX_LINE_BYTES) {
        socket.end(`${JSON.stringify({ ok: false, error: 'Command too long' })}\n`);
        return;
      }
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      const line = buffer.slice(0, newline);
      buffer = '';
      void answer(line).then((reply) => socket.end(`${JSON.stringify(reply)}\n`));
    });
  });

  async function answer(line: string): Promise<AdminReply> {
    try {
      return { ok: true, message: await admin.run(JSON.parse(line)) };
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, error: error.message };
      if (error instanceof SyntaxError) return { ok: false, error: 'Malformed command' };
      log.error({ err: error }, 'admin command failed');
      return { ok: false, error: 'Admin command failed; see the server log' };
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          rmSync(file, { force: true });
          resolve();
        });
      }),
  };
}

/** Sends one command to a running server. */
export function sendAdminCommand(
  dataDir: string,
  command: unknown,
  timeoutMs = 30_000,
): Promise<AdminReply> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(adminSocketPath(dataDir));
    let buffer = '';
    socket.setEncoding('utf8');
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error('The server did not answer in time')),
    );
    socket.on('connect', () => socket.write(`${JSON.stringify(command)}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      try {
        resolve(adminReply.parse(JSON.parse(buffer.trim())));
      } catch {
        reject(new Error('The server sent no readable answer'));
      }
    });
  });
}
