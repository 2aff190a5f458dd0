import type { Clock } from '../../common/clock.js';
import { createKeyedQueue } from '../../common/keyed-queue.js';
import { LEASE_RENEW_MS, type Leases, webhookLease } from '../../common/leases.js';
import type { ServiceLogger } from '../../common/logger.js';
import type { Database } from '../../db/database.js';
import type { EventBus } from '../../events/index.js';
import type { Outbox } from '../../events/outbox.js';
import type { PriceSource } from '../../exchange/paper/price-source.js';
import type { ExecutionCore } from '../../execution/index.js';
import type { OperationLogWriter } from '../operation-log/operation-log.service.js';
import { ownerOf, signalIdOf, type TrailLog } from './webhook-signal-plan.js';
import { createSignalRunner } from './webhook-signal-run.js';
import type { WebhooksRepository } from './webhooks.repository.js';

export {
  failureKindOf,
  intentKeyOf,
  ownerOf,
  planSignal,
  type SignalPlan,
  signalIdOf,
  type TrailLog,
} from './webhook-signal-plan.js';

// The background executor: accepted signals are rows in a pending status (the durable queue);
// each runs once through the execution core under the idempotency key derived from its id, one
// signal of a configuration at a time. After a restart the signals in flight are reconciled at
// the exchange by client order id first, then driven to their end with the same key: a signal
// interrupted between intent and fill completes once. The signal only submits and listens: the
// core retries what may be retried, under the same key; an order it rejects ends the signal. With leases (more than one process) a
// configuration's signals run only in the process holding its lease; a process that takes a
// configuration over (its holder died) reconciles the configuration's intents first. One
// signal's run (plan, intent, order, trail) is webhook-signal-run.ts; this file is its queue.

/**
 * How soon a signal whose order is still at the venue without a final answer is run again, at
 * the latest: the core's follower tells as soon as the order is final (when it follows it here).
 */
const IN_FLIGHT_RECHECK_MS = 2_000;

/** The slow look at the queue that makes good lost wake-ups. */
export const WEBHOOK_SAFETY_POLL_MS = 15_000;
/** Signals of a configuration read per pass of its queue. */
const DRAIN_BATCH = 50;

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
  const { repo, execution } = deps;
  /** Per configuration: its signals and passes, one at a time, in order of arrival. */
  const chains = createKeyedQueue<number>();
  const queued = new Set<number>();
  let timer: NodeJS.Timeout | undefined;
  let leaseTimer: NodeJS.Timeout | undefined;
  /** Configurations whose intents this process has reconciled since it took their lease. */
  const reconciled = new Set<number>();
  let running = false;
  let stopped = false;
  /** Configurations with a drain pass queued and not yet started. */
  const wakePending = new Set<number>();
  /** Configurations woken while another process held them (taken over if it died). */
  const wanted = new Set<number>();
  let unsubscribe: (() => void) | undefined;
  /** Signals whose order is at the venue without a final answer, and their fallback timer. */
  const awaiting = new Map<number, { configId: number; timer: NodeJS.Timeout }>();
  const { run } = createSignalRunner({ ...deps, recheckLater });

  /** Looks at a signal left placed again once its wait is over (or its order is final). */
  function recheckLater(signalId: number, configId: number): void {
    const again = setTimeout(() => runAgain(signalId), IN_FLIGHT_RECHECK_MS);
    again.unref();
    awaiting.set(signalId, { configId, timer: again });
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
    void chains
      .run(configId, work)
      .catch((error) =>
        deps.log.error({ err: error, configId, signalId }, 'webhook signal execution failed'),
      )
      .finally(() => {
        if (signalId !== undefined) queued.delete(signalId);
      });
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
      await chains.idle();
      // Another process takes the configurations over at once. Only this executor's leases: the
      // process's bots and copy relations share its holder id and keep theirs.
      const leases = deps.leases;
      if (leases) await leases.release(leases.held()).catch(() => undefined);
      reconciled.clear();
    },
    /** Waits until every queued signal has run (tests, shutdown). */
    async idle(): Promise<void> {
      while (queued.size > 0 || chains.size() > 0) {
        await chains.idle();
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}
export type WebhookExecutor = ReturnType<typeof createWebhookExecutor>;
