// The one order path (see README.md): every order of every owner — bot, copy relation, webhook,
// manual — is an intent written before it is sent, keyed by (owner, idempotency key), sent in
// its account's lane (one at a time per account, accounts side by side, the venue's order rate
// limits kept), settled into the position book with the owner's hook in one transaction, and
// published as OrderFilled / PositionChanged.
import { Decimal } from 'decimal.js';
import { createBatcher } from '../common/batcher.js';
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/database.js';
import type { ExchangeAccountRow, ExecutionOrderRow } from '../db/schema/index.js';
import type { EventBus } from '../events/event-bus.types.js';
import { createOutbox, type Outbox } from '../events/outbox.js';
import { EXCHANGE_CAPABILITIES } from '../exchange/exchange-capabilities.js';
import {
  ExchangeAdapterError,
  type ExchangeClient,
  type ExchangeOrder,
  type ExchangeTrade,
  OrderNotSentError,
} from '../exchange/exchange-client.js';
import { type AccountLanes, createAccountLanes } from './account-lanes.js';
import { clientOrderIdOf } from './client-order-id.js';
import {
  createExecutionRepository,
  type IntentKey,
  type SymbolKey,
} from './execution.repository.js';
import {
  type AccountClients,
  ExecutionError,
  type IntentReconciliation,
  type IntentResult,
  type LeaseFence,
  type OrderIntent,
  type OrderOwner,
  type OrderOwnerKind,
  type OwnerPosition,
  type PositionMismatch,
  type PositionRef,
  type Settlement,
  type SettlementHook,
} from './execution.types.js';
import { type PlannedLeg, planOrder } from './order-plan.js';
import { isFinal, isFollowed, type OrderState, transition } from './order-states.js';
import { compareWithExchange } from './position-compare.js';
import { createProtectiveOrders } from './protective-orders.js';
import { decideGate } from './risk-gate.js';
import { createSettler, flatPosition, type SettleOutcome, toOwnerPosition } from './settlement.js';

export interface ExecutionCoreDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly clients: AccountClients;
  readonly events: EventBus;
  /** Where settlements write their events (made from `db` when not given). */
  readonly outbox?: Outbox;
  readonly log?: { error(details: object, message: string): void };
  /** Real time for rate limits (tests of limits pass a fake). */
  readonly lanes?: AccountLanes;
  /** How long after its claim an order may still leave (SEND_DEADLINE_MS; tests shorten it). */
  readonly sendDeadlineMs?: number;
  /**
   * The venue's last price of a symbol and whether it is fresh (the market feed), for the risk
   * gate's price guard; null when unknown. Without it the guard judges no prices.
   */
  readonly quotes?: VenueQuotes;
}

/** The venue's last price and its freshness, as the market feed knows it. */
export type VenueQuotes = (
  exchange: ExchangeAccountRow['exchange'],
  symbol: string,
) => Promise<{ readonly price: number; readonly isFresh: boolean } | null>;

/**
 * An order leaves within this long of its intent's claim, or not at all. A process that stalled
 * in between (a long GC pause, a frozen VM, SIGSTOP) may have lost the owner's lease meanwhile:
 * the new holder then looked the intent up, found nothing at the exchange, failed it and sent
 * the change under a new key — sending the old one on waking would put two orders at the venue.
 * The unsent intent stays unknown, and reconcile decides it (not at the exchange: failed). Real
 * (monotonic) time: a stall is real time whatever the clock says. Checked here after the claim
 * and, as `sendBy`, by the exchange client at the last step before the request is written (after
 * its rate limiter's wait and the signing); what remains is the HTTP library's own write.
 */
export const SEND_DEADLINE_MS = 5_000;

/** How long a submit follows its order before it answers `in_flight` (the follower goes on). */
const FOLLOW_INLINE_MS = 8_000;
/** Waits between lookups of a followed order: quick at first, venues show most orders at once. */
const FOLLOW_BACKOFF_MS = [150, 300, 600, 1_000, 1_500, 2_000] as const;
/** The background follower's pass. */
const FOLLOW_PASS_MS = 1_000;
/** How long a clean shutdown lets live orders settle before the follower stops. */
const SHUTDOWN_DRAIN_MS = 15_000;
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

