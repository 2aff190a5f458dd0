import {
  WEBHOOK_MESSAGES,
  type WebhookFailureKind,
  type WebhookIgnoreReason,
} from '@quantsquare/contracts';
import { positionAmount } from '@quantsquare/engine';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import { type Leases, webhookLease } from '../../common/leases.js';
import type { ServiceLogger } from '../../common/logger.js';
import type { Database } from '../../db/database.js';
import type { WebhookExecutionRow, WebhookSignalRow } from '../../db/schema/index.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox, OutboxEvent } from '../../events/outbox.js';
import type { PriceSource } from '../../exchange/paper/price-source.js';
import {
  ExecutionError,
  type IntentResult,
  type IntentSize,
  type PositionRef,
} from '../../execution/execution.types.js';
import { type ExecutionCore, isFinal } from '../../execution/index.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import {
  failureKindOf,
  intentKeyOf,
  ownerOf,
  planSignal,
  type TrailLog,
} from './webhook-signal-plan.js';
import type { ConfigWithAccount, WebhooksRepository } from './webhooks.repository.js';

// One signal's run, from its validated row to its end: the plan and the intent written once,
// the order submitted to the execution core under the signal's key, and the trail (placed,
// filled, failed, refused, ignored) written from what the core holds. When and where a signal
// runs (its configuration's queue, lease and wake-ups) is the executor's part
// (webhook-executor.ts).

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What a signal's run uses; `failures` as in `createWebhookExecutor`. */
export interface SignalRunnerDeps {
  readonly repo: WebhooksRepository;
  readonly execution: ExecutionCore;
  readonly prices: PriceSource;
  readonly clock: Clock;
  readonly log: ServiceLogger;
  readonly trail: TrailLog;
  readonly operationLog: OperationLogWriter;
  readonly leases?: Leases;
  readonly failures?: {
    readonly inTransaction: <T>(
      work: (repo: WebhooksRepository, tx: Database) => Promise<T>,
    ) => Promise<T>;
    readonly outbox: Outbox;
    readonly events: EventBus;
  };
  /** The signal was left placed with its order at the venue: the executor runs it again later. */
  readonly recheckLater: (signalId: number, configId: number) => void;
}

/** The size a recorded execution sends again (a restart repeats the plan as written). */
function recordedSize(executionRow: WebhookExecutionRow): IntentSize {
  const action = executionRow.action;
  const direction = executionRow.side === 'buy' ? 1 : -1;
  const quantity = Number(executionRow.quantity);
  return action.startsWith('close')
    ? { kind: 'close' }
    : action.startsWith('add')
      ? { kind: 'delta', amount: direction * quantity }
      : { kind: 'target', amount: direction * quantity };
}

/** Whole milliseconds from `from` to `to` (never negative). */
const ms = (from: Date, to: Date) => Math.max(0, Math.round(to.getTime() - from.getTime()));

