import type { WebSocket } from '@fastify/websocket';
import {
  ANNOUNCEMENTS_SOCKET_PATH,
  type AnnouncementPublishedFrame,
  WS_CLOSE_RESYNC,
} from '@quantsquare/contracts';
import type { FastifyPluginAsync } from 'fastify';
import {
  closeForResync,
  frameBytes,
  SOCKET_MAX_BUFFERED_BYTES,
  sendToAll,
} from '../../common/socket-fan-out.js';
import type { EventBus } from '../../events/index.js';

/** A connection that answers no ping for this long is dropped. */
export const SOCKET_HEARTBEAT_MS = 30_000;
/**
 * Open announcement sockets in all (not per address: behind a proxy every page shares one).
 * Each costs little: no state beyond a liveness flag.
 */
export const SOCKETS_MAX = 10_000;

/**
 * /ws/announcements: pushes each AnnouncementPublished to every open page, so help-centre badges
 * update without a reload. Anyone may listen (announcements are public); nothing is sent but
 * the new announcement's id, title and type — each page then asks for its own unread count.
 * Clients may send `{"type":"ping"}` and get `{"type":"pong"}`.
 */
export const announcementsSocketRoutes =
  (deps: { eventBus: EventBus }): FastifyPluginAsync =>
  async (app) => {
    const sockets = new Map<WebSocket, { isAlive: boolean }>();

    const unsubscribe = deps.eventBus.subscribe('AnnouncementPublished', (event) => {
      const frame: AnnouncementPublishedFrame = {
        type: 'announcement_published',
        data: {
          id: event.payload.announcementId,
          title: event.payload.title,
          type: event.payload.type,
        },
      };
      // One serialisation for every page; a page too slow to read is closed (it reconnects).
      sendToAll(sockets.keys(), frameBytes(frame), SOCKET_MAX_BUFFERED_BYTES, (socket) =>
        closeForResync(socket, WS_CLOSE_RESYNC),
      );
    });

    // One timer for all connections: a socket that missed the last ping is gone.
    const heartbeat = setInterval(() => {
      for (const [socket, state] of sockets) {
        if (!state.isAlive) {
          socket.terminate();
          continue;
        }
        state.isAlive = false;
        socket.ping();
      }
    }, SOCKET_HEARTBEAT_MS);
    heartbeat.unref();

    app.addHook('onClose', async () => {
      unsubscribe();
      clearInterval(heartbeat);
      for (const socket of sockets.keys()) socket.close(1001, 'server shutting down');
    });

    app.get(ANNOUNCEMENTS_SOCKET_PATH, { websocket: true, schema: { hide: true } }, (socket) => {
      if (sockets.size >= SOCKETS_MAX) {
        socket.close(1013, 'too many connections');
        return;
      }
      const state = { isAlive: true };
      sockets.set(socket, state);

      socket.on('pong', () => {
        state.isAlive = true;
      });
      socket.on('message', (data) => {
        state.isAlive = true;
        let message: unknown;
        try {
          message = JSON.parse(data.toString());
        } catch {
          return;
        }
        if (
          typeof message === 'object' &&
          message !== null &&
          Reflect.get(message, 'type') === 'ping'
        ) {
          socket.send(JSON.stringify({ type: 'pong' }));
        }
      });
      socket.on('close', () => {
        sockets.delete(socket);
      });
    });
  };