/** Accounts served at once by a fan-out (each account still one order at a time). */
const FAN_OUT_CONCURRENCY = 512;

// Keys that match a batch's answers to its callers (a map, not a search per caller).
const symbolKeyOf = (accountId: number, text: string) => `${accountId}|${text}`;
const intentKeyOf = (accountId: number, kind: string, ownerId: number, key: string) =>
  `${accountId}|${kind}|${ownerId}|${key}`;

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createExecutionCore(deps: ExecutionCoreDeps) {
  const repo = createExecutionRepository(deps.db);
  const { clock } = deps;
  const lanes = deps.lanes ?? createAccountLanes();
  const sendDeadlineMs = deps.sendDeadlineMs ?? SEND_DEADLINE_MS;
  const hooks = new Map<OrderOwnerKind, SettlementHook>();
  /** Told when the background follower saw an owner kind's order become final. */
  const finalListeners = new Map<OrderOwnerKind, (intent: ExecutionOrderRow) => void>();
  const settler = createSettler({
    repo,
    clock,
    events: deps.events,
    outbox: deps.outbox ?? createOutbox({ db: deps.db, clock }),
    hooks,
    ...(deps.log ? { log: deps.log } : {}),
  });
  /** Leverage last set per account|symbol, as known to this process. */
  const leverageSet = new Map<string, number>();

  // Reads shared by the intents that arrive together (one query per batch).
  const accountLoader = createBatcher(
    async (ids: readonly number[]) => {
      const rows = new Map((await repo.accounts(ids)).map((row) => [row.id, row]));
      return ids.map((id) => rows.get(id));
    },
    { maxSize: 1000 },
  );
  const keyLoader = createBatcher(
    async (keys: readonly IntentKey[]) => {
      const byKey = groupBy(await repo.intentsByKeys(keys), (r) =>
        intentKeyOf(r.accountId, r.ownerKind, r.ownerId, r.idempotencyKey),
      );
      return keys.map(
        (k) => byKey.get(intentKeyOf(k.accountId, k.owner.kind, k.owner.id, k.key)) ?? [],
      );
    },
    { maxSize: 1000 },
  );
  const bookLoader = createBatcher(
    async (keys: readonly SymbolKey[]) => {
      const byKey = groupBy((await repo.positionsOn(keys)).map(toOwnerPosition), (p) =>
        symbolKeyOf(p.accountId, p.symbol),
      );
      return keys.map((k) => byKey.get(symbolKeyOf(k.accountId, k.symbol)) ?? []);
    },
    { maxSize: 1000 },
  );
  const intentWriter = createBatcher(
    async (groups: readonly (readonly Parameters<typeof repo.insertIntents>[0][number][])[]) => {
      const rows = new Map(
        (await repo.insertIntents(groups.flat())).map((r) => [
          symbolKeyOf(r.accountId, r.clientOrderId),
          r,
        ]),
      );
      return groups.map((group) =>
        group.map(
          (want) => rows.get(symbolKeyOf(want.accountId, want.clientOrderId)) as ExecutionOrderRow,
        ),
      );
    },
    { maxSize: 500 },
  );
  // The risk gate's view, read fresh for each intent; intents written together share the read.
  const riskLoader = createBatcher(
    async (ids: readonly number[]) => {
      const rows = new Map(
        (await repo.risksOf(ids)).map(({ accountId, ...risk }) => [accountId, risk]),
      );
      return ids.map((id) => rows.get(id) ?? null);
    },
    { maxSize: 1000 },
  );
  const leverageLoader = createBatcher(
    async (keys: readonly SymbolKey[]) => {
      const rows = new Map(
        (await repo.leverages(keys)).map((r) => [symbolKeyOf(r.accountId, r.symbol), r.leverage]),
      );
      return keys.map((k) => rows.get(symbolKeyOf(k.accountId, k.symbol)));
    },
    { maxSize: 1000 },
  );

  const liveLoader = createBatcher(
    async (refs: readonly PositionRef[]) => {
      const byRef = groupBy(
        await repo.liveIntentsOn(refs),
        (r) => `${r.accountId}|${r.symbol}|${r.ownerKind}|${r.ownerId}`,
      );
      return refs.map(
        (r) => byRef.get(`${r.accountId}|${r.symbol}|${r.owner.kind}|${r.owner.id}`) ?? [],
      );
    },
    { maxSize: 1000 },
  );

  const leverageWriter = createBatcher(
    async (
      rows: readonly { accountId: number; symbol: string; leverage: number; setAt: Date }[],
    ) => {
      await repo.saveLeverages(rows);
      return rows.map(() => undefined);
    },
    { maxSize: 1000 },
  );

  // The last step before an order leaves: the intent moves from pending to on its way, unless
  // another process (a new lease holder's reconcile) has failed or settled it meanwhile — then a
  // process that was frozen while holding it sends nothing.
  const claimer = createBatcher(
    async (claims: readonly { readonly id: number; readonly fence?: LeaseFence | undefined }[]) => {
      // Wall-clock time: the venue's clock judges the request, whatever the core's clock says.
      const claimedAtMs = Date.now();
      const expiresAt = new Date(claimedAtMs + sendDeadlineMs);
      const claimed = new Set(await repo.claimForSending(claims, clock.now(), expiresAt));
      return claims.map((c) =>
        claimed.has(c.id) ? { claimedAtMs, expiresAtMs: expiresAt.getTime() } : null,
      );
    },
    { maxSize: 1000 },
  );

  async function accountOf(accountId: number): Promise<ExchangeAccountRow> {
    const account = await accountLoader.run(accountId);
    if (!account) throw new ExecutionError('rejected', `exchange account ${accountId} not found`);
    return account;
  }

  /** Sets the account's leverage on the symbol before an order that may open, when it differs. */
  async function ensureLeverage(
    account: ExchangeAccountRow,
    symbol: string,
    client: ExchangeClient,
    leverage: number = account.defaultLeverage,
  ) {
    const key = `${account.id}|${symbol}`;
    let known = leverageSet.get(key);
    if (known === undefined) known = await leverageLoader.run({ accountId: account.id, symbol });
    if (known === leverage) {
      leverageSet.set(key, known);
      return;
    }
    await client.setLeverage(symbol, leverage);
    await leverageWriter.run({ accountId: account.id, symbol, leverage, setAt: clock.now() });
    leverageSet.set(key, leverage);
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
    account: ExchangeAccountRow,
    client: ExchangeClient,
    row: ExecutionOrderRow,
    order: ExchangeOrder,
  ): Promise<SettleOutcome> {
    const trades = await tradesOf(client, row, order).catch((error: unknown) => {
      // Trades not readable now: the state still moves; the follower reads them again.
      deps.log?.error({ err: error, clientOrderId: row.clientOrderId }, 'order trades unreadable');
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
    account: ExchangeAccountRow,
    client: ExchangeClient,
    row: ExecutionOrderRow,
    leverage?: number,
    fence?: LeaseFence,
  ): Promise<SettleOutcome> {
    const reject = async (error: unknown, state: OrderState = 'rejected') => {
      await repo.updateIntent(row.id, { status: state, error: errorText(error) }, clock.now());
      return new ExecutionError('rejected', `${row.action} order failed: ${errorText(error)}`, {
        cause: error,
      });
    };
    if (!row.reduceOnly) {
      try {
        await ensureLeverage(account, row.symbol, client, leverage);
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
        order = await createOnce(client, row, claiming, window);
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
        return settleSendError(account, client, row, sending, error, reject);
      }
    }
    const settled = await settleSeen(account, client, sending, order);
    return isFollowed(settled.intent)
      ? follow(account, client, settled.intent, FOLLOW_INLINE_MS)
      : settled;
  }

  /** One order request, unless the claim's send window has passed (then nothing is written). */
  async function createOnce(
    client: ExchangeClient,
    row: ExecutionOrderRow,
    claiming: number,
    window: { claimedAtMs: number; expiresAtMs: number },
  ): Promise<ExchangeOrder> {
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
    account: ExchangeAccountRow,
    client: ExchangeClient,
    row: ExecutionOrderRow,
    sending: ExecutionOrderRow,
    error: unknown,
    reject: (error: unknown, state?: OrderState) => Promise<ExecutionError>,
  ): Promise<SettleOutcome> {
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
      return follow(account, client, { ...sending, status: 'in_doubt' }, FOLLOW_INLINE_MS);
    }
    throw await reject(error);
  }

  /**
   * Follows an order the venue may hold until it is final or `withinMs` has passed: looked up
   * by client order id with backoff, its trades settled as they show. A miss counts toward
   * "missing" only once the venue can no longer accept the request. Answers where it stands;
   * an order still live then is handed to the background follower.
   */
  async function follow(
    account: ExchangeAccountRow,
    client: ExchangeClient,
    row: ExecutionOrderRow,
    withinMs: number,
  ): Promise<SettleOutcome> {
    const until = performance.now() + withinMs;
    let current = row;
    for (let attempt = 0; ; attempt += 1) {
      const step = await followStep(account, client, current);
      current = step.intent;
      if (!isFollowed(current)) return step;
      const waitMs = FOLLOW_BACKOFF_MS[Math.min(attempt, FOLLOW_BACKOFF_MS.length - 1)] as number;
      if (performance.now() + waitMs > until) {
        follower.track(current);
        return step;
      }
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  /** One lookup of a followed order and what it says. */
  async function followStep(
    account: ExchangeAccountRow,
    client: ExchangeClient,
    row: ExecutionOrderRow,
  ): Promise<SettleOutcome> {
    let order: ExchangeOrder | null;
    try {
      order = await client.fetchOrderByClientId(row.symbol, row.clientOrderId);
    } catch (error) {
      // The venue did not answer: nothing learnt, the order stays as it was.
      deps.log?.error({ err: error, clientOrderId: row.clientOrderId }, 'order lookup failed');
      return { intent: row, settlement: null, wasSettled: false };
    }
    if (order) return settleSeen(account, client, row, order);
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
    if (row.status === 'created') return send(account, client, row, leverage, fence);
    // Sent before (in doubt, accepted, a resting order): the venue says what became of it.
    const outcome = await follow(account, client, row, FOLLOW_INLINE_MS);
    if (outcome.intent.status === 'expired') {
      throw new ExecutionError(
        'rejected',
        `order ${row.clientOrderId} expired: never reached the venue`,
      );
    }
    return outcome;
  }

  /**
   * The background follower: every live order this process sent or took over, looked up on a
   * timer in its account's lane until it is final. Its settlements run the owners' hooks and
   * publish events, so drivers hear of fills that came after their submit answered.
   */
  const follower = (() => {
    const tracked = new Set<number>();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let running: Promise<void> | undefined;
    const schedule = () => {
      if (timer || tracked.size === 0 || stopped) return;
      timer = setTimeout(() => {
        timer = undefined;
        running = pass().finally(() => {
          running = undefined;
          schedule();
        });
      }, FOLLOW_PASS_MS);
      timer.unref?.();
    };
    async function pass(): Promise<void> {
      const rows = await repo.intentsByIds([...tracked]).catch(() => []);
      const live = rows.filter(isFollowed);
      for (const row of rows) if (!isFollowed(row)) tracked.delete(row.id);
      await Promise.all(
        live.map(async (row) => {
          try {
            const account = await accountOf(row.accountId);
            const step = await lanes.run(account.id, () =>
              followStep(account, deps.clients(account), row),
            );
            if (!isFollowed(step.intent)) {
              tracked.delete(row.id);
              finalListeners.get(step.intent.ownerKind)?.(step.intent);
            }
          } catch (error) {
            deps.log?.error({ err: error, clientOrderId: row.clientOrderId }, 'follow failed');
          }
        }),
      );
    }
    return {
      track(row: ExecutionOrderRow) {
        tracked.add(row.id);
        schedule();
      },
      /** Orders followed now (ids). */
      tracked: () => [...tracked],
      /**
       * Stops following. Live orders get up to `drainMs` to become final first (a deploy lets
       * its in-flight orders settle); what is still live then is followed after the restart.
       */
      async stop(drainMs: number) {
        const deadline = Date.now() + drainMs;
        while (tracked.size > 0 && Date.now() < deadline) {
          if (timer) clearTimeout(timer);
          timer = undefined;
          await running;
          running = pass();
          await running;
          running = undefined;
          if (tracked.size > 0) {
            const waitMs = Math.max(0, Math.min(FOLLOW_PASS_MS, deadline - Date.now()));
            await new Promise((resolve) => setTimeout(resolve, waitMs));
          }
        }
        stopped = true;
        if (timer) clearTimeout(timer);
        timer = undefined;
        await running;
      },
    };
  })();
  let stopped = false;

  function resultOf(outcomes: readonly SettleOutcome[], position: OwnerPosition): IntentResult {
    const settlement = [...outcomes].reverse().find((o) => o.settlement)?.settlement;
    if (settlement) return { status: 'filled', settlement, legs: outcomes.length };
    const last = outcomes.at(-1);
    if (last && isFollowed(last.intent))
      return { status: 'in_flight', intent: last.intent, position };
    if (last?.wasSettled) return { status: 'done', intent: last.intent, position };
    return { status: 'not_filled', intent: last?.intent ?? null, position };
  }

  /**
   * The risk gate, before an intent is written: what the order opens is refused while the
   * account is not active, beyond its notional limits, or (market orders) on a stale or deviant
   * price. Closes and reductions always pass. Throws ExecutionError risk_halted | risk_limit.
   */
  async function passGate(
    account: ExchangeAccountRow,
    intent: OrderIntent,
    pricing: NonNullable<OrderIntent['pricing']>,
    legs: readonly PlannedLeg[],
  ): Promise<void> {
    const openingAmount = legs
      .filter((leg) => leg.opens)
      .reduce((sum, leg) => sum.plus(leg.amount), new Decimal(0));
    if (openingAmount.isZero()) return;
    const risk = await riskLoader.run(account.id);
    if (risk === null) return;
    const isMarket = pricing.type === 'market';
    const venue = deps.quotes
      ? await deps.quotes(account.exchange, intent.symbol).catch(() => null)
      : null;
    const book = await repo.openPositionsOnAccounts([account.id]);
    const openNotional = book.reduce(
      (sum, p) => sum.plus(new Decimal(p.size).abs().times(p.entryPrice)),
      new Decimal(0),
    );
    const referencePrice = intent.referencePrice ?? null;
    const decision = decideGate({
      risk,
      openingAmount,
      price: pricing.type === 'ioc' ? pricing.priceCap : (referencePrice ?? venue?.price ?? null),
      openNotional,
      isMarket,
      venue,
      referencePrice,
    });
    if (!decision.ok) {
      throw new ExecutionError(decision.kind, `risk gate: ${decision.message}`, {
        reason: decision.reason,
      });
    }
  }

  async function execute(intent: OrderIntent, account: ExchangeAccountRow): Promise<IntentResult> {
    const client = deps.clients(account);
    const ref: PositionRef = { accountId: account.id, symbol: intent.symbol, owner: intent.owner };
    let rows = await keyLoader.run({ accountId: account.id, owner: intent.owner, key: intent.key });
    const onSymbol = await bookLoader.run({ accountId: account.id, symbol: intent.symbol });
    const own =
      onSymbol.find((p) => p.owner.kind === intent.owner.kind && p.owner.id === intent.owner.id) ??
      flatPosition(ref);
    if (rows.length === 0) {
      const facts = await client.marketFacts(intent.symbol);
      const plan = planOrder({
        size: intent.size,
        own: new Decimal(own.size),
        accountNet: onSymbol.reduce((sum, p) => sum.plus(p.size), new Decimal(0)),
        facts,
        positionMode: account.positionMode,
        referencePrice:
          intent.referencePrice ??
          (intent.pricing?.type === 'ioc' ? intent.pricing.priceCap : undefined),
      });
      if (plan.kind === 'noop') return { status: 'noop', position: own };
      if (plan.kind === 'skipped') return { status: 'skipped', sizing: plan.sizing };
      const pricing = intent.pricing ?? { type: 'market' as const };
      await passGate(account, intent, pricing, plan.legs);
      const now = clock.now();
      rows = await intentWriter.run(
        plan.legs.map((leg) => ({
          accountId: account.id,
          symbol: intent.symbol,
          ownerKind: intent.owner.kind,
          ownerId: intent.owner.id,
          idempotencyKey: intent.key,
          clientOrderId: clientOrderIdOf(intent.owner, intent.key, leg.leg),
          action: intent.action,
          side: leg.side,
          type: pricing.type === 'ioc' ? ('limit' as const) : ('market' as const),
          timeInForce: pricing.type === 'ioc' ? ('IOC' as const) : null,
          amount: String(leg.amount),
          price: pricing.type === 'ioc' ? String(pricing.priceCap) : null,
          reduceOnly: leg.reduceOnly,
          positionSide: leg.positionSide ?? null,
          createdAt: now,
          updatedAt: now,
        })),
      );
    }
    const outcomes: SettleOutcome[] = [];
    for (const row of rows) {
      outcomes.push(await drive(account, client, row, intent.leverage, intent.fence));
    }
    return resultOf(outcomes, own);
  }

  const protective = createProtectiveOrders({
    repo,
    clock,
    clients: deps.clients,
    lanes,
    accountOf,
    drive,
    settle: (item) => settleSeen(item.account, deps.clients(item.account), item.intent, item.order),
  });

  return {
    /** The bus the core publishes on; its drivers publish their own events there too. */
    events: deps.events,

    /** An exchange account as it is now (loads of concurrent callers share one query). */
    account: accountOf,

    /** The account's exchange client (market facts, reads). Orders go through `submit`. */
    clientOf: deps.clients,

    /**
     * Submits one intent; resolves when it is settled (or known not to be sent). Throws
     * ExecutionError: rejected (nothing at the exchange), unknown_outcome (reconcile later).
     */
    async submit(intent: OrderIntent): Promise<IntentResult> {
      const account = await accountOf(intent.accountId);
      return lanes.run(account.id, () => execute(intent, account));
    },

    /**
     * Submits many intents (a leader's fill copied to every follower): accounts run side by
     * side, at most FAN_OUT_CONCURRENCY at once; each account's intents one after another, in
     * the order given. One result per intent, in order.
     */
    async submitMany(
      intents: readonly OrderIntent[],
    ): Promise<PromiseSettledResult<IntentResult>[]> {
      const results: PromiseSettledResult<IntentResult>[] = new Array(intents.length);
      const byAccount = new Map<number, number[]>();
      intents.forEach((intent, index) => {
        const queue = byAccount.get(intent.accountId);
        if (queue) queue.push(index);
        else byAccount.set(intent.accountId, [index]);
      });
      const queues = [...byAccount.values()];
      let next = 0;
      const worker = async () => {
        for (let queue = queues[next++]; queue; queue = queues[next++]) {
          for (const index of queue) {
            try {
              results[index] = {
                status: 'fulfilled',
                value: await this.submit(intents[index] as OrderIntent),
              };
            } catch (reason) {
              results[index] = { status: 'rejected', reason };
            }
          }
        }
      };
      await Promise.all(
        Array.from({ length: Math.min(FAN_OUT_CONCURRENCY, queues.length) }, worker),
      );
      return results;
    },

    /**
     * Calls `listener` (after the commit) when the background follower sees one of `kind`'s
     * orders become final, so a driver waiting on an order that outlived its submit goes on at
     * once instead of on its next look (one listener per kind).
     */
    onOrderFinal(kind: OrderOwnerKind, listener: (intent: ExecutionOrderRow) => void): void {
      finalListeners.set(kind, listener);
    },

    /** Runs `hook` inside every settlement of `kind`'s orders (one hook per kind). */
    useSettlementHook(kind: OrderOwnerKind, hook: SettlementHook): void {
      hooks.set(kind, hook);
    },

    ...protective,

    /** The owner's position (loads of concurrent callers share one query). */
    async position(ref: PositionRef): Promise<OwnerPosition> {
      const onSymbol = await bookLoader.run({ accountId: ref.accountId, symbol: ref.symbol });
      return (
        onSymbol.find((p) => p.owner.kind === ref.owner.kind && p.owner.id === ref.owner.id) ??
        flatPosition(ref)
      );
    },

    async openPositionsOf(owners: readonly OrderOwner[]): Promise<OwnerPosition[]> {
      return (await repo.openPositionsOf(owners)).map(toOwnerPosition);
    },

    /** Every owner's open position on an account (the risk gate's close-all). */
    async openPositionsOnAccount(accountId: number): Promise<OwnerPosition[]> {
      return (await repo.openPositionsOnAccounts([accountId])).map(toOwnerPosition);
    },

    /** Which of `owners` have intents to reconcile (pending or unknown): one query for all. */
    ownersWithUnsettledIntents: (owners: readonly OrderOwner[]) =>
      repo.ownersWithUnsettledIntents(owners),

    /** Every order of an owner (or those whose key starts with `keyPrefix`), oldest first. */
    intentsOf: (owner: OrderOwner, keyPrefix?: string) => repo.intentsOf(owner, keyPrefix),
    /** The fills ledger of an account since `since`, oldest first (what the copy simulator replays). */
    accountFillsSince: (accountId: number, since: Date) =>
      repo.fillsOfAccountSince(accountId, since),

    /**
     * Gives up an intent that was never sent (reported `never_sent` by reconcileIntents), for an
     * owner that decides afresh instead of submitting the same key again: it becomes canceled
     * and nothing is sent. False when it was claimed or decided meanwhile.
     */
    withdrawUnsent: (intent: ExecutionOrderRow, reason: string) =>
      repo.withdrawCreated(intent.id, reason, clock.now()),

    /**
     * After a restart: each pending or unknown intent of `owner` is looked up at the exchange by
     * its client order id — found: settled into the book; absent: failed. Never resent.
     */
    async reconcileIntents(owner: OrderOwner): Promise<IntentReconciliation[]> {
      const report: IntentReconciliation[] = [];
      for (const intent of await repo.unsettledIntentsOf(owner)) {
        const account = await accountOf(intent.accountId);
        const entry = await lanes.run(account.id, async (): Promise<IntentReconciliation> => {
          // Never claimed, so never sent: nothing is at the venue. It stays created: the same
          // key submitted again (the owner's next pass, the signal run again) sends it once.
          if (intent.status === 'created') return { outcome: 'never_sent', intent };
          if (!isFollowed(intent)) return { outcome: 'in_flight', intent };
          const step = await followStep(account, deps.clients(account), intent);
          if (step.intent.status === 'expired') return { outcome: 'never_sent', intent };
          if (isFollowed(step.intent)) {
            follower.track(step.intent);
            return { outcome: 'in_flight', intent: step.intent };
          }
          return { outcome: 'settled', intent: step.intent, settlement: step.settlement };
        });
        report.push(entry);
      }
      return report;
    },

    /**
     * Symbols on which an order of the account (any owner) is on its way: the venue may show
     * its fill before the book does.
     */
    symbolsInFlight: (accountId: number) => repo.symbolsInFlight(accountId),

    /** Live orders (sent or being sent, not final) of owners on symbols: one query per batch. */
    liveIntentsOn: (ref: PositionRef) => liveLoader.run(ref),

    /**
     * Compares the sum of the owners' positions on an account with the exchange's (on `symbols`,
     * or every symbol either side holds): the differences, never silently absorbed.
     */
    async reconcilePositions(
      accountId: number,
      symbols?: readonly string[],
    ): Promise<PositionMismatch[]> {
      const account = await accountOf(accountId);
      const client = deps.clients(account);
      const book = (await repo.openPositionsOnAccounts([accountId])).map(toOwnerPosition);
      const held = await client.fetchPositions(symbols);
      return compareWithExchange(account, book, held, symbols);
    },

    /** Accounts on which some owner holds a position (the timer's reconcile covers them). */
    async accountsWithPositions(): Promise<number[]> {
      return repo.accountsWithOpenPositions();
    },

    /** Waits for the work in flight (a clean shutdown). */
    idle: () => lanes.idle(),

    /**
     * Stops the background follower after its live orders had up to `drainMs` to settle (those
     * still live are followed again after a restart).
     */
    close: (drainMs = SHUTDOWN_DRAIN_MS) => follower.stop(drainMs),

    /** Ids of the orders the background follower drives now. */
    followedOrders: () => follower.tracked(),
  };
}
export type ExecutionCore = ReturnType<typeof createExecutionCore>;
export type { Settlement };
