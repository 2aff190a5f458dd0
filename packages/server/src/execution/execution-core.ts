// The one order path (see README.md): every order of every owner — bot, copy relation, webhook,
// manual — is an intent written before it is sent, keyed by (owner, idempotency key), sent in
// its account's lane (one at a time per account, accounts side by side, the venue's order rate
// limits kept), settled into the position book with the owner's hook in one transaction, and
// published as OrderFilled / PositionChanged.
import { Decimal } from 'decimal.js';
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/database.js';
import type {
  ExchangeAccountRow,
  ExecutionOrderRow,
  NewExecutionOrderRow,
} from '../db/schema/index.js';
import type { EventBus } from '../events/event-bus.types.js';
import { createOutbox, type Outbox } from '../events/outbox.js';
import { type AccountLanes, createAccountLanes } from './account-lanes.js';
import { clientOrderIdOf } from './client-order-id.js';
import { type CoreLoaders, createCoreLoaders } from './core-loaders.js';
import { createExecutionRepository, type ExecutionRepository } from './execution.repository.js';
import {
  type AccountClients,
  ExecutionError,
  type IntentReconciliation,
  type IntentResult,
  type OrderIntent,
  type OrderOwner,
  type OrderOwnerKind,
  type OwnerPosition,
  type PositionMismatch,
  type PositionRef,
  type Settlement,
  type SettlementHook,
} from './execution.types.js';
import { createOrderDriver } from './order-driver.js';
import { type PlannedLeg, planOrder } from './order-plan.js';
import { isFollowed } from './order-states.js';
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

/** How long a clean shutdown lets live orders settle before the follower stops. */
const SHUTDOWN_DRAIN_MS = 15_000;

/** Accounts served at once by a fan-out (each account still one order at a time). */
const FAN_OUT_CONCURRENCY = 512;

/** What an intent's legs came to, as its submit answers it. */
function resultOf(outcomes: readonly SettleOutcome[], position: OwnerPosition): IntentResult {
  const settlement = [...outcomes].reverse().find((o) => o.settlement)?.settlement;
  if (settlement) return { status: 'filled', settlement, legs: outcomes.length };
  const last = outcomes.at(-1);
  if (last && isFollowed(last.intent))
    return { status: 'in_flight', intent: last.intent, position };
  if (last?.wasSettled) return { status: 'done', intent: last.intent, position };
  return { status: 'not_filled', intent: last?.intent ?? null, position };
}

/** What the risk gate reads: the account's risk settings, its book, the venue's price. */
interface GateContext {
  readonly repo: Pick<ExecutionRepository, 'openPositionsOnAccounts'>;
  readonly riskLoader: CoreLoaders['riskLoader'];
  readonly quotes: VenueQuotes | undefined;
}

/**
 * The risk gate, before an intent is written: what the order opens is refused while the
 * account is not active, beyond its notional limits, or (market orders) on a stale or deviant
 * price. Closes and reductions always pass. Throws ExecutionError risk_halted | risk_limit.
 */
async function passGate(
  gate: GateContext,
  account: ExchangeAccountRow,
  intent: OrderIntent,
  pricing: NonNullable<OrderIntent['pricing']>,
  legs: readonly PlannedLeg[],
): Promise<void> {
  const openingAmount = legs
    .filter((leg) => leg.opens)
    .reduce((sum, leg) => sum.plus(leg.amount), new Decimal(0));
  if (openingAmount.isZero()) return;
  const risk = await gate.riskLoader.run(account.id);
  if (risk === null) return;
  const isMarket = pricing.type === 'market';
  const venue = gate.quotes
    ? await gate.quotes(account.exchange, intent.symbol).catch(() => null)
    : null;
  const book = await gate.repo.openPositionsOnAccounts([account.id]);
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

/** The rows of an intent's legs, written before anything is sent. */
function intentRowsOf(
  account: ExchangeAccountRow,
  intent: OrderIntent,
  pricing: NonNullable<OrderIntent['pricing']>,
  legs: readonly PlannedLeg[],
  now: Date,
): NewExecutionOrderRow[] {
  return legs.map((leg) => ({
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
  }));
}

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
  const loaders = createCoreLoaders(repo, clock, sendDeadlineMs);
  const { accountLoader, keyLoader, bookLoader, intentWriter, riskLoader, liveLoader } = loaders;

  async function accountOf(accountId: number): Promise<ExchangeAccountRow> {
    const account = await accountLoader.run(accountId);
    if (!account) throw new ExecutionError('rejected', `exchange account ${accountId} not found`);
    return account;
  }

  const { drive, followStep, settleSeen, follower } = createOrderDriver({
    repo,
    clock,
    clients: deps.clients,
    lanes,
    loaders,
    settler,
    sendDeadlineMs,
    accountOf,
    finalListeners,
    ...(deps.log ? { log: deps.log } : {}),
  });

  async function withdrawLaterLegs(
    later: readonly ExecutionOrderRow[],
    failed: ExecutionOrderRow,
  ): Promise<void> {
    for (const leg of later) {
      if (leg.status !== 'created') continue;
      const reason = `withdrawn: the leg before it (${failed.clientOrderId}) failed`;
      await repo.withdrawCreated(leg.id, reason, clock.now());
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
      await passGate(
        { repo, riskLoader, quotes: deps.quotes },
        account,
        intent,
        pricing,
        plan.legs,
      );
      const now = clock.now();
      rows = await intentWriter.run(intentRowsOf(account, intent, pricing, plan.legs, now));
    }
    const outcomes: SettleOutcome[] = [];
    for (const [index, row] of rows.entries()) {
      try {
        outcomes.push(await drive(account, client, row, intent.leverage, intent.fence));
      } catch (error) {
        // A leg that failed for good (refused, expired) ends the intent: its later legs (the
        // open after a reversal's close) are withdrawn, not left created to go out alone later.
        if (error instanceof ExecutionError && error.kind === 'rejected') {
          await withdrawLaterLegs(rows.slice(index + 1), row);
        }
        throw error;
      }
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