async function finish(
  deps: SignalRunnerDeps,
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
  const at = extra.at ?? deps.clock.now();
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
    await advance(deps.repo);
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
  deps: SignalRunnerDeps,
  signal: WebhookSignalRow,
  config: ConfigWithAccount['config'],
  reason: WebhookIgnoreReason | 'disabled',
  text: string,
) {
  await finish(deps, signal, 'ignored', text, { reason, message: text });
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
  deps: SignalRunnerDeps,
  signal: WebhookSignalRow,
  found: ConfigWithAccount,
  reason: 'risk_halted' | 'risk_limit',
  error: ExecutionError,
  executionId: number,
) {
  const message = WEBHOOK_MESSAGES.refused[reason];
  await deps.repo.updateExecution(executionId, {
    status: 'failed',
    errorKind: reason,
    error: error.message,
  });
  await finish(deps, signal, 'refused', message, {
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
  deps: SignalRunnerDeps,
  signal: WebhookSignalRow,
  found: ConfigWithAccount,
  kind: WebhookFailureKind,
  message: string,
  executionId?: number,
) {
  if (executionId !== undefined) {
    await deps.repo.updateExecution(executionId, {
      status: 'failed',
      errorKind: kind,
      error: message,
    });
  }
  await finish(deps, signal, 'failed', message, { errorKind: kind, message, config: found.config });
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
const fenceOf = (deps: SignalRunnerDeps, configId: number) => {
  const fence = deps.leases?.fenceOf(webhookLease(configId));
  return fence ? { fence } : {};
};

/**
 * Decides the signal's order from the position it finds and writes it as the execution's
 * intent; null when the signal ended instead (ignored, or failed with its reason).
 */
async function writeIntent(
  deps: SignalRunnerDeps,
  signal: WebhookSignalRow,
  found: ConfigWithAccount,
  ref: PositionRef,
  key: string,
): Promise<{
  executionRow: WebhookExecutionRow;
  size: IntentSize;
  referencePrice: number | undefined;
} | null> {
  const { config, account } = found;
  const { symbol } = ref;
  const { action, amount: signalAmount } = signal;
  if (!action || !signalAmount) return null; // run() failed such a signal already
  let size: IntentSize;
  let referencePrice: number | undefined;
  // Disabled since it was accepted (by its owner, or as its account is being deleted): a
  // signal that has not traded yet does not trade.
  if (!config.enabled) {
    await ignore(deps, signal, config, 'disabled', WEBHOOK_MESSAGES.refused.disabled);
    return null;
  }
  if (!account.isActive) {
    await fail(deps, signal, found, 'invalid_key', WEBHOOK_MESSAGES.refused.account_inactive);
    return null;
  }
  const before = await deps.execution.position(ref);
  const plan = planSignal(action, new Decimal(before.size), config.allowPyramiding);
  if (plan.kind === 'ignore') {
    await ignore(deps, signal, config, plan.reason, WEBHOOK_MESSAGES.ignored[plan.reason]);
    return null;
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
      await fail(deps, signal, found, 'no_price', errorText(error));
      return null;
    }
    referencePrice = price;
    const amount = positionAmount(Number(signalAmount), config.leverage, price);
    quantity = new Decimal(amount);
    size = plan.adding
      ? { kind: 'delta', amount: plan.direction * amount }
      : { kind: 'target', amount: plan.direction * amount };
  }
  const now = deps.clock.now();
  const executionRow = await deps.repo.insertExecution({
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
  await deps.repo.advance(signal.id, 'intent', {
    step: 'intent',
    at: now,
    detail: `${plan.action} ${quantity.toDecimalPlaces(8).toString()} ${symbol} at ${config.leverage}x`,
  });
  return { executionRow, size, referencePrice };
}

async function run(deps: SignalRunnerDeps, signalId: number): Promise<void> {
  let signal = await deps.repo.signal(signalId);
  if (!signal || !['received', 'validated', 'intent', 'placed'].includes(signal.status)) return;
  const found = await deps.repo.configById(signal.configId);
  if (!found) return;
  const { config, account } = found;
  if (!signal.action || !signal.symbol || !signal.amount) {
    await fail(deps, signal, found, 'internal', 'The signal lost its fields');
    return;
  }
  const symbol = signal.symbol;
  const owner = ownerOf(config.id);
  const ref = { accountId: account.id, symbol, owner };
  const key = intentKeyOf(signal.id);

  // The plan is decided once, when the intent is written; a restart repeats it as recorded.
  const recorded = (await deps.repo.executionsOfSignals([signal.id])).find(
    (e) => e.intentKey === key,
  );
  const planned = recorded
    ? { executionRow: recorded, size: recordedSize(recorded), referencePrice: undefined }
    : await writeIntent(deps, signal, found, ref, key);
  if (!planned) return;
  const { executionRow, size, referencePrice } = planned;
  if (!recorded) signal = { ...signal, status: 'intent' };

  let result: IntentResult;
  try {
    result = await deps.execution.submit({
      accountId: account.id,
      symbol,
      owner,
      key,
      size,
      action: executionRow.action,
      leverage: config.leverage,
      ...(referencePrice === undefined ? {} : { referencePrice }),
      ...fenceOf(deps, config.id),
    });
  } catch (error) {
    // Another process holds the configuration now: it runs the signal; nothing changes here.
    if (error instanceof ExecutionError && error.kind === 'fenced') return;
    // The account's risk gate refused the opening: the signal is listed as refused.
    if (
      error instanceof ExecutionError &&
      (error.kind === 'risk_halted' || error.kind === 'risk_limit')
    ) {
      await refuseByRisk(deps, signal, found, error.kind, error, executionRow.id);
      return;
    }
    // Refused (or proven never to have reached the venue): final for this signal.
    await fail(deps, signal, found, failureKindOf(error), errorText(error), executionRow.id);
    return;
  }

  switch (result.status) {
    case 'filled':
    case 'done':
    case 'in_flight':
      await conclude(deps, signal, found, executionRow.id, key, result);
      return;
    case 'noop': {
      const text = WEBHOOK_MESSAGES.ignored.no_position;
      await deps.repo.updateExecution(executionRow.id, { status: 'failed', error: text });
      await finish(deps, signal, 'ignored', text, { reason: 'no_position', message: text });
      return;
    }
    case 'skipped':
      await fail(deps, signal, found, 'below_minimum', result.sizing.reason, executionRow.id);
      return;
    case 'not_filled':
      await fail(deps, signal, found, 'invalid_order', 'The order did not fill', executionRow.id);
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
  deps: SignalRunnerDeps,
  signal: WebhookSignalRow,
  found: ConfigWithAccount,
  executionId: number,
  key: string,
  result: Extract<IntentResult, { status: 'filled' | 'done' | 'in_flight' }>,
) {
  const legs = (await deps.execution.intentsOf(ownerOf(found.config.id), key)).filter(
    (leg) => leg.idempotencyKey === key,
  );
  const live = legs.find((leg) => !isFinal(leg.status));
  if (live || legs.length === 0) {
    const shown = live ?? (result.status === 'filled' ? result.settlement.intent : result.intent);
    await awaitVenue(
      deps,
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
    await fail(deps, signal, found, 'invalid_order', `order ${states}`, executionId);
    return;
  }
  const filledAt =
    result.status === 'filled' && result.settlement.intent.id === last.id
      ? result.settlement.filledAt
      : last.updatedAt;
  if (signal.status !== 'placed') {
    const first = legs[0] as (typeof legs)[number];
    await deps.repo.advance(signal.id, 'placed', {
      step: 'placed',
      at: first.createdAt.getTime() < filledAt.getTime() ? first.createdAt : filledAt,
      detail: `order ${last.exchangeOrderId ?? last.clientOrderId}`,
    });
  }
  const price = cost.div(filled).toDecimalPlaces(10);
  await deps.repo.updateExecution(executionId, {
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
  await finish(deps, signal, 'filled', text, { at: filledAt, message: text });
  await deps.trail({
    config: found.config,
    signalId: signal.id,
    level: 'info',
    event: 'order_filled',
    message: `Signal #${signal.id}: ${text}`,
  });
}

/** The signal's order is at the venue without a final answer: placed, and looked at again. */
async function awaitVenue(
  deps: SignalRunnerDeps,
  signal: WebhookSignalRow,
  executionId: number,
  detail: string,
) {
  if (signal.status !== 'placed') {
    await deps.repo.advance(signal.id, 'placed', { step: 'placed', at: deps.clock.now(), detail });
  }
  await deps.repo.updateExecution(executionId, { status: 'placed', error: null });
  deps.recheckLater(signal.id, signal.configId);
}

export function createSignalRunner(deps: SignalRunnerDeps) {
  return {
    /** Runs the signal to its end, or to its order at the venue (see `recheckLater`). */
    run: run.bind(null, deps),
  };
}
export type SignalRunner = ReturnType<typeof createSignalRunner>;
