import {
  STRATEGY_WS_CLOSE_NOT_PUBLIC,
  STRATEGY_WS_PING_INTERVAL_MS,
  STRATEGY_WS_RECONNECT_DELAY_MS,
  type StrategySocketFrame,
} from '@quantsquare/contracts';
import { useEffect, useRef, useState } from 'react';

// The strategy page's live connection (document 2 §4 "Live connection"): connecting, open (ping
// every 30 s), closed (reconnect after 5 s while the page is open); closed when the page is left.

export type LiveStatus = 'connecting' | 'open' | 'closed';

/**
 * The socket of a strategy on the page's own origin (never a fixed host), ws or wss alike. A
 * reconnection names the last trade seen (`afterTradeId`): the server replays what followed.
 */
export function strategySocketUrl(
  location: Pick<Location, 'protocol' | 'host'>,
  id: number,
  afterTradeId?: string,
) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const after = afterTradeId ? `?after=${encodeURIComponent(afterTradeId)}` : '';
  return `${scheme}//${location.host}/ws/strategies/${id}${after}`;
}

const FRAME_TYPES = new Set([
  'trade_update',
  'position_update',
  'statistics_update',
  'pong',
  'resync',
]);

/** A frame of a known type, or null (other types and broken frames are ignored). */
export function parseFrame(text: unknown): StrategySocketFrame | null {
  if (typeof text !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !FRAME_TYPES.has(type)) return null;
  if (type !== 'pong' && type !== 'resync' && !('data' in value)) return null;
  return value as StrategySocketFrame;
}

export interface LiveHandlers {
  onFrame: (frame: StrategySocketFrame) => void;
  /**
   * After a reconnection: what happened while closed was missed, so reload. `tradesReplayed`:
   * the server replays the missed trades (or sends `resync` when it cannot).
   */
  onReconnected: (tradesReplayed: boolean) => void;
  /** The server closed because the strategy is no longer public. */
  onGone: () => void;
}

/**
 * Keeps the live connection of strategy `id` open while the page shows it (`id` null: none).
 * Answers the connection's status for the live indicator.
 */
export function useStrategyLive(id: number | null, handlers: LiveHandlers): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });

  useEffect(() => {
    if (id === null) return;
    let socket: WebSocket | null = null;
    let pingTimer: ReturnType<typeof setInterval> | undefined;
    let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
    let isLeaving = false;
    let hasOpened = false;
    let lastTradeId: string | undefined;

    const connect = () => {
      setStatus('connecting');
      const current = new WebSocket(strategySocketUrl(window.location, id, lastTradeId));
      const replaysTrades = lastTradeId !== undefined;
      socket = current;
      current.onopen = () => {
        setStatus('open');
        pingTimer = setInterval(() => {
          if (current.readyState === WebSocket.OPEN) {
            current.send(JSON.stringify({ type: 'ping', timestamp: Date.now() }));
          }
        }, STRATEGY_WS_PING_INTERVAL_MS);
        if (hasOpened) handlersRef.current.onReconnected(replaysTrades);
        hasOpened = true;
      };
      current.onmessage = (event) => {
        const frame = parseFrame(event.data);
        if (frame?.type === 'trade_update') lastTradeId = frame.data.id;
        if (frame) handlersRef.current.onFrame(frame);
      };
      current.onclose = (event) => {
        clearInterval(pingTimer);
        if (isLeaving) return;
        setStatus('closed');
        if (event.code === STRATEGY_WS_CLOSE_NOT_PUBLIC) {
          handlersRef.current.onGone();
          return;
        }
        reconnectTimer = setTimeout(connect, STRATEGY_WS_RECONNECT_DELAY_MS);
      };
    };

    connect();
    return () => {
      isLeaving = true;
      clearInterval(pingTimer);
      clearTimeout(reconnectTimer);
      socket?.close(1000);
    };
  }, [id]);

  return status;
}
