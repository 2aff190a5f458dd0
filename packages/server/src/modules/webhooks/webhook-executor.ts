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

/** What the executor uses. */
export interface WebhookExecutorDeps {
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
}

/**
 * The queue of accepted signals: per configuration one at a time, in order of arrival, where
 * this process holds the configuration's lease.
 */
class SignalQueue {
  /** Per configuration: its signals and passes, one at a time, in order of arrival. */
  private readonly chains = createKeyedQueue<number>();
  private readonly queued = new Set<number>();
  private timer: NodeJS.Timeout | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  /** Configurations whose intents this process has reconciled since it took their lease. */
  private readonly reconciled = new Set<number>();
  private running = false;
  private stopped = false;
  /** Configurations with a drain pass queued and not yet started. */
  private readonly wakePending = new Set<number>();
  /** Configurations woken while another process held them (taken over if it died). */
  private readonly wanted = new Set<number>();
  private unsubscribe: (() => void) | undefined;
  /** Signals whose order is at the venue without a final answer, and their fallback timer. */
  private readonly awaiting = new Map<number, { configId: number; timer: NodeJS.Timeout }>();
  private readonly run: (signalId: number) => Promise<void>;
  /** Polls and lease ticks on their way: a stop waits for them before it lets the leases go. */
  private readonly background = new Set<Promise<void>>();

  constructor(private readonly deps: WebhookExecutorDeps) {
    this.run = createSignalRunner({
      ...deps,
      recheckLater: (signalId, configId) => this.recheckLater(signalId, configId),
    }).run;
    deps.execution.onOrderFinal('webhook', (intent) => {
      const signalId = signalIdOf(intent.idempotencyKey);
      if (signalId !== null) this.runAgain(signalId);
    });
  }

  /** Runs a timer's work where a stop can wait for it. */
  private inBackground(work: Promise<void>): Promise<void> {
    this.background.add(work);
    void work.finally(() => this.background.delete(work)).catch(() => undefined);
    return work;
  }

  /** Looks at a signal left placed again once its wait is over (or its order is final). */
  private recheckLater(signalId: number, configId: number): void {
    const again = setTimeout(() => this.runAgain(signalId), IN_FLIGHT_RECHECK_MS);
    again.unref();
    this.awaiting.set(signalId, { configId, timer: again });
  }

  /** Runs a signal that waited on its order again (its order is final, or the wait is over). */
  private runAgain(signalId: number): void {
    const waiting = this.awaiting.get(signalId);
    if (!waiting) return;
    this.awaiting.delete(signalId);
    clearTimeout(waiting.timer);
    this.queued.delete(signalId);
    this.enqueue(signalId, waiting.configId);
  }

  /**
   * Reconciles a configuration's intents left by a previous holder (a restart, or a process that
   * died): found orders settle, live ones are followed by the core. Their signals then run again
   * under the same key and read what became of them (an order never sent ends its signal).
   */
  private async reconcileConfig(configId: number): Promise<void> {
    await this.deps.execution.reconcileIntents(ownerOf(configId));
  }

  /**
   * Whether this process runs the configuration's signals now: it holds (or takes) its lease, and
   * has reconciled what a previous holder left. Called inside the configuration's chain.
   */
  private async holds(configId: number): Promise<boolean> {
    const leases = this.deps.leases;
    if (leases) {
      const resource = webhookLease(configId);
      if (!leases.isHeld(resource) && !this.stopped) await leases.acquire([resource]);
      if (!leases.isHeld(resource)) {
        this.reconciled.delete(configId);
        return false;
      }
    }
    if (!this.reconciled.has(configId)) {
      await this.reconcileConfig(configId);
      this.reconciled.add(configId);
    }
    return true;
  }

  /** Runs `work` after the configuration's earlier work in this process (one at a time). */
  private inChain(configId: number, work: () => Promise<void>, signalId?: number): void {
    void this.chains
      .run(configId, work)
      .catch((error) =>
        this.deps.log.error({ err: error, configId, signalId }, 'webhook signal execution failed'),
      )
      .finally(() => {
        if (signalId !== undefined) this.queued.delete(signalId);
      });
  }

