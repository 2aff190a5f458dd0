import type { WebSocket } from 'ws';

// Fan-out of one frame to many websockets: the frame is serialised once and the same bytes are
// written to every socket. A socket whose unsent bytes pass the bound cannot keep up (a slow
// network, a paused tab): it is taken out of live delivery at once, so it never holds the others
// up nor grows the server's memory, and its owner tells it to resync.

/** A socket whose unsent frames exceed this is too slow to follow. */
export const SOCKET_MAX_BUFFERED_BYTES = 1024 * 1024;

/** The frame's bytes, serialised once for every socket it goes to. */
export const frameBytes = (frame: unknown): Buffer => Buffer.from(JSON.stringify(frame));

/**
 * Writes `bytes` to every open socket of `sockets`; one over `maxBufferedBytes` is handed to
 * `onSlow` instead (after the loop: `onSlow` may remove it from `sockets`).
 */
export function sendToAll(
  sockets: Iterable<WebSocket>,
  bytes: Buffer,
  maxBufferedBytes: number,
  onSlow: (socket: WebSocket) => void,
): void {
  let slow: WebSocket[] | undefined;
  for (const socket of sockets) {
    if (socket.readyState !== socket.OPEN) continue;
    if (socket.bufferedAmount > maxBufferedBytes) {
      slow ??= [];
      slow.push(socket);
      continue;
    }
    socket.send(bytes, { binary: false });
  }
  if (slow) for (const socket of slow) onSlow(socket);
}

/**
 * Tells a dropped socket to resync: `lastFrame` (if any) goes after what it still has to read,
 * then the close with `code`. A peer that never reads that far is cut by the websocket's own
 * close timeout (30 s), which bounds what it keeps buffered here.
 */
export function closeForResync(socket: WebSocket, code: number, lastFrame?: Buffer): void {
  if (socket.readyState !== socket.OPEN) return;
  if (lastFrame) socket.send(lastFrame, { binary: false });
  socket.close(code, 'too slow: resync');
}
