import type { Clock } from '../common/clock.js';
import type { Database } from '../db/database.js';
import type { ExchangeAccountRow, ExecutionOrderRow } from '../db/schema/index.js';
import type { EventBus } from '../events/event-bus.types.js';
import type { Outbox } from '../events/outbox.js';
import type { AccountLanes } from './account-lanes.js';
import { type CoreLoaders, createCoreLoaders } from './core-loaders.js';
import { createExecutionRepository, type ExecutionRepository } from './execution.repository.js';
import {
  type AccountClients,
  ExecutionError,
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
import {
  type ExecuteContext,
  execute,
  type ReconcileContext,
  reconcileIntentsOf,
  submitAll,
} from './intent-execution.js';
import { createOrderDriver } from './order-driver.js';
import { compareWithExchange } from './position-compare.js';
import { createProtectiveOrders } from './protective-orders.js';
import { createSettler, flatPosition, toOwnerPosition } from './settlement.js';

export interface ExecutionCoreDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly clients: AccountClients;
  readonly events: EventBus;
  /** Where settlements write their events (the process's one outbox). */
  readonly outbox: Outbox;
  readonly log?: { error(details: object, message: string): void };
  /** The accounts' lanes, on real time for rate limits (tests of limits pass a fake clock). */
  readonly lanes: AccountLanes;
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

/** The core's reads of the book and the intents (batched where callers come together). */
function coreReads(repo: ExecutionRepository, loaders: CoreLoaders) {
  return {
    /** The owner's position (loads of concurrent callers share one query). */
    async position(ref: PositionRef): Promise<OwnerPosition> {
      const onSymbol = await loaders.bookLoader.run({
        accountId: ref.accountId,
        symbol: ref.symbol,
      });
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
     * Symbols on which an order of the account (any owner) is on its way: the venue may show
     * its fill before the book does.
     */
    symbolsInFlight: (accountId: number) => repo.symbolsInFlight(accountId),

    /** Live orders (sent or being sent, not final) of owners on symbols: one query per batch. */
    liveIntentsOn: (ref: PositionRef) => loaders.liveLoader.run(ref),

    /** Accounts on which some owner holds a position (the timer's reconcile covers them). */
    async accountsWithPositions(): Promise<number[]> {
      return repo.accountsWithOpenPositions();
    },
  };
}

/** An exchange account by id (concurrent callers share one query); refused when it is gone. */
function accountReader(loaders: CoreLoaders) {
  return async (accountId: number): Promise<ExchangeAccountRow> => {
    const account = await loaders.accountLoader.run(accountId);
    if (!account) throw new ExecutionError('rejected', `exchange account ${accountId} not found`);
    return account;
  };
}

/** How owner kinds hook into settlements and hear of orders the follower finished. */
function ownerListeners(
  hooks: Map<OrderOwnerKind, SettlementHook>,
  finalListeners: Map<OrderOwnerKind, (intent: ExecutionOrderRow) => void>,
) {
  return {
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
  };
}

/** The owners' positions on an account summed against the exchange's: the differences. */
async function reconcilePositionsOf(
  context: Pick<ReconcileContext, 'repo' | 'accountOf' | 'clients'>,
  accountId: number,
  symbols?: readonly string[],
): Promise<PositionMismatch[]> {
  const account = await context.accountOf(accountId);
  const client = context.clients(account);
  const book = (await context.repo.openPositionsOnAccounts([accountId])).map(toOwnerPosition);
  const held = await client.fetchPositions(symbols);
  return compareWithExchange(account, book, held, symbols);
}

export function createExecutionCore(deps: ExecutionCoreDeps) {
  const repo = createExecutionRepository(deps.db);
  const { clock } = deps;
  const { lanes } = deps;
  const sendDeadlineMs = deps.sendDeadlineMs ?? SEND_DEADLINE_MS;
  const hooks = new Map<OrderOwnerKind, SettlementHook>();
  /** Told when the background follower saw an owner kind's order become final. */
  const finalListeners = new Map<OrderOwnerKind, (intent: ExecutionOrderRow) => void>();
  const settler = createSettler({
    repo,
    clock,
    events: deps.events,
    outbox: deps.outbox,
    hooks,
    ...(deps.log ? { log: deps.log } : {}),
  });
  const loaders = createCoreLoaders(repo, clock, sendDeadlineMs);
  const accountOf = accountReader(loaders);

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

  const context: ExecuteContext = { repo, clock, deps, loaders, drive };

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
      return lanes.run(account.id, () => execute(context, intent, account));
    },

    /**
     * Submits many intents (a leader's fill copied to every follower): accounts run side by
     * side, at most FAN_OUT_CONCURRENCY at once; each account's intents one after another, in
     * the order given. One result per intent, in order.
     */
    submitMany(intents: readonly OrderIntent[]): Promise<PromiseSettledResult<IntentResult>[]> {
      return submitAll((intent) => this.submit(intent), intents);
    },

    ...ownerListeners(hooks, finalListeners),

    ...protective,

    ...coreReads(repo, loaders),

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
    reconcileIntents: (owner: OrderOwner) =>
      reconcileIntentsOf(
        { repo, lanes, accountOf, clients: deps.clients, followStep, follower },
        owner,
      ),

    /**
     * Compares the sum of the owners' positions on an account with the exchange's (on `symbols`,
     * or every symbol either side holds): the differences, never silently absorbed.
     */
    reconcilePositions: (accountId: number, symbols?: readonly string[]) =>
      reconcilePositionsOf({ repo, accountOf, clients: deps.clients }, accountId, symbols),

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
