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
import { EXCHANGE_CAPABILITIES } from '../exchange/exchange-capabilities.js';
import {
  ExchangeAdapterError,
  type ExchangeClient,
  type ExchangeOrder,
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
  type OrderIntent,
  type OrderOwner,
  type OrderOwnerKind,
  type OwnerPosition,
  type PositionMismatch,
  type PositionRef,
  type Settlement,
  type SettlementHook,
} from './execution.types.js';
import { planOrder } from './order-plan.js';
import { compareWithExchange } from './position-compare.js';
import { createProtectiveOrders } from './protective-orders.js';
import {
  createSettler,
  FINAL_STATUSES,
  flatPosition,
  type SettleOutcome,
  toOwnerPosition,
} from './settlement.js';

export interface ExecutionCoreDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly clients: AccountClients;
  readonly events: EventBus;
  readonly log?: { error(details: object, message: string): void };
  /** Real time for rate limits (tests of limits pass a fake). */
  readonly lanes?: AccountLanes;
  /** How long after its claim an order may still leave (SEND_DEADLINE_MS; tests shorten it). */
  readonly sendDeadlineMs?: number;
}

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
  const settler = createSettler({
    repo,
    clock,
    events: deps.events,
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
  const leverageLoader = createBatcher(
    async (keys: readonly SymbolKey[]) => {
      const rows = new Map(
        (await repo.leverages(keys)).map((r) => [symbolKeyOf(r.accountId, r.symbol), r.leverage]),
      );
      return keys.map((k) => rows.get(symbolKeyOf(k.accountId, k.symbol)));
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
    async (ids: readonly number[]) => {
      const claimed = new Set(await repo.claimForSending(ids, clock.now()));
      return ids.map((id) => claimed.has(id));
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

  /**
   * Sends an intent row (in its account's lane). An unknown outcome is looked up by client order
   * id, never resent; any other refusal marks the intent failed.
   */
  async function send(
    account: ExchangeAccountRow,
    client: ExchangeClient,
    row: ExecutionOrderRow,
    leverage?: number,
  ): Promise<ExchangeOrder> {
    if (!row.reduceOnly)
      await ensureLeverage(account, row.symbol, client, leverage).catch(async (error) => {
        await repo.updateIntent(row.id, { status: 'failed', error: errorText(error) }, clock.now());
        throw new ExecutionError('rejected', `${row.action} order failed: ${errorText(error)}`, {
          cause: error,
        });
      });
    await lanes.takeOrderSlot(account.id, EXCHANGE_CAPABILITIES[account.exchange].orderRateLimits);
    const claiming = performance.now();
    if (!(await claimer.run(row.id))) {
      throw new ExecutionError(
        'rejected',
        `order ${row.clientOrderId} was settled or failed by another process before it was sent`,
      );
    }
    const sinceClaim = performance.now() - claiming;
    if (sinceClaim > sendDeadlineMs) {
      throw new ExecutionError(
        'unknown_outcome',
        `order ${row.clientOrderId} not sent: ${Math.round(sinceClaim)} ms passed since it was claimed (at most ${sendDeadlineMs}); reconcile decides it`,
      );
    }
    try {
      return await client.createOrder({
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
      });
    } catch (error) {
      // The client stopped at the last step before the write: nothing left, reconcile decides.
      if (error instanceof OrderNotSentError) {
        throw new ExecutionError('unknown_outcome', `${error.message}; reconcile decides it`, {
          cause: error,
        });
      }
      const message = errorText(error);
      if (error instanceof ExchangeAdapterError && error.kind === 'unknown_outcome') {
        const found = await client
          .fetchOrderByClientId(row.symbol, row.clientOrderId)
          .catch(() => null);
        if (found) return found;
        await repo.updateIntent(row.id, { status: 'unknown', error: message }, clock.now());
        throw new ExecutionError(
          'unknown_outcome',
          `order ${row.clientOrderId} outcome unknown: ${message}`,
          { cause: error },
        );
      }
      await repo.updateIntent(row.id, { status: 'failed', error: message }, clock.now());
      throw new ExecutionError('rejected', `${row.action} order failed: ${message}`, {
        cause: error,
      });
    }
  }

  /** A written intent row brought to its outcome: sent when pending, looked up when unknown. */
  async function drive(
    account: ExchangeAccountRow,
    client: ExchangeClient,
    row: ExecutionOrderRow,
    leverage?: number,
  ): Promise<SettleOutcome> {
    if (FINAL_STATUSES.has(row.status)) {
      if (row.status === 'failed') {
        throw new ExecutionError(
          'rejected',
          `order ${row.clientOrderId} failed: ${row.error ?? ''}`,
        );
      }
      return { intent: row, settlement: null, wasSettled: true };
    }
    let order: ExchangeOrder | null;
    if (row.status === 'pending') {
      order = await send(account, client, row, leverage);
    } else {
      // Sent before (an unknown outcome, a resting order): the exchange says what became of it.
      order = await client.fetchOrderByClientId(row.symbol, row.clientOrderId);
      if (!order) {
        throw new ExecutionError(
          'unknown_outcome',
          `order ${row.clientOrderId} was ${row.status} and is not at the exchange`,
        );
      }
    }
    return settler.run({ account, intent: row, order });
  }

  function resultOf(outcomes: readonly SettleOutcome[], position: OwnerPosition): IntentResult {
    const settlement = [...outcomes].reverse().find((o) => o.settlement)?.settlement;
    if (settlement) return { status: 'filled', settlement, legs: outcomes.length };
    const last = outcomes.at(-1);
    if (last?.wasSettled) return { status: 'done', intent: last.intent, position };
    return { status: 'not_filled', intent: last?.intent ?? null, position };
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
      const now = clock.now();
      const pricing = intent.pricing ?? { type: 'market' as const };
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
    for (const row of rows) outcomes.push(await drive(account, client, row, intent.leverage));
    return resultOf(outcomes, own);
  }

  const protective = createProtectiveOrders({
    repo,
    clock,
    clients: deps.clients,
    lanes,
    accountOf,
    drive,
    settle: (item) => settler.run(item),
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

    /** Which of `owners` have intents to reconcile (pending or unknown): one query for all. */
    ownersWithUnsettledIntents: (owners: readonly OrderOwner[]) =>
      repo.ownersWithUnsettledIntents(owners),

    /** Every order of an owner (or those whose key starts with `keyPrefix`), oldest first. */
    intentsOf: (owner: OrderOwner, keyPrefix?: string) => repo.intentsOf(owner, keyPrefix),

    /**
     * After a restart: each pending or unknown intent of `owner` is looked up at the exchange by
     * its client order id — found: settled into the book; absent: failed. Never resent.
     */
    async reconcileIntents(owner: OrderOwner): Promise<IntentReconciliation[]> {
      const report: IntentReconciliation[] = [];
      for (const intent of await repo.unsettledIntentsOf(owner)) {
        const account = await accountOf(intent.accountId);
        const entry = await lanes.run(account.id, async (): Promise<IntentReconciliation> => {
          const client = deps.clients(account);
          const order = await client.fetchOrderByClientId(intent.symbol, intent.clientOrderId);
          if (!order) {
            await repo.updateIntent(
              intent.id,
              { status: 'failed', error: 'not at the exchange after a restart' },
              clock.now(),
            );
            return { outcome: 'never_sent', intent };
          }
          const settled = await settler.run({ account, intent, order });
          return {
            outcome: 'settled',
            intent: settled.intent,
            order,
            settlement: settled.settlement,
          };
        });
        report.push(entry);
      }
      return report;
    },

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
  };
}
export type ExecutionCore = ReturnType<typeof createExecutionCore>;
export type { Settlement };
