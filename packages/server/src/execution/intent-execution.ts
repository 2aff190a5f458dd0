// Running intents, the execution core's work in an account's lane: one intent planned, gated,
// written once and driven leg by leg (a refused leg withdraws the legs after it); many intents
// fanned out across accounts; and after a restart, an owner's unsettled intents followed up at
// the venue, never resent.
import { Decimal } from 'decimal.js';
import type {
  ExchangeAccountRow,
  ExecutionOrderRow,
  NewExecutionOrderRow,
} from '../db/schema/index.js';
import type { AccountLanes } from './account-lanes.js';
import { clientOrderIdOf } from './client-order-id.js';
import type { CoreLoaders } from './core-loaders.js';
import type { ExecutionRepository } from './execution.repository.js';
import {
  ExecutionError,
  type IntentReconciliation,
  type IntentResult,
  type OrderIntent,
  type OrderOwner,
  type OwnerPosition,
  type PositionRef,
} from './execution.types.js';
import type { ExecutionCoreDeps, VenueQuotes } from './execution-core.js';
import type { OrderDriver } from './order-driver.js';
import { type PlannedLeg, planOrder } from './order-plan.js';
import { isFollowed } from './order-states.js';
import { decideGate } from './risk-gate.js';
import { flatPosition, type SettleOutcome } from './settlement.js';

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

/** What running one intent needs of its core. */
export interface ExecuteContext {
  readonly repo: ExecutionRepository;
  readonly clock: ExecutionCoreDeps['clock'];
  readonly deps: ExecutionCoreDeps;
  readonly loaders: CoreLoaders;
  readonly drive: OrderDriver['drive'];
}

/** A failed leg's later legs (still created) are withdrawn: they never go out alone. */
async function withdrawLaterLegs(
  { repo, clock }: ExecuteContext,
  later: readonly ExecutionOrderRow[],
  failed: ExecutionOrderRow,
): Promise<void> {
  for (const leg of later) {
    if (leg.status !== 'created') continue;
    const reason = `withdrawn: the leg before it (${failed.clientOrderId}) failed`;
    await repo.withdrawCreated(leg.id, reason, clock.now());
  }
}

/** One intent in its account's lane: planned, gated and written once, then driven leg by leg. */
export async function execute(
  context: ExecuteContext,
  intent: OrderIntent,
  account: ExchangeAccountRow,
): Promise<IntentResult> {
  const { repo, clock, deps, drive } = context;
  const { keyLoader, bookLoader, intentWriter, riskLoader } = context.loaders;
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
    await passGate({ repo, riskLoader, quotes: deps.quotes }, account, intent, pricing, plan.legs);
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
        await withdrawLaterLegs(context, rows.slice(index + 1), row);
      }
      throw error;
    }
  }
  return resultOf(outcomes, own);
}

/**
 * Submits many intents (a leader's fill copied to every follower): accounts run side by side, at
 * most FAN_OUT_CONCURRENCY at once; each account's intents one after another, in the order
 * given. One result per intent, in order.
 */
export async function submitAll(
  submit: (intent: OrderIntent) => Promise<IntentResult>,
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
            value: await submit(intents[index] as OrderIntent),
          };
        } catch (reason) {
          results[index] = { status: 'rejected', reason };
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(FAN_OUT_CONCURRENCY, queues.length) }, worker));
  return results;
}

/** What reconciling an owner's orders after a restart needs of its core. */
export interface ReconcileContext {
  readonly repo: ExecutionRepository;
  readonly lanes: AccountLanes;
  readonly accountOf: (accountId: number) => Promise<ExchangeAccountRow>;
  readonly clients: ExecutionCoreDeps['clients'];
  readonly followStep: OrderDriver['followStep'];
  readonly follower: OrderDriver['follower'];
}

/**
 * After a restart: each pending or unknown intent of `owner` is looked up at the exchange by its
 * client order id — found: settled into the book; absent: failed. Never resent.
 */
export async function reconcileIntentsOf(
  context: ReconcileContext,
  owner: OrderOwner,
): Promise<IntentReconciliation[]> {
  const { repo, lanes, accountOf, clients, followStep, follower } = context;
  const report: IntentReconciliation[] = [];
  for (const intent of await repo.unsettledIntentsOf(owner)) {
    const account = await accountOf(intent.accountId);
    const entry = await lanes.run(account.id, async (): Promise<IntentReconciliation> => {
      // Never claimed, so never sent: nothing is at the venue. It stays created: the same
      // key submitted again (the owner's next pass, the signal run again) sends it once.
      if (intent.status === 'created') return { outcome: 'never_sent', intent };
      if (!isFollowed(intent)) return { outcome: 'in_flight', intent };
      const step = await followStep(account, clients(account), intent);
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
}
