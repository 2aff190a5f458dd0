import type { WebSocket } from '@fastify/websocket';
import {
  NOTIFICATIONS_SOCKET_PATH,
  type NotificationsUnreadFrame,
  WS_CLOSE_RESYNC,
} from '@quantsquare/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { AccessTokenVerifier } from '../../common/bearer-auth.js';
import {
  closeForResync,
  frameBytes,
  SOCKET_MAX_BUFFERED_BYTES,
  sendToAll,
} from '../../common/socket-fan-out.js';
import type { EventBus } from '../../events/index.js';

/** A socket that has not authenticated by then is closed. */
export const SOCKET_AUTH_TIMEOUT_MS = 10_000;
const SOCKET_HEARTBEAT_MS = 30_000;
const SOCKETS_PER_USER_MAX = 20;
const SOCKETS_MAX = 20_000;
/** Close codes: 4401 the token was missing or refused (refresh it and connect again). */
export const SOCKET_CLOSE_UNAUTHORIZED = 4401;

/**
 * /ws/notifications: the signed-in user's unread count, pushed whenever it changes (in any
 * process: the count travels as a NotificationsChanged event on the bus). A browser cannot set
 * an Authorization header on a websocket, so the first frame carries the access token —
 * `{"type":"auth","token":"<access>"}`, verified like a bearer token — and never the URL (URLs
 * are logged). The server answers `{"type":"unread","count":n}` at once and on every change.
 */
export const notificationsSocketRoutes =
  (deps: {
    events: EventBus;
    tokens: AccessTokenVerifier;
    unreadCount: (userId: number) => Promise<number>;
  }): FastifyPluginAsync =>
  async (app) => {
    const byUser = new Map<number, Set<WebSocket>>();
    const alive = new Map<WebSocket, boolean>();
    const send = (socket: WebSocket, count: number) => {
      const frame: NotificationsUnreadFrame = { type: 'unread', count };
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
    };

    const unsubscribe = deps.events.subscribe('NotificationsChanged', (event) => {
      const sockets = byUser.get(event.payload.userId);
      if (!sockets) return;
      // One serialisation for the user's pages; a page too slow to read is closed (it
      // reconnects and is sent the count at once).
      const frame: NotificationsUnreadFrame = { type: 'unread', count: event.payload.unread };
      sendToAll(sockets, frameBytes(frame), SOCKET_MAX_BUFFERED_BYTES, (socket) =>
        closeForResync(socket, WS_CLOSE_RESYNC),
      );
    });
    const heartbeat = setInterval(() => {
      for (const [socket, isAlive] of alive) {
        if (!isAlive) {
          socket.terminate();
          continue;
        }
        alive.set(socket, false);
        socket.ping();
      }
    }, SOCKET_HEARTBEAT_MS);
    heartbeat.unref();

    app.addHook('onClose', async () => {
      unsubscribe();
      clearInterval(heartbeat);
      for (const socket of alive.keys()) socket.close(1001, 'server shutting down');
    });

    app.get(NOTIFICATIONS_SOCKET_PATH, { websocket: true, schema: { hide: true } }, (socket) => {
      if (alive.size >= SOCKETS_MAX) {
        socket.close(1013, 'too many connections');
        return;
      }
      alive.set(socket, true);
      let userId: number | undefined;
      const authTimer = setTimeout(() => {
        if (userId === undefined) socket.close(SOCKET_CLOSE_UNAUTHORIZED, 'not authenticated');
      }, SOCKET_AUTH_TIMEOUT_MS);
      authTimer.unref();

      socket.on('pong', () => alive.set(socket, true));
      socket.on('message', (data) => {
        alive.set(socket, true);
        let message: unknown;
        try {
          message = JSON.parse(data.toString());
        } catch {
          return;
        }
        if (typeof message !== 'object' || message === null) return;
        const type = Reflect.get(message, 'type');
        if (type === 'ping') {
          socket.send(JSON.stringify({ type: 'pong' }));
          return;
        }
        if (type !== 'auth' || userId !== undefined) return;
        const token = Reflect.get(message, 'token');
        if (typeof token !== 'string' || token.length > 4_096) {
          socket.close(SOCKET_CLOSE_UNAUTHORIZED, 'not authenticated');
          return;
        }
        void deps.tokens
          .authenticate(token)
          .then(async (context) => {
            const sockets = byUser.get(context.userId) ?? new Set<WebSocket>();
            if (sockets.size >= SOCKETS_PER_USER_MAX) {
              socket.close(1013, 'too many connections');
              return;
            }
            userId = context.userId;
            clearTimeout(authTimer);
            sockets.add(socket);
            byUser.set(context.userId, sockets);
            send(socket, await deps.unreadCount(context.userId));
          })
          .catch(() => socket.close(SOCKET_CLOSE_UNAUTHORIZED, 'not authenticated'));
      });
      socket.on('close', () => {
        clearTimeout(authTimer);
        alive.delete(socket);
        if (userId === undefined) return;
        const sockets = byUser.get(userId);
        sockets?.delete(socket);
        if (sockets?.size === 0) byUser.delete(userId);
      });
    });
  };
