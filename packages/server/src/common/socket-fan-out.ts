import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

// Fan-out of one frame to many websockets: the frame is serialised once and the same bytes are
// written to every socket. A socket whose unsent bytes pass the bound cannot keep up (a slow
// network, a paused tab): it is taken out of live delivery at once, so it never holds the others
// up nor grows the server's memory, and its owner tells it to resync.

/** A socket whose unsent frames exceed this is too slow to follow. */
export const SOCKET_MAX_BUFFERED_BYTES = 1024 * 1024;

/** The frame's bytes, serialised once for every socket it goes to. */
export const frameBytes = (frame: unknown): Buffer => Buffer.from(JSON.stringify(frame));

/** What of ws's own state the fan-out reads to write a framed message itself. */
interface WsInternals {
  readonly _socket?: Socket;
  readonly _sender?: { readonly _state: number; readonly _queue: readonly unknown[] };
}

/**
 * The frame of `payload` as one unmasked text message, header and payload in one buffer: a
 * server's frame is the same bytes for every socket (no mask, no compression), so it is built
 * once per event and each socket costs one write.
 */
export function textFrame(payload: Buffer): Buffer {
  const length = payload.length;
  // RFC 6455 §5.2: FIN + text opcode, then the length in 7 bits, or 126 + 16 bits, or 127 + 64.
  const headerLength = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  frame[0] = 0x81;
  if (length < 126) {
    frame[1] = length;
  } else if (length < 65_536) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  payload.copy(frame, headerLength);
  return frame;
}

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
  let frame: Buffer | undefined;
  for (const socket of sockets) {
    if (socket.readyState !== socket.OPEN) continue;
    if (socket.bufferedAmount > maxBufferedBytes) {
      slow ??= [];
      slow.push(socket);
      continue;
    }
    const ws = socket as unknown as WsInternals;
    // The sender idle (nothing compressing or queued: sockets here never compress), the framed
    // bytes go straight to the connection; otherwise through ws, behind what it holds.
    if (ws._socket && ws._sender && ws._sender._state === 0 && ws._sender._queue.length === 0) {
      frame ??= textFrame(bytes);
      ws._socket.write(frame);
    } else {
      socket.send(bytes, { binary: false });
    }
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
