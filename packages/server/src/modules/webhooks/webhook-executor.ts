import {
  WEBHOOK_FAILURE_KINDS,
  WEBHOOK_MESSAGES,
  type WebhookExecutionAction,
  type WebhookFailureKind,
  type WebhookIgnoreReason,
} from '@quantsquare/contracts';
import { positionAmount } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { LEASE_RENEW_MS, type Leases, webhookLease } from '../../common/leases.js';
import type { ServiceLogger } from '../../common/logger.js';
import type { Database } from '../../db/database.js';
import type { WebhookSignalRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox, OutboxEvent } from '../../events/outbox.js';
import { ExchangeAdapterError } from '../../exchange/exchange-client.js';
import type { PriceSource } from '../../exchange/paper/price-source.js';
import {
  ExecutionError,
  type IntentResult,
  type IntentSize,
  type OrderOwner,
} from '../../execution/execution.types.js';
import { type ExecutionCore, isFinal } from '../../execution/index.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import type { ConfigWithAccount, WebhooksRepository } from './webhooks.repository.js';

// The background executor: accepted signals are rows in a pending status (the durable queue);
// each runs once through the execution core under the idempotency key derived from its id, one
// signal of a configuration at a time. After a restart the signals in flight are reconciled at
// the exchange by client order id first, then driven to their end with the same key: a signal
// interrupted between intent and fill completes once. The signal only submits and listens: the
// core retries what may be retried, under the same key; an order it rejects ends the signal. With leases (more than one process) a
// configuration's signals run only in the process holding its lease; a process that takes a
// configuration over (its holder died) reconciles the configuration's intents first.

export const ownerOf = (configId: number): OrderOwner => ({ kind: 'webhook', id: configId });
/** The signal's one idempotency key: every run of the signal finds its order by it. */
export const intentKeyOf = (signalId: number): string => `signal:${signalId}`;
/** The signal of an intent key (`signal:<id>`), or null for another key. */
export function signalIdOf(key: string): number | null {
  const match = /^signal:(\d+)$/.exec(key);
  return match ? Number(match[1]) : null;
}

/** What a valid signal does given the configuration's position (pure). */
export type SignalPlan =
  | { readonly kind: 'ignore'; readonly reason: WebhookIgnoreReason }
  | {
      readonly kind: 'close';
      readonly action: WebhookExecutionAction;
      readonly side: 'buy' | 'sell';
      readonly quantity: Decimal;
    }
  | {
      readonly kind: 'open';
      readonly action: WebhookExecutionAction;
      readonly side: 'buy' | 'sell';
      /** true: add to the position (pyramiding); false: trade to the target (reversing first). */
      readonly adding: boolean;
      readonly direction: 1 | -1;
    };

export function planSignal(
  action: string,
  position: Decimal,
  allowPyramiding: boolean,
): SignalPlan {
  const long = position.gt(0);
  const short = position.lt(0);
  const closeOf = (dir: 'long' | 'short'): SignalPlan => ({
    kind: 'close',
    action: dir === 'long' ? 'close_long' : 'close_short',
    side: dir === 'long' ? 'sell' : 'buy',
    quantity: position.abs(),
  });
  switch (action) {
    case 'buy':
      if (long && !allowPyramiding) return { kind: 'ignore', reason: 'already_long' };
      return {
        kind: 'open',
        action: long ? 'add_long' : short ? 'reverse_to_long' : 'open_long',
        side: 'buy',
        adding: long,
        direction: 1,
      };
    case 'sell':
      if (short && !allowPyramiding) return { kind: 'ignore', reason: 'already_short' };
      return {
        kind: 'open',
        action: short ? 'add_short' : long ? 'reverse_to_short' : 'open_short',
        side: 'sell',
        adding: short,
        direction: -1,
      };
    case 'close_long':
      return long ? closeOf('long') : { kind: 'ignore', reason: 'no_position' };
    case 'close_short':
      return short ? closeOf('short') : { kind: 'ignore', reason: 'no_position' };
    default:
      return long
        ? closeOf('long')
        : short
          ? closeOf('short')
          : { kind: 'ignore', reason: 'no_position' };
  }
}

