// The websocket hub of strategy pages (/ws/strategies/{id}). Viewers of one strategy share a
// room; all rooms share one subscription per event type on the bus, taken while any room is open.
// Each event becomes one frame, serialised once and written to every viewer of its room. A
// viewer too slow to follow (its unsent frames pass a bound) is taken out of live delivery at
// once and told to resync: a `resync` frame, then the close WS_CLOSE_RESYNC (it reconnects and
// replays the trades it missed after its last one).
// Privacy is checked per event against the stored share settings: a strategy that stopped being
// public closes its room; hidden trades or positions are never framed.
import {
  STRATEGY_WS_CLOSE_NOT_PUBLIC,
  STRATEGY_WS_PING_INTERVAL_MS,
  type StrategyPosition,
  type StrategySocketFrame,
  type StrategyTrade,
  WS_CLOSE_RESYNC,
} from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import type { WebSocket } from 'ws';
import { decimalText } from '../common/decimal-text.js';
import {
  closeForResync,
  frameBytes,
  SOCKET_MAX_BUFFERED_BYTES,
  sendToAll,
} from '../common/socket-fan-out.js';
import type { BusEvent, EventBus, EventPayloads, EventType } from '../events/index.js';

export interface StrategyVisibility {
  readonly isPublic: boolean;
  readonly showTrades: boolean;
  readonly showPositions: boolean;
}

/** What the hub reads from the square (the stored truth, never a cached flag alone). */
export interface StrategyAccess {
  /** Null when the strategy was never shared (or the account is gone). */
  visibility(accountId: number): Promise<StrategyVisibility | null>;
  /** The strategy's positions with this owner's newest change applied. */
  positions(
    accountId: number,
    change: EventPayloads['PositionChanged'],
  ): Promise<StrategyPosition[]>;
  /**
   * The strategy's fills after the fill event `afterEventId`, from the event log, or null when
   * that event is no longer kept (absent: the hub replays nothing).
   */
  fillsAfter?(accountId: number, afterEventId: string): Promise<BusEvent<'OrderFilled'>[] | null>;
}

export interface HubLogger {
  warn(details: object, message: string): void;
}

/** A viewer whose unsent frames exceed this is too slow to follow and is told to resync. */
export const VIEWER_MAX_BUFFERED_BYTES = SOCKET_MAX_BUFFERED_BYTES;
const RESYNC_FRAME = frameBytes({ type: 'resync' } satisfies StrategySocketFrame);
const PING_TEXT_MAX_LENGTH = 256;

interface Room {
  readonly accountId: number;
  readonly viewers: Set<WebSocket>;
  /** Frames of a room go out in event order. */
  queue: Promise<void>;
}

/** A fill as the strategy page's trade frame (its id is the event's, for replays). */
function tradeFrame(event: BusEvent<'OrderFilled'>): StrategySocketFrame {
  const fill = event.payload;
  const trade: StrategyTrade = {
    id: event.id,
    order_id: fill.exchangeOrderId,
    timestamp: new Date(fill.filledAtMs).toISOString(),
    symbol: fill.symbol,
    side: fill.side,
    // Live, before the read model has booked it: the order's reduce-only flag says it.
    effect: fill.reduceOnly ? 'close' : 'open',
    amount: decimalText(fill.amount),
    price: decimalText(fill.price),
    value: decimalText(new Decimal(fill.amount).times(fill.price).toDecimalPlaces(8)),
  };
  return { type: 'trade_update', data: trade };
}

/** A strategy's new statistics as the page's frame. */
function statisticsFrame(s: EventPayloads['StrategyStatisticsChanged']): StrategySocketFrame {
  return {
    type: 'statistics_update',
    data: {
      total_pnl_percent: s.totalPnlPercent,
      daily_pnl_percent: s.dailyPnlPercent,
      max_drawdown: s.maxDrawdown,
      balance: decimalText(s.balance),
      days_of_history: s.daysOfHistory,
      is_new: s.isNew,
    },
  };
}

