// A written intent driven to its outcome: sent in its account's lane under a fenced claim with
// the venue's own expiry, its answer settled, and — when the venue has not finished with it —
// followed by client order id until it is final, inline for a while, then by the background
// follower. Nothing here decides that an order the venue may hold has failed (order-states.ts).
import type { Clock } from '../common/clock.js';
import type { ExchangeAccountRow, ExecutionOrderRow } from '../db/schema/index.js';
import { EXCHANGE_CAPABILITIES } from '../exchange/exchange-capabilities.js';
import {
  ExchangeAdapterError,
  type ExchangeClient,
  type ExchangeOrder,
  type ExchangeTrade,
  OrderNotSentError,
} from '../exchange/exchange-client.js';
import type { AccountLanes } from './account-lanes.js';
import type { CoreLoaders } from './core-loaders.js';
import type { ExecutionRepository } from './execution.repository.js';
import {
  type AccountClients,
  ExecutionError,
  type LeaseFence,
  type OrderOwnerKind,
} from './execution.types.js';
import { OrderFollower } from './order-follower.js';
import { isFinal, isFollowed, type OrderState, transition } from './order-states.js';
import type { createSettler, SettleOutcome } from './settlement.js';

/** How long a submit follows its order before it answers `in_flight` (the follower goes on). */
export const FOLLOW_INLINE_MS = 8_000;
/** Waits between lookups of a followed order: quick at first, venues show most orders at once. */
const FOLLOW_BACKOFF_MS = [150, 300, 600, 1_000, 1_500, 2_000] as const;
/** How far the venue's clock may run behind ours when it judges a request's expiry. */
const VENUE_CLOCK_MARGIN_MS = 1_000;

/**
 * A create the venue refused for its rate, or answered unavailable, is sent again under the same
 * client order id, at most this many times in all, while the claim's send window lasts.
 */
const MAX_SEND_ATTEMPTS = 3;
/** The wait before sending again when the venue gives no Retry-After (OKX sends none). */
const RESEND_WAIT_MS = [500, 1_000] as const;

/**
 * How long to wait before sending a refused create again under the same client order id, or
 * null when the refusal is final. Rate-limited and unavailable refusals leave no order (and a
 * venue that took one after all answers the same id as a duplicate: the existing order).
 */