/** An exchange failure's kind, as the trail names it. */
export function failureKindOf(error: unknown): WebhookFailureKind {
  let cause: unknown = error;
  for (let depth = 0; depth < 5 && cause; depth++) {
    if (cause instanceof ExchangeAdapterError) {
      return (WEBHOOK_FAILURE_KINDS as readonly string[]).includes(cause.kind)
        ? (cause.kind as WebhookFailureKind)
        : 'invalid_order';
    }
    if (cause instanceof ExecutionError && cause.kind === 'unprotected') return 'unprotected';
    if (cause instanceof ExecutionError && cause.kind === 'unknown_outcome')
      return 'unknown_outcome';
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  if (error instanceof ExecutionError) return 'invalid_order';
  return 'internal';
}

/**
 * How soon a signal whose order is still at the venue without a final answer is run again, at
 * the latest: the core's follower tells as soon as the order is final (when it follows it here).
 */
const IN_FLIGHT_RECHECK_MS = 2_000;

/** The slow look at the queue that makes good lost wake-ups. */
export const WEBHOOK_SAFETY_POLL_MS = 15_000;
/** Signals of a configuration read per pass of its queue. */
const DRAIN_BATCH = 50;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export type TrailLog = (entry: {
  config: ConfigWithAccount['config'] | null;
  signalId: number | null;
  level: 'info' | 'warning' | 'error';
  event: Parameters<WebhooksRepository['insertLog']>[0]['event'];
  message: string;
  sourceIp?: string | null;
  /** The owner when `config` is gone (deleted) or unknown. */
  userId?: number | null;
}) => Promise<void>;

export function createWebhookExecutor(deps: {
  readonly repo: WebhooksRepository;
  readonly execution: ExecutionCore;
  readonly prices: PriceSource;
  readonly clock: Clock;
  readonly log: ServiceLogger;
  readonly trail: TrailLog;
  readonly operationLog: OperationLogWriter;
  /**
   * Real time between the slow looks at the queue (default WEBHOOK_SAFETY_POLL_MS): signals are
   * run on their wake-up; the poll only makes good a wake-up that was lost.
   */
  readonly pollIntervalMs?: number;
  /** Where accepted signals are announced (WebhookSignalAccepted): this executor listens. */
  readonly events?: EventBus;
  /** Leases of configurations (`webhook:<id>`); without them this process runs every signal. */
  readonly leases?: Leases;
  /** How often held leases are renewed (default LEASE_RENEW_MS). */
  readonly leaseRenewMs?: number;
  /**
   * Where a failed or refused signal's WebhookSignalFailed event is written, in the transaction
   * that ends the signal (the notifications read it); without it nothing is written.
   */
  readonly failures?: {
    readonly inTransaction: <T>(
      work: (repo: WebhooksRepository, tx: Database) => Promise<T>,
    ) => Promise<T>;
    readonly outbox: Outbox;
    readonly events: EventBus;
  };
}) {
  const { repo, execution, clock } = deps;
  /** Per configuration: the chain of its signals (one at a time, in order of arrival). */
  const chains = new Map<number, Promise<void>>();
  const queued = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  let leaseTimer: NodeJS.Timeout | undefined;
  /** Configurations whose intents this process has reconciled since it took their lease. */
  const reconciled = new Set<number>();
  let running = false;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  /** Configurations with a drain pass queued and not yet started. */
  const wakePending = new Set<number>();
  /** Configurations woken while another process held them (taken over if it died). */
  const wanted = new Set<number>();
  let unsubscribe: (() => void) | undefined;
  /** Signals whose order is at the venue without a final answer, and their fallback timer. */
  const awaiting = new Map<number, { configId: number; timer: NodeJS.Timeout }>();

  const ms = (from: Date, to: Date) => Math.max(0, Math.round(to.getTime() - from.getTime()));

  async function finish(
    signal: WebhookSignalRow,
    status: 'filled' | 'failed' | 'ignored' | 'refused',
    detail: string | null,
    extra: {
      reason?: string | null;
      message?: string | null;
      errorKind?: string | null;
      at?: Date;
      /** The configuration of a failed or refused signal: its owner is told. */
      config?: ConfigWithAccount['config'];
    } = {},
  ) {
    const at = extra.at ?? clock.now();
    const advance = (target: WebhooksRepository) =>
      target.advance(
        signal.id,
        status,
        { step: status, at, detail },
        {
          reason: extra.reason ?? null,
          message: extra.message ?? detail,
          errorKind: extra.errorKind ?? null,
          totalLatencyMs: ms(signal.receivedAt, at),
          finishedAt: at,
        },
      );
    const failures = deps.failures;
    const config = extra.config;
    if (!failures || !config || (status !== 'failed' && status !== 'refused')) {
      await advance(repo);
      return;
    }
    const event: OutboxEvent<'WebhookSignalFailed'> = {
      type: 'WebhookSignalFailed',
      id: `webhook-signal:${signal.id}:${status}`,
      payload: {
        userId: config.userId,
        configId: config.id,
        configName: config.name,
        signalId: signal.id,
        status,
        reason: extra.errorKind ?? extra.reason ?? null,
      },
    };
    await failures.inTransaction(async (txRepo, tx) => {
      await advance(txRepo);
      await failures.outbox.write(tx, [event]);
    });
    // Written with the signal: the relay publishes it if this does not.
    await failures.outbox
      .publish(failures.events, [event])
      .catch((error: unknown) =>
        deps.log.warn({ err: error, signalId: signal.id }, 'webhook failure event not published'),
      );
  }

  /** A valid signal that trades nothing, with why: finished as ignored, told in the trail. */
  async function ignore(
    signal: WebhookSignalRow,
    config: ConfigWithAccount['config'],
    reason: WebhookIgnoreReason | 'disabled',
    text: string,
  ) {
    await finish(signal, 'ignored', text, { reason, message: text });
    await deps.trail({
      config,
      signalId: signal.id,
      level: 'info',
      event: 'signal_ignored',
      message: `Signal #${signal.id} ${signal.action} ${signal.symbol}: ${text}`,
    });
  }

  /** A signal refused by the account's risk gate: nothing was sent. */
  async function refuseByRisk(
    signal: WebhookSignalRow,
    found: ConfigWithAccount,
    reason: 'risk_halted' | 'risk_limit',
    error: ExecutionError,
    executionId: number,
  ) {
    const message = WEBHOOK_MESSAGES.refused[reason];
    await repo.updateExecution(executionId, {
      status: 'failed',
      errorKind: reason,
      error: error.message,
    });
    await finish(signal, 'refused', message, {
      reason,
      message,
      errorKind: reason,
      config: found.config,
    });
    await deps.trail({
      config: found.config,
      signalId: signal.id,
      level: 'warning',
      event: 'order_failed',
      message: `Signal #${signal.id} ${signal.action ?? ''} ${signal.symbol ?? ''} refused by the risk gate: ${error.message}`,
    });
    await deps.operationLog
      .record({
        userId: found.config.userId,
        type: 'error',
        event: 'webhook_failed',
        message: `Webhook ${found.config.name}: signal #${signal.id} refused by the risk gate: ${error.message}`,
        details: {
          webhook_config_id: found.config.id,
          signal_id: signal.id,
          error_kind: reason,
          reason: error.reason,
        },
      })
      .catch(() => undefined);
  }

  async function fail(
    signal: WebhookSignalRow,
    found: ConfigWithAccount,
    kind: WebhookFailureKind,
    message: string,
    executionId?: number,
  ) {
    if (executionId !== undefined) {
      await repo.updateExecution(executionId, {
        status: 'failed',
        errorKind: kind,
        error: message,
      });
    }
    await finish(signal, 'failed', message, { errorKind: kind, message, config: found.config });
    await deps.trail({
      config: found.config,
      signalId: signal.id,
      level: 'error',
      event: 'order_failed',
      message: `Signal #${signal.id} ${signal.action ?? ''} ${signal.symbol ?? ''} failed (${kind}): ${message}`,
    });
    await deps.operationLog
      .record({
        userId: found.config.userId,
        type: 'error',
        event: 'webhook_failed',
        message: `Webhook ${found.config.name}: signal #${signal.id} ${signal.action ?? ''} ${signal.symbol ?? ''} failed: ${message}`,
        details: {
          webhook_config_id: found.config.id,
          signal_id: signal.id,
          error_kind: kind,
          exchange_api: found.account.id,
        },
      })
      .catch((error) => deps.log.warn({ err: error }, 'webhook operation log entry failed'));
  }

  /** The configuration's lease as this process holds it: its orders are claimed under it. */
  const fenceOf = (configId: number) => {
    const fence = deps.leases?.fenceOf(webhookLease(configId));
    return fence ? { fence } : {};
  };

  async function run(signalId: number): Promise<void> {
    let signal = await repo.signal(signalId);
    if (!signal || !['received', 'validated', 'intent', 'placed'].includes(signal.status)) return;
    const found = await repo.configById(signal.configId);
    if (!found) return;
    const { config, account } = found;
    if (!signal.action || !signal.symbol || !signal.amount) {
      await fail(signal, found, 'internal', 'The signal lost its fields');
      return;
    }
    const symbol = signal.symbol;
    const owner = ownerOf(config.id);
    const ref = { accountId: account.id, symbol, owner };
    const key = intentKeyOf(signal.id);

    // The plan is decided once, when the intent is written; a restart repeats it as recorded.
    let executionRow = (await repo.executionsOfSignals([signal.id])).find(
      (e) => e.intentKey === key,
    );
    let size: IntentSize;
    let referencePrice: number | undefined;
    if (!executionRow) {
      // Disabled since it was accepted (by its owner, or as its account is being deleted): a
      // signal that has not traded yet does not trade.
      if (!config.enabled) {
        await ignore(signal, config, 'disabled', WEBHOOK_MESSAGES.refused.disabled);
        return;
      }
      if (!account.isActive) {
        await fail(signal, found, 'invalid_key', WEBHOOK_MESSAGES.refused.account_inactive);
        return;
      }
      const before = await execution.position(ref);
      const plan = planSignal(signal.action, new Decimal(before.size), config.allowPyramiding);
      if (plan.kind === 'ignore') {
        await ignore(signal, config, plan.reason, WEBHOOK_MESSAGES.ignored[plan.reason]);
        return;
      }
      let quantity: Decimal;
      if (plan.kind === 'close') {
        size = { kind: 'close' };
        quantity = plan.quantity;
      } else {
        let price: number;
        try {
          price = await deps.prices.lastPrice(account.exchange, symbol);
        } catch (error) {
          await fail(signal, found, 'no_price', errorText(error));
          return;
        }
        referencePrice = price;
        const amount = positionAmount(Number(signal.amount), config.leverage, price);
        quantity = new Decimal(amount);
        size = plan.adding
          ? { kind: 'delta', amount: plan.direction * amount }
          : { kind: 'target', amount: plan.direction * amount };
      }
      const now = clock.now();
      executionRow = await repo.insertExecution({
        signalId: signal.id,
        configId: config.id,
        userId: config.userId,
        accountId: account.id,
        symbol,
        action: plan.action,
        side: plan.side,
        quantity: quantity.toDecimalPlaces(10).toString(),
        leverage: config.leverage,
        status: 'pending',
        intentKey: key,
        createdAt: now,
      });
      await repo.advance(signal.id, 'intent', {
        step: 'intent',
        at: now,
        detail: `${plan.action} ${quantity.toDecimalPlaces(8).toString()} ${symbol} at ${config.leverage}x`,
      });
      signal = { ...signal, status: 'intent' };
    } else {
      const action = executionRow.action;
      const direction = executionRow.side === 'buy' ? 1 : -1;
      const quantity = Number(executionRow.quantity);
      size = action.startsWith('close')
        ? { kind: 'close' }
        : action.startsWith('add')
          ? { kind: 'delta', amount: direction * quantity }
          : { kind: 'target', amount: direction * quantity };
    }

    let result: IntentResult;
    try {
      result = await execution.submit({
        accountId: account.id,
        symbol,
        owner,
        key,
        size,
        action: executionRow.action,
        leverage: config.leverage,
        ...(referencePrice === undefined ? {} : { referencePrice }),
        ...fenceOf(config.id),
      });
    } catch (error) {
      // Another process holds the configuration now: it runs the signal; nothing changes here.
      if (error instanceof ExecutionError && error.kind === 'fenced') return;
      // The account's risk gate refused the opening: the signal is listed as refused.
      if (
        error instanceof ExecutionError &&
        (error.kind === 'risk_halted' || error.kind === 'risk_limit')
      ) {
        await refuseByRisk(signal, found, error.kind, error, executionRow.id);
        return;
      }
      // Refused (or proven never to have reached the venue): final for this signal.
      await fail(signal, found, failureKindOf(error), errorText(error), executionRow.id);
      return;
    }

    switch (result.status) {
      case 'filled':
      case 'done':
      case 'in_flight':
        await conclude(signal, found, executionRow.id, key, result);
        return;
      case 'noop': {
        const text = WEBHOOK_MESSAGES.ignored.no_position;
        await repo.updateExecution(executionRow.id, { status: 'failed', error: text });
        await finish(signal, 'ignored', text, { reason: 'no_position', message: text });
        return;
      }
      case 'skipped':
        await fail(signal, found, 'below_minimum', result.sizing.reason, executionRow.id);
        return;
      case 'not_filled':
        await fail(signal, found, 'invalid_order', 'The order did not fill', executionRow.id);
        return;
    }
  }

  /**
   * The signal's outcome from its orders as the core holds them (every leg, all its trades): a
   * leg still on its way leaves the signal placed and looked at again (never a failure); once
   * every leg is final, the signal is filled for what the venue filled — the legs' trades'
   * weighted price and all their fees — or failed when nothing filled.
   */
  async function conclude(
    signal: WebhookSignalRow,
    found: ConfigWithAccount,
    executionId: number,
    key: string,
    result: Extract<IntentResult, { status: 'filled' | 'done' | 'in_flight' }>,
  ) {
    const legs = (await execution.intentsOf(ownerOf(found.config.id), key)).filter(
      (leg) => leg.idempotencyKey === key,
    );
    const live = legs.find((leg) => !isFinal(leg.status));
    if (live || legs.length === 0) {
      const shown = live ?? (result.status === 'filled' ? result.settlement.intent : result.intent);
      await awaitVenue(
        signal,
        executionId,
        `order ${shown.exchangeOrderId ?? shown.clientOrderId} ${shown.status}`,
      );
      return;
    }
    let filled = new Decimal(0);
    let cost = new Decimal(0);
    let fee = new Decimal(0);
    for (const leg of legs) {
      const amount = new Decimal(leg.filledAmount ?? 0);
      filled = filled.plus(amount);
      cost = cost.plus(amount.mul(leg.averagePrice ?? 0));
      fee = fee.plus(leg.fee ?? 0);
    }
    const last = legs.filter((leg) => new Decimal(leg.filledAmount ?? 0).gt(0)).at(-1);
    if (!last) {
      const states = legs.map((leg) => leg.status).join(', ');
      await fail(signal, found, 'invalid_order', `order ${states}`, executionId);
      return;
    }
    const filledAt =
      result.status === 'filled' && result.settlement.intent.id === last.id
        ? result.settlement.filledAt
        : last.updatedAt;
    if (signal.status !== 'placed') {
      const first = legs[0] as (typeof legs)[number];
      await repo.advance(signal.id, 'placed', {
        step: 'placed',
        at: first.createdAt.getTime() < filledAt.getTime() ? first.createdAt : filledAt,
        detail: `order ${last.exchangeOrderId ?? last.clientOrderId}`,
      });
    }
    const price = cost.div(filled).toDecimalPlaces(10);
    await repo.updateExecution(executionId, {
      status: 'filled',
      filledQuantity: filled.toString(),
      price: price.toString(),
      fee: fee.toString(),
      exchangeOrderId: last.exchangeOrderId ?? null,
      filledAt,
      receiveToFillMs: ms(signal.receivedAt, filledAt),
      error: null,
      errorKind: null,
    });
    const action = last.action;
    const text = `${action} ${filled.toString()} ${signal.symbol ?? ''} @ ${price.toString()}`;
    await finish(signal, 'filled', text, { at: filledAt, message: text });
    await deps.trail({
      config: found.config,
      signalId: signal.id,
      level: 'info',
      event: 'order_filled',
      message: `Signal #${signal.id}: ${text}`,
    });
  }

  /** The signal's order is at the venue without a final answer: placed, and looked at again. */
  async function awaitVenue(signal: WebhookSignalRow, executionId: number, detail: string) {
    if (signal.status !== 'placed') {
      await repo.advance(signal.id, 'placed', { step: 'placed', at: clock.now(), detail });
    }
    await repo.updateExecution(executionId, { status: 'placed', error: null });
    const again = setTimeout(() => runAgain(signal.id), IN_FLIGHT_RECHECK_MS);
    again.unref();
    awaiting.set(signal.id, { configId: signal.configId, timer: again });
  }

  /** Runs a signal that waited on its order again (its order is final, or the wait is over). */
  function runAgain(signalId: number): void {
    const waiting = awaiting.get(signalId);
    if (!waiting) return;
    awaiting.delete(signalId);
    clearTimeout(waiting.timer);
    queued.delete(signalId);
    enqueue(signalId, waiting.configId);
  }
  execution.onOrderFinal('webhook', (intent) => {
    const signalId = signalIdOf(intent.idempotencyKey);
    if (signalId !== null) runAgain(signalId);
  });

  /**
   * Reconciles a configuration's intents left by a previous holder (a restart, or a process that
   * died): found orders settle, live ones are followed by the core. Their signals then run again
   * under the same key and read what became of them (an order never sent ends its signal).
   */
  async function reconcileConfig(configId: number): Promise<void> {
    await execution.reconcileIntents(ownerOf(configId));
  }

  /**
   * Whether this process runs the configuration's signals now: it holds (or takes) its lease, and
   * has reconciled what a previous holder left. Called inside the configuration's chain.
   */
  async function holds(configId: number): Promise<boolean> {
    const leases = deps.leases;
    if (leases) {
      const resource = webhookLease(configId);
      if (!leases.isHeld(resource)) await leases.acquire([resource]);
      if (!leases.isHeld(resource)) {
        reconciled.delete(configId);
        return false;
      }
    }
    if (!reconciled.has(configId)) {
      await reconcileConfig(configId);
      reconciled.add(configId);
    }
    return true;
  }

  /** Runs `work` after the configuration's earlier work in this process (one at a time). */
  function inChain(configId: number, work: () => Promise<void>, signalId?: number): void {
    const previous = chains.get(configId) ?? Promise.resolve();
    const next: Promise<void> = previous
      .then(work)
      .catch((error) =>
        deps.log.error({ err: error, configId, signalId }, 'webhook signal execution failed'),
      )
      .finally(() => {
        if (signalId !== undefined) queued.delete(signalId);
        inFlight.delete(next);
        if (chains.get(configId) === next) chains.delete(configId);
      });
    chains.set(configId, next);
    inFlight.add(next);
  }

  /**
   * Runs the signal after its configuration's earlier ones (in this process), if this process
   * holds the configuration (a signal whose order became final, or left in flight).
   */
  function enqueue(signalId: number, configId: number): void {
    if (stopped || queued.has(signalId)) return;
    queued.add(signalId);
    inChain(
      configId,
      async () => {
        if (await holds(configId)) await run(signalId);
      },
      signalId,
    );
  }

  /**
   * The configuration has signals waiting (accepted here or anywhere): if this process holds (or
   * takes) its lease, its validated signals run now, oldest first, one after another, until none
   * is left. A wake while a pass is queued is already covered by it; one during a pass queues the
   * next pass, so a signal stored after a pass's last read is never left behind.
   */
  function wake(configId: number): void {
    if (stopped || !running || wakePending.has(configId)) return;
    wakePending.add(configId);
    inChain(configId, async () => {
      wakePending.delete(configId);
      const isTakeover = !reconciled.has(configId);
      if (!(await holds(configId))) {
        // Another process holds it: if that holder died, the lease tick takes it over.
        if (deps.leases) wanted.add(configId);
        return;
      }
      wanted.delete(configId);
      const lease = webhookLease(configId);
      const stillHeld = () => !deps.leases || deps.leases.isHeld(lease);
      // Taken over: what the previous holder left in flight goes first (it was reconciled).
      const leftInFlight = isTakeover
        ? await repo.signalIdsOf(configId, ['intent', 'placed'], DRAIN_BATCH)
        : [];
      for (const id of leftInFlight) {
        if (!stillHeld() || stopped) return;
        if (!awaiting.has(id)) await runGuarded(id);
      }
      const attempted = new Set<number>();
      while (stillHeld() && !stopped) {
        const ids = (await repo.signalIdsOf(configId, ['validated'], DRAIN_BATCH)).filter(
          (id) => !attempted.has(id),
        );
        if (ids.length === 0) return;
        for (const id of ids) {
          if (!stillHeld() || stopped) return;
          // A signal that stays validated after its run (its configuration went) is not retried
          // in this pass: the pass ends instead of spinning on it.
          attempted.add(id);
          await runGuarded(id);
        }
      }
    });
  }

  /** One signal's run; its failure is logged and the configuration's next signal still runs. */
  async function runGuarded(signalId: number): Promise<void> {
    try {
      await run(signalId);
    } catch (error) {
      deps.log.error({ err: error, signalId }, 'webhook signal execution failed');
    }
  }

  /**
   * The slow look at the queue, for wake-ups that were lost (a bus message dropped, a process
   * that accepted a signal and had no bus to tell the holder): every configuration with signals
   * waiting is woken here; and the signals left in flight by a previous holder run, once, when
   * this process takes their configuration over (reconciled first).
   */
  async function poll(): Promise<void> {
    const configs = await repo.configsWithPendingSignals();
    const leases = deps.leases;
    if (leases) {
      await leases.acquire(
        configs.filter((id) => !leases.isHeld(webhookLease(id))).map(webhookLease),
      );
    }
    // A configuration taken over runs what its previous holder left in flight first (wake).
    for (const configId of configs) {
      if (!leases || leases.isHeld(webhookLease(configId))) wake(configId);
      else wanted.add(configId);
    }
  }

  /**
   * The lease tick: renews what this process holds, and takes over the configurations it was
   * woken for while another process held them, if they still have signals waiting and that
   * holder stopped renewing (it died): they run within the lease's time to live.
   */
  async function leaseTick(leases: Leases): Promise<void> {
    const lost = await leases.renew();
    for (const resource of lost) reconciled.delete(Number(resource.split(':')[1]));
    if (wanted.size === 0) return;
    const candidates = [...wanted];
    wanted.clear();
    const waiting = await repo.configsWaiting(candidates);
    if (waiting.length === 0) return;
    const taken = await leases.acquire(waiting.map(webhookLease));
    for (const configId of waiting) {
      if (taken.includes(webhookLease(configId))) wake(configId);
      else wanted.add(configId);
    }
  }

  return {
    /** Runs a signal now where this process holds its configuration (see `wake`). */
    enqueue,
    /** Tells this process that the configuration has signals waiting. */
    wake,
    /** Recovers what a previous process left, then listens for wake-ups (and polls slowly). */
    async start(): Promise<void> {
      if (running) return;
      running = true;
      stopped = false;
      const events = deps.events;
      if (events) {
        unsubscribe = events.subscribe('WebhookSignalAccepted', (event) =>
          wake(event.payload.configId),
        );
      }
      await poll();
      const interval = deps.pollIntervalMs ?? WEBHOOK_SAFETY_POLL_MS;
      timer = setInterval(() => {
        void poll().catch((error) => deps.log.warn({ err: error }, 'webhook queue poll failed'));
      }, interval);
      timer.unref();
      const leases = deps.leases;
      if (leases) {
        leaseTimer = setInterval(() => {
          void leaseTick(leases).catch((error) =>
            deps.log.warn({ err: error }, 'webhook lease renewal failed'),
          );
        }, deps.leaseRenewMs ?? LEASE_RENEW_MS);
        leaseTimer.unref();
      }
    },
    async stop(): Promise<void> {
      stopped = true;
      running = false;
      unsubscribe?.();
      unsubscribe = undefined;
      if (timer) clearInterval(timer);
      if (leaseTimer) clearInterval(leaseTimer);
      timer = undefined;
      leaseTimer = undefined;
      for (const waiting of awaiting.values()) clearTimeout(waiting.timer);
      awaiting.clear();
      wanted.clear();
      await Promise.allSettled([...inFlight]);
      // Another process takes the configurations over at once. Only this executor's leases: the
      // process's bots and copy relations share its holder id and keep theirs.
      const leases = deps.leases;
      if (leases) await leases.release(leases.held()).catch(() => undefined);
      reconciled.clear();
    },
    /** Waits until every queued signal has run (tests, shutdown). */
    async idle(): Promise<void> {
      while (queued.size > 0 || inFlight.size > 0) {
        await Promise.allSettled([...inFlight]);
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
export type WebhookExecutor = ReturnType<typeof createWebhookExecutor>;
