// The background follower: every live order this process sent or took over, looked up on a timer
// in its account's lane until it is final. Its settlements run the owners' hooks and publish
// events, so drivers hear of fills that came after their submit answered.
import type { ExchangeAccountRow, ExecutionOrderRow } from '../db/schema/index.js';
import type { ExchangeClient } from '../exchange/exchange-client.js';
import type { OrderDriverDeps } from './order-driver.js';
import { isFollowed } from './order-states.js';
import type { SettleOutcome } from './settlement.js';

/** The background follower's pass. */
const FOLLOW_PASS_MS = 1_000;

/** One lookup of a followed order and what it says (the driver's followStep). */
export type FollowStep = (
  account: ExchangeAccountRow,
  client: ExchangeClient,
  row: ExecutionOrderRow,
) => Promise<SettleOutcome>;

export class OrderFollower {
  private readonly followed = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly deps: Pick<
      OrderDriverDeps,
      'repo' | 'lanes' | 'accountOf' | 'clients' | 'finalListeners' | 'log'
    >,
    private readonly followStep: FollowStep,
  ) {}

  /** Follows `row` from the next pass on, until it is final. */
  track(row: ExecutionOrderRow): void {
    this.followed.add(row.id);
    this.schedule();
  }

  /** Orders followed now (ids). */
  tracked(): number[] {
    return [...this.followed];
  }

  /**
   * Stops following. Live orders get up to `drainMs` to become final first (a deploy lets its
   * in-flight orders settle); what is still live then is followed after the restart.
   */
  async stop(drainMs: number): Promise<void> {
    const deadline = Date.now() + drainMs;
    while (this.followed.size > 0 && Date.now() < deadline) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      await this.running;
      this.running = this.pass();
      await this.running;
      this.running = undefined;
      if (this.followed.size > 0) {
        const waitMs = Math.max(0, Math.min(FOLLOW_PASS_MS, deadline - Date.now()));
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(): void {
    if (this.timer || this.followed.size === 0 || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.pass().finally(() => {
        this.running = undefined;
        this.schedule();
      });
    }, FOLLOW_PASS_MS);
    this.timer.unref?.();
  }

  /** Looks up every followed order once, each in its account's lane; forgets the final ones. */
  private async pass(): Promise<void> {
    const { repo, lanes, accountOf, clients, finalListeners, log } = this.deps;
    const rows = await repo.intentsByIds([...this.followed]).catch(() => []);
    const live = rows.filter(isFollowed);
    for (const row of rows) if (!isFollowed(row)) this.followed.delete(row.id);
    await Promise.all(
      live.map(async (row) => {
        try {
          const account = await accountOf(row.accountId);
          const step = await lanes.run(account.id, () =>
            this.followStep(account, clients(account), row),
          );
          if (!isFollowed(step.intent)) {
            this.followed.delete(row.id);
            finalListeners.get(step.intent.ownerKind)?.(step.intent);
          }
        } catch (error) {
          log?.error({ err: error, clientOrderId: row.clientOrderId }, 'follow failed');
        }
      }),
    );
  }
}