function resendWaitMs(error: unknown, attempt: number): number | null {
  if (!(error instanceof ExchangeAdapterError) || !error.isRetryable) return null;
  if (attempt >= MAX_SEND_ATTEMPTS) return null;
  return (
    error.retryAfterMs ??
    (RESEND_WAIT_MS[Math.min(attempt - 1, RESEND_WAIT_MS.length - 1)] as number)
  );
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface OrderDriverDeps {
  readonly repo: ExecutionRepository;
  readonly clock: Clock;
  readonly clients: AccountClients;
  readonly lanes: AccountLanes;
  readonly loaders: Pick<CoreLoaders, 'leverageLoader' | 'leverageWriter' | 'claimer'>;
  readonly settler: ReturnType<typeof createSettler>;
  readonly sendDeadlineMs: number;
  readonly accountOf: (accountId: number) => Promise<ExchangeAccountRow>;
  /** Told when the background follower saw an owner kind's order become final. */
  readonly finalListeners: ReadonlyMap<OrderOwnerKind, (intent: ExecutionOrderRow) => void>;
  readonly log?: { error(details: object, message: string): void };
}

/** What driving an order needs: the driver's deps, what it knows of leverage, its follower. */
interface DriverContext extends OrderDriverDeps {
  /** Leverage last set per account|symbol, as known to this process. */
  readonly leverageSet: Map<string, number>;
  readonly follower: OrderFollower;
}

/** Sets the account's leverage on the symbol before an order that may open, when it differs. */
async function ensureLeverage(
  ctx: DriverContext,
  account: ExchangeAccountRow,
  symbol: string,
  client: ExchangeClient,
  leverage: number = account.defaultLeverage,
) {
  const { clock } = ctx;
  const { leverageLoader, leverageWriter } = ctx.loaders;
  const key = `${account.id}|${symbol}`;
  let known = ctx.leverageSet.get(key);
  if (known === undefined) known = await leverageLoader.run({ accountId: account.id, symbol });
  if (known === leverage) {
    ctx.leverageSet.set(key, known);
    return;
  }
  await client.setLeverage(symbol, leverage);
  await leverageWriter.run({ accountId: account.id, symbol, leverage, setAt: clock.now() });
  ctx.leverageSet.set(key, leverage);
}

/** The venue's trades of an order that shows more filled than its intent holds. */
async function tradesOf(
  client: ExchangeClient,
  row: ExecutionOrderRow,
  order: ExchangeOrder,
): Promise<ExchangeTrade[] | null> {
  if (!(order.filled > Number(row.filledAmount ?? 0))) return [];
  return client.fetchOrderTrades(row.symbol, order.id);
}

/** Settles what the venue shows of an order: its state moves, new trades go to the book. */
async function settleSeen(
  ctx: DriverContext,
  account: ExchangeAccountRow,
  client: ExchangeClient,
  row: ExecutionOrderRow,
  order: ExchangeOrder,
): Promise<SettleOutcome> {
  const { settler } = ctx;
  const trades = await tradesOf(client, row, order).catch((error: unknown) => {
    // Trades not readable now: the state still moves; the follower reads them again.
    ctx.log?.error({ err: error, clientOrderId: row.clientOrderId }, 'order trades unreadable');
    return [] as ExchangeTrade[];
  });
  return settler.run({ account, intent: row, order, trades });
}

/**
 * Sends an intent row (in its account's lane) and settles its answer. A refusal rejects it; a
 * lost answer leaves it in doubt; an ack without a fill leaves it accepted. Nothing here
 * decides that an order the venue may hold has failed.
 */
async function send(
  ctx: DriverContext,
  account: ExchangeAccountRow,
  client: ExchangeClient,
  row: ExecutionOrderRow,
  leverage?: number,
  fence?: LeaseFence,
): Promise<SettleOutcome> {
  const { repo, clock, lanes, sendDeadlineMs } = ctx;
  const { claimer } = ctx.loaders;
  const reject = async (error: unknown, state: OrderState = 'rejected') => {
    await repo.updateIntent(row.id, { status: state, error: errorText(error) }, clock.now());
    return new ExecutionError('rejected', `${row.action} order failed: ${errorText(error)}`, {
      cause: error,
    });
  };
  if (!row.reduceOnly) {
    try {
      await ensureLeverage(ctx, account, row.symbol, client, leverage);
    } catch (error) {
      throw await reject(error);
    }
  }
  await lanes.takeOrderSlot(account.id, EXCHANGE_CAPABILITIES[account.exchange].orderRateLimits);
  const claiming = performance.now();
  const window = await claimer.run({ id: row.id, fence });
  if (!window) {
    const [now] = await repo.intentsByIds([row.id]);
    if (fence && now?.status === 'created') {
      throw new ExecutionError(
        'fenced',
        `order ${row.clientOrderId} not sent: the lease ${fence.resource} (epoch ${fence.epoch}) is no longer this worker's`,
      );
    }
    throw new ExecutionError(
      'rejected',
      `order ${row.clientOrderId} was settled or failed by another process before it was sent`,
    );
  }
  const sending: ExecutionOrderRow = {
    ...row,
    status: 'sending',
    sendExpiresAt: new Date(window.expiresAtMs),
  };
  let order: ExchangeOrder | undefined;
  for (let attempt = 1; order === undefined; attempt += 1) {
    try {
      order = await createOnce(ctx, client, row, claiming, window);
    } catch (error) {
      // Refused for its rate (or unavailable): the same order again, under the same key, once
      // the venue allows it and while the claim's window lasts.
      const waitMs = resendWaitMs(error, attempt);
      if (waitMs !== null && performance.now() + waitMs < claiming + sendDeadlineMs) {
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        await lanes.takeOrderSlot(
          account.id,
          EXCHANGE_CAPABILITIES[account.exchange].orderRateLimits,
        );
        continue;
      }
      return settleSendError(ctx, account, client, row, sending, error, reject);
    }
  }
  const settled = await settleSeen(ctx, account, client, sending, order);
  return isFollowed(settled.intent)
    ? follow(ctx, account, client, settled.intent, FOLLOW_INLINE_MS)
    : settled;
}

/** One order request, unless the claim's send window has passed (then nothing is written). */
async function createOnce(
  ctx: DriverContext,
  client: ExchangeClient,
  row: ExecutionOrderRow,
  claiming: number,
  window: { claimedAtMs: number; expiresAtMs: number },
): Promise<ExchangeOrder> {
  const { sendDeadlineMs } = ctx;
  if (performance.now() - claiming > sendDeadlineMs) {
    throw new OrderNotSentError(row.clientOrderId, performance.now() - claiming - sendDeadlineMs);
  }
  return client.createOrder({
    symbol: row.symbol,
    side: row.side,
    type: row.type,
    amount: Number(row.amount),
    ...(row.price === null ? {} : { price: Number(row.price) }),
    ...(row.triggerPrice === null ? {} : { triggerPrice: Number(row.triggerPrice) }),
    ...(row.timeInForce === null ? {} : { timeInForce: row.timeInForce }),
    ...(row.reduceOnly ? { reduceOnly: true } : {}),
    ...(row.positionSide === null ? {} : { positionSide: row.positionSide }),
    clientOrderId: row.clientOrderId,
    sendBy: claiming + sendDeadlineMs,
    claimedAtMs: window.claimedAtMs,
    expiresAtMs: window.expiresAtMs,
  });
}

/** A send that did not answer an order: not sent, refused, or lost (then followed). */
async function settleSendError(
  ctx: DriverContext,
  account: ExchangeAccountRow,
  client: ExchangeClient,
  row: ExecutionOrderRow,
  sending: ExecutionOrderRow,
  error: unknown,
  reject: (error: unknown, state?: OrderState) => Promise<ExecutionError>,
): Promise<SettleOutcome> {
  const { repo, clock } = ctx;
  // The request never left (or the venue refused it as expired): certain, nothing exists.
  if (error instanceof OrderNotSentError) {
    throw await reject(error, transition('sending', { kind: 'not_sent' }));
  }
  if (error instanceof ExchangeAdapterError && error.kind === 'unknown_outcome') {
    await repo.updateIntent(
      row.id,
      { status: transition('sending', { kind: 'lost' }), error: errorText(error) },
      clock.now(),
    );
    return follow(ctx, account, client, { ...sending, status: 'in_doubt' }, FOLLOW_INLINE_MS);
  }
  throw await reject(error);
}

/**
 * Follows an order the venue may hold until it is final or `withinMs` has passed: looked up
 * by client order id with backoff, its trades settled as they show. A miss counts toward
 * "missing" only once the venue can no longer accept the request. Answers where it stands;
 * an order still live then is handed to the background ctx.follower.
 */
async function follow(
  ctx: DriverContext,
  account: ExchangeAccountRow,
  client: ExchangeClient,
  row: ExecutionOrderRow,
  withinMs: number,
): Promise<SettleOutcome> {
  const until = performance.now() + withinMs;
  let current = row;
  for (let attempt = 0; ; attempt += 1) {
    const step = await followStep(ctx, account, client, current);
    current = step.intent;
    if (!isFollowed(current)) return step;
    const waitMs = FOLLOW_BACKOFF_MS[Math.min(attempt, FOLLOW_BACKOFF_MS.length - 1)] as number;
    if (performance.now() + waitMs > until) {
      ctx.follower.track(current);
      return step;
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
}

/** One lookup of a followed order and what it says. */
async function followStep(
  ctx: DriverContext,
  account: ExchangeAccountRow,
  client: ExchangeClient,
  row: ExecutionOrderRow,
): Promise<SettleOutcome> {
  const { repo, clock } = ctx;
  let order: ExchangeOrder | null;
  try {
    order = await client.fetchOrderByClientId(row.symbol, row.clientOrderId);
  } catch (error) {
    // The venue did not answer: nothing learnt, the order stays as it was.
    ctx.log?.error({ err: error, clientOrderId: row.clientOrderId }, 'order lookup failed');
    return { intent: row, settlement: null, wasSettled: false };
  }
  if (order) return settleSeen(ctx, account, client, row, order);
  const nowMs = Date.now();
  const misses = row.lookupMisses + 1;
  const next = transition(row.status, {
    kind: 'not_found',
    misses,
    missingForMs: row.firstMissAt ? nowMs - row.firstMissAt.getTime() : 0,
    // A margin for the venue's clock: past it, no request of this order can still be taken.
    // No expiry: a request of a version before it, from a process long gone.
    venueExpired:
      row.sendExpiresAt === null || nowMs > row.sendExpiresAt.getTime() + VENUE_CLOCK_MARGIN_MS,
    sinceExpiryMs:
      row.sendExpiresAt === null
        ? Number.POSITIVE_INFINITY
        : nowMs - row.sendExpiresAt.getTime() - VENUE_CLOCK_MARGIN_MS,
  });
  const updated = await repo.recordMiss(row.id, next, new Date(nowMs));
  const intent: ExecutionOrderRow = updated ?? {
    ...row,
    status: next,
    lookupMisses: misses,
    firstMissAt: row.firstMissAt ?? new Date(nowMs),
  };
  if (intent.status === 'expired') {
    await repo.updateIntent(
      row.id,
      { error: 'never reached the venue: not found after its request expired' },
      clock.now(),
    );
  }
  return { intent, settlement: null, wasSettled: false };
}

/** A written intent row brought to its outcome: sent when created, followed when on its way. */
async function drive(
  ctx: DriverContext,
  account: ExchangeAccountRow,
  client: ExchangeClient,
  row: ExecutionOrderRow,
  leverage?: number,
  fence?: LeaseFence,
): Promise<SettleOutcome> {
  if (isFinal(row.status)) {
    if (row.status === 'rejected' || row.status === 'expired') {
      throw new ExecutionError(
        'rejected',
        `order ${row.clientOrderId} ${row.status}: ${row.error ?? ''}`,
      );
    }
    return { intent: row, settlement: null, wasSettled: true };
  }
  if (row.status === 'created') return send(ctx, account, client, row, leverage, fence);
  // Sent before (in doubt, accepted, a resting order): the venue says what became of it.
  const outcome = await follow(ctx, account, client, row, FOLLOW_INLINE_MS);
  if (outcome.intent.status === 'expired') {
    throw new ExecutionError(
      'rejected',
      `order ${row.clientOrderId} expired: never reached the venue`,
    );
  }
  return outcome;
}

export function createOrderDriver(deps: OrderDriverDeps) {
  const follower: OrderFollower = new OrderFollower(deps, (account, client, row) =>
    followStep(ctx, account, client, row),
  );
  const ctx: DriverContext = { ...deps, leverageSet: new Map(), follower };
  return {
    drive: (
      account: ExchangeAccountRow,
      client: ExchangeClient,
      row: ExecutionOrderRow,
      leverage?: number,
      fence?: LeaseFence,
    ) => drive(ctx, account, client, row, leverage, fence),
    followStep: (account: ExchangeAccountRow, client: ExchangeClient, row: ExecutionOrderRow) =>
      followStep(ctx, account, client, row),
    settleSeen: (
      account: ExchangeAccountRow,
      client: ExchangeClient,
      row: ExecutionOrderRow,
      order: ExchangeOrder,
    ) => settleSeen(ctx, account, client, row, order),
    follower,
  };
}
export type OrderDriver = ReturnType<typeof createOrderDriver>;