/**
 * Sends one viewer the trades it missed after `afterEventId` (it reconnected after a restart
 * or a network break), in the room's order: live frames queued after it follow the replay.
 */
function replayTo(
  deps: { readonly access: StrategyAccess; readonly log: HubLogger },
  room: Room,
  socket: WebSocket,
  afterEventId: string,
): void {
  const fillsAfter = deps.access.fillsAfter;
  if (!fillsAfter) return;
  room.queue = room.queue.then(async () => {
    if (socket.readyState !== socket.OPEN) return;
    try {
      const visibility = await deps.access.visibility(room.accountId);
      if (!visibility?.isPublic || !visibility.showTrades) return;
      const missed = await fillsAfter(room.accountId, afterEventId);
      const frames: StrategySocketFrame[] = missed ? missed.map(tradeFrame) : [{ type: 'resync' }];
      for (const frame of frames) socket.send(JSON.stringify(frame));
    } catch (error) {
      deps.log.warn({ err: error, accountId: room.accountId }, 'strategy replay not sent');
    }
  });
}

/** Answers a viewer's `ping` message with a `pong` (anything else is ignored). */
function answerPing(socket: WebSocket, data: unknown): void {
  const text = Buffer.isBuffer(data) ? data.toString('utf8') : String(data);
  if (text.length > PING_TEXT_MAX_LENGTH) return;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return;
  }
  if (message && typeof message === 'object' && 'type' in message && message.type === 'ping') {
    const timestamp =
      'timestamp' in message && typeof message.timestamp === 'number'
        ? message.timestamp
        : Date.now();
    const pong: StrategySocketFrame = { type: 'pong', timestamp };
    socket.send(JSON.stringify(pong));
  }
}

/** Where the hub's subscriptions send each event: its room, with the frame the event makes. */
type InRoom = <K extends EventType>(
  event: BusEvent<K>,
  accountId: number,
  work: (room: Room, visibility: StrategyVisibility) => Promise<StrategySocketFrame | null>,
) => void;

/** The bus subscriptions of the hub, one per event type that makes a frame. */
function subscribeFrames(
  deps: { readonly events: EventBus; readonly access: StrategyAccess },
  inRoom: InRoom,
): (() => void)[] {
  return [
    deps.events.subscribe('OrderFilled', (event) =>
      inRoom(event, event.payload.accountId, async (_room, visibility) =>
        visibility.showTrades ? tradeFrame(event) : null,
      ),
    ),
    deps.events.subscribe('PositionChanged', (event) =>
      inRoom(event, event.payload.accountId, async (_room, visibility) => {
        if (!visibility.showPositions) return null;
        const positions = await deps.access.positions(event.payload.accountId, event.payload);
        return { type: 'position_update', data: positions };
      }),
    ),
    deps.events.subscribe('StrategyStatisticsChanged', (event) =>
      inRoom(event, event.payload.accountId, async () => statisticsFrame(event.payload)),
    ),
    // Going private closes the room at once (the visibility check does it).
    deps.events.subscribe('StrategySharingChanged', (event) =>
      inRoom(event, event.payload.accountId, async () => null),
    ),
  ];
}

/** Pings every viewer; one that did not answer the last ping is dropped. */
function pingViewers(rooms: Iterable<Room>, alive: WeakMap<WebSocket, boolean>): void {
  for (const room of rooms) {
    for (const socket of room.viewers) {
      if (alive.get(socket) === false) {
        socket.terminate();
        continue;
      }
      alive.set(socket, false);
      socket.ping();
    }
  }
}

