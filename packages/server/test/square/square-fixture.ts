import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect, vi } from 'vitest';
import type { ManualClock } from '../../src/common/clock.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { balanceSnapshots } from '../../src/db/schema/index.js';
import {
  createInProcessEventBus,
  type EventBus,
  type EventPayloads,
} from '../../src/events/index.js';
import { registerEmail, uniqueEmail } from '../helpers/auth-flows.js';
import { createPaperAccount } from '../helpers/bot-flows.js';
import { call, type TestApp, useTestApp } from '../helpers/test-app.js';

export const BTC = 'BTC/USDT:USDT';
export const ETH = 'ETH/USDT:USDT';
const HOUR_MS = 3_600_000;

/** The app with an event bus the test publishes on (as the execution core would). */
export function useSquareApp(): TestApp & { bus: EventBus } {
  const bus = createInProcessEventBus({ clock: { now: () => new Date() } });
  const testApp = useTestApp({ eventBus: bus, env: { MARKET_DATA: 'simulated' } });
  return Object.assign(testApp, { bus }) as TestApp & { bus: EventBus };
}

export interface Trader {
  token: string;
  userId: number;
}

/** A registered user with a nickname. */
export async function trader(app: FastifyInstance, nickname: string): Promise<Trader> {
  const session = await registerEmail(
    app,
    uniqueEmail(nickname.replace(/\W/g, '').toLowerCase() || 'u'),
  );
  const res = await call(app, 'PUT', '/api/auth/profile/', {
    token: session.access,
    body: { nickname },
  });
  expect(res.status).toBe(200);
  return { token: session.access, userId: Number(session.user.id) };
}

/** A paper account of the trader, published to the square with `settings`. */
export async function publishedAccount(
  app: FastifyInstance,
  owner: Trader,
  settings: Record<string, unknown> = {},
  account: Record<string, unknown> = {},
): Promise<number> {
  const id = await createPaperAccount(app, owner.token, account);
  const res = await call(app, 'PUT', `/api/strategy-square/accounts/${id}/share-settings/`, {
    token: owner.token,
    body: { is_public: true, ...settings },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return id;
}

/** Hourly equity snapshots ending at the clock's hour, oldest first. */
export async function seedEquity(
  database: DatabaseHandle,
  clock: ManualClock,
  accountId: number,
  equity: readonly number[],
): Promise<void> {
  const last = Math.floor(clock.now().getTime() / HOUR_MS) * HOUR_MS;
  const rows = equity.map((value, i) => ({
    accountId,
    takenAt: new Date(last - (equity.length - 1 - i) * HOUR_MS),
    equity: String(value),
    dailyPnl: '0',
  }));
  for (let i = 0; i < rows.length; i += 1000) {
    await database.db
      .insert(balanceSnapshots)
      .values(rows.slice(i, i + 1000))
      .onConflictDoUpdate({
        target: [balanceSnapshots.accountId, balanceSnapshots.takenAt],
        set: { equity: sql`excluded.equity` },
      });
  }
}

let fillCounter = 0;
/** Publishes a bot fill of the account, as the execution core does (at `filledAtMs`). */
export async function publishFill(
  bus: EventBus,
  fill: Partial<EventPayloads['OrderFilled']> & {
    accountId: number;
    userId: number;
    filledAtMs: number;
  },
): Promise<string> {
  const n = ++fillCounter;
  const id = `test-fill-${Date.now()}-${n}`;
  await bus.publish(
    'OrderFilled',
    {
      symbol: BTC,
      owner: { kind: 'bot', id: 1 },
      clientOrderId: `c${n}`,
      exchangeOrderId: `x${n}`,
      side: 'buy',
      amount: 0.01,
      price: 50_000,
      fee: 0.25,
      reduceOnly: false,
      ...fill,
    },
    id,
  );
  return id;
}

export async function publishPosition(
  bus: EventBus,
  change: Partial<EventPayloads['PositionChanged']> & {
    accountId: number;
    userId: number;
    changedAtMs: number;
  },
): Promise<void> {
  await bus.publish('PositionChanged', {
    symbol: BTC,
    owner: { kind: 'bot', id: 1 },
    size: 0.01,
    entryPrice: 50_000,
    ...change,
  });
}

/** Retries `check` until it passes (the bus delivers on a later tick). */
export function eventually(check: () => Promise<void>, timeoutMs = 5_000): Promise<void> {
  return vi.waitFor(check, { timeout: timeoutMs, interval: 25 });
}

export const squareList = (app: FastifyInstance, query = '', token?: string) =>
  call<{ results: Record<string, unknown>[]; count: number; stats: Record<string, number> }>(
    app,
    'GET',
    `/api/strategy-square/strategies/${query ? `?${query}` : ''}`,
    { token },
  );

/** A round trip on the bus: open at `entry`, close at `exit` (the close realises the P&L). */
export async function publishRoundTrip(
  bus: EventBus,
  owner: { accountId: number; userId: number },
  atMs: number,
  entry: number,
  exit: number,
): Promise<void> {
  await publishFill(bus, { ...owner, side: 'buy', price: entry, fee: 0, filledAtMs: atMs });
  await publishFill(bus, {
    ...owner,
    side: 'sell',
    price: exit,
    fee: 0,
    reduceOnly: true,
    filledAtMs: atMs + 60_000,
  });
}