  /**
   * Runs the signal after its configuration's earlier ones (in this process), if this process
   * holds the configuration (a signal whose order became final, or left in flight).
   */
  enqueue(signalId: number, configId: number): void {
    if (this.stopped || this.queued.has(signalId)) return;
    this.queued.add(signalId);
    this.inChain(
      configId,
      async () => {
        if (await this.holds(configId)) await this.run(signalId);
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
  wake(configId: number): void {
    if (this.stopped || !this.running || this.wakePending.has(configId)) return;
    this.wakePending.add(configId);
    this.inChain(configId, async () => {
      this.wakePending.delete(configId);
      const isTakeover = !this.reconciled.has(configId);
      if (!(await this.holds(configId))) {
        // Another process holds it: if that holder died, the lease tick takes it over.
        if (this.deps.leases) this.wanted.add(configId);
        return;
      }
      this.wanted.delete(configId);
      const lease = webhookLease(configId);
      const stillHeld = () => !this.deps.leases || this.deps.leases.isHeld(lease);
      // Taken over: what the previous holder left in flight goes first (it was reconciled).
      const leftInFlight = isTakeover
        ? await this.deps.repo.signalIdsOf(configId, ['intent', 'placed'], DRAIN_BATCH)
        : [];
      for (const id of leftInFlight) {
        if (!stillHeld() || this.stopped) return;
        if (!this.awaiting.has(id)) await this.runGuarded(id);
      }
      const attempted = new Set<number>();
      while (stillHeld() && !this.stopped) {
        const ids = (await this.deps.repo.signalIdsOf(configId, ['validated'], DRAIN_BATCH)).filter(
          (id) => !attempted.has(id),
        );
        if (ids.length === 0) return;
        for (const id of ids) {
          if (!stillHeld() || this.stopped) return;
          // A signal that stays validated after its run (its configuration went) is not retried
          // in this pass: the pass ends instead of spinning on it.
          attempted.add(id);
          await this.runGuarded(id);
        }
      }
    });
  }

  /** One signal's run; its failure is logged and the configuration's next signal still runs. */
  private async runGuarded(signalId: number): Promise<void> {
    try {
      await this.run(signalId);
    } catch (error) {
      this.deps.log.error({ err: error, signalId }, 'webhook signal execution failed');
    }
  }

  /**
   * The slow look at the queue, for wake-ups that were lost (a bus message dropped, a process
   * that accepted a signal and had no bus to tell the holder): every configuration with signals
   * waiting is woken here; and the signals left in flight by a previous holder run, once, when
   * this process takes their configuration over (reconciled first).
   */
  private async poll(): Promise<void> {
    const configs = await this.deps.repo.configsWithPendingSignals();
    const leases = this.deps.leases;
    if (leases) {
      if (this.stopped) return;
      await leases.acquire(
        configs.filter((id) => !leases.isHeld(webhookLease(id))).map(webhookLease),
      );
    }
    // A configuration taken over runs what its previous holder left in flight first (wake).
    for (const configId of configs) {
      if (!leases || leases.isHeld(webhookLease(configId))) this.wake(configId);
      else this.wanted.add(configId);
    }
  }

  /**
   * The lease tick: renews what this process holds, and takes over the configurations it was
   * woken for while another process held them, if they still have signals waiting and that
   * holder stopped renewing (it died): they run within the lease's time to live.
   */
  private async leaseTick(leases: Leases): Promise<void> {
    const lost = await leases.renew();
    for (const resource of lost) this.reconciled.delete(Number(resource.split(':')[1]));
    if (this.wanted.size === 0) return;
    const candidates = [...this.wanted];
    this.wanted.clear();
    const waiting = await this.deps.repo.configsWaiting(candidates);
    if (waiting.length === 0) return;
    if (this.stopped) return;
    const taken = await leases.acquire(waiting.map(webhookLease));
    for (const configId of waiting) {
      if (taken.includes(webhookLease(configId))) this.wake(configId);
      else this.wanted.add(configId);
    }
  }

  /** Recovers what a previous process left, then listens for wake-ups (and polls slowly). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    const events = this.deps.events;
    if (events) {
      this.unsubscribe = events.subscribe('WebhookSignalAccepted', (event) =>
        this.wake(event.payload.configId),
      );
    }
    await this.poll();
    const interval = this.deps.pollIntervalMs ?? WEBHOOK_SAFETY_POLL_MS;
    this.timer = setInterval(() => {
      void this.inBackground(this.poll()).catch((error) =>
        this.deps.log.warn({ err: error }, 'webhook queue poll failed'),
      );
    }, interval);
    this.timer.unref();
    const leases = this.deps.leases;
    if (leases) {
      this.leaseTimer = setInterval(() => {
        void this.inBackground(this.leaseTick(leases)).catch((error) =>
          this.deps.log.warn({ err: error }, 'webhook lease renewal failed'),
        );
      }, this.deps.leaseRenewMs ?? LEASE_RENEW_MS);
      this.leaseTimer.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.running = false;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.timer) clearInterval(this.timer);
    if (this.leaseTimer) clearInterval(this.leaseTimer);
    this.timer = undefined;
    this.leaseTimer = undefined;
    for (const waiting of this.awaiting.values()) clearTimeout(waiting.timer);
    this.awaiting.clear();
    this.wanted.clear();
    await this.chains.idle();
    await Promise.allSettled([...this.background]);
    // Another process takes the configurations over at once. Only this executor's leases: the
    // process's bots and copy relations share its holder id and keep theirs.
    const leases = this.deps.leases;
    if (leases) await leases.release(leases.held()).catch(() => undefined);
    this.reconciled.clear();
  }

  /** Waits until every queued signal has run (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.queued.size > 0 || this.chains.size() > 0) {
      await this.chains.idle();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

export function createWebhookExecutor(deps: WebhookExecutorDeps) {
  return new SignalQueue(deps);
}
export type WebhookExecutor = SignalQueue;