export function createStrategyHub(deps: {
  events: EventBus;
  access: StrategyAccess;
  log: HubLogger;
  /** How often idle connections are pinged (a viewer that missed the last ping is dropped). */
  heartbeatMs?: number;
  maxBufferedBytes?: number;
}) {
  const rooms = new Map<number, Room>();
  const alive = new WeakMap<WebSocket, boolean>();
  const maxBuffered = deps.maxBufferedBytes ?? VIEWER_MAX_BUFFERED_BYTES;
  let unsubscribes: (() => void)[] = [];
  let heartbeat: NodeJS.Timeout | undefined;

  function broadcast(room: Room, frame: StrategySocketFrame): void {
    sendToAll(room.viewers, frameBytes(frame), maxBuffered, (socket) => {
      room.viewers.delete(socket);
      closeForResync(socket, WS_CLOSE_RESYNC, RESYNC_FRAME);
    });
  }

  function closeRoom(room: Room): void {
    for (const socket of room.viewers) {
      socket.close(STRATEGY_WS_CLOSE_NOT_PUBLIC, 'strategy not found or not public');
    }
    room.viewers.clear();
    drop(room);
  }

  function drop(room: Room): void {
    if (room.viewers.size > 0 || rooms.get(room.accountId) !== room) return;
    rooms.delete(room.accountId);
    if (rooms.size === 0) {
      for (const unsubscribe of unsubscribes) unsubscribe();
      unsubscribes = [];
    }
  }

  /** Runs `work` for the event's room (if anyone watches) after the room's earlier events. */
  function inRoom<K extends EventType>(
    event: BusEvent<K>,
    accountId: number,
    work: (room: Room, visibility: StrategyVisibility) => Promise<StrategySocketFrame | null>,
  ): void {
    const room = rooms.get(accountId);
    if (!room) return;
    room.queue = room.queue.then(async () => {
      if (room.viewers.size === 0) return;
      try {
        const visibility = await deps.access.visibility(accountId);
        if (!visibility?.isPublic) return closeRoom(room);
        const frame = await work(room, visibility);
        if (frame) broadcast(room, frame);
      } catch (error) {
        deps.log.warn({ err: error, accountId, event: event.type }, 'strategy frame not sent');
      }
    });
  }

  function subscribe(): void {
    unsubscribes = subscribeFrames(deps, inRoom);
  }

  function startHeartbeat(): void {
    if (heartbeat) return;
    heartbeat = setInterval(
      () => pingViewers(rooms.values(), alive),
      deps.heartbeatMs ?? STRATEGY_WS_PING_INTERVAL_MS,
    );
    heartbeat.unref();
  }

  return {
    /**
     * Adds a viewer of a strategy the caller found public; it leaves when its socket closes. A
     * viewer that names the last trade it saw (`afterEventId`) first gets the trades since.
     */
    join(accountId: number, socket: WebSocket, options: { afterEventId?: string } = {}): void {
      let room = rooms.get(accountId);
      if (!room) {
        if (rooms.size === 0) subscribe();
        room = { accountId, viewers: new Set(), queue: Promise.resolve() };
        rooms.set(accountId, room);
      }
      const joined = room;
      joined.viewers.add(socket);
      alive.set(socket, true);
      startHeartbeat();
      socket.on('message', (data) => {
        alive.set(socket, true);
        answerPing(socket, data);
      });
      socket.on('pong', () => alive.set(socket, true));
      socket.on('close', () => {
        joined.viewers.delete(socket);
        drop(joined);
      });
      socket.on('error', () => socket.terminate());
      if (options.afterEventId) replayTo(deps, joined, socket, options.afterEventId);
    },
    /** Viewers per strategy (for tests and the bench). */
    viewerCount(accountId: number): number {
      return rooms.get(accountId)?.viewers.size ?? 0;
    },
    /** Waits until the frames of every room's events so far are written. */
    async settled(): Promise<void> {
      await Promise.all([...rooms.values()].map((room) => room.queue));
    },
    close(): void {
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = undefined;
      for (const room of [...rooms.values()]) {
        for (const socket of room.viewers) socket.close(1001, 'server shutting down');
        room.viewers.clear();
        drop(room);
      }
    },
  };
}
export type StrategyHub = ReturnType<typeof createStrategyHub>;
