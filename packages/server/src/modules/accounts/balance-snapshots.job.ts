import { nextFullHour, type ScheduledJob } from '../../common/scheduler.js';
import type { EventBus } from '../../events/index.js';
import type { BalanceSnapshotsService } from './balance-snapshots.service.js';
import type { ExchangeAccountsRepository } from './exchange-accounts.repository.js';

export interface SnapshotterLogger {
  warn(details: object, message: string): void;
}

/**
 * Records every active account's equity each hour on the hour (the 16:00 UTC slot is the first
 * of the UTC+8 day, the base of daily P&L) and publishes BalanceChanged for each snapshot it
 * wrote. An account that cannot be read misses that slot only.
 */
export function createBalanceSnapshotter(deps: {
  accounts: ExchangeAccountsRepository;
  snapshots: BalanceSnapshotsService;
  events: EventBus;
  log: SnapshotterLogger;
}): ScheduledJob & { snapshotAll(takenAt: Date): Promise<number> } {
  async function snapshotAll(takenAt: Date): Promise<number> {
    const accounts = await deps.accounts.listActive();
    const results = await Promise.allSettled(
      accounts.map((a) => deps.snapshots.record(a, takenAt)),
    );
    let written = 0;
    for (const [i, result] of results.entries()) {
      const account = accounts[i];
      if (result.status === 'rejected' || !account) {
        deps.log.warn(
          { accountId: account?.id, err: result.status === 'rejected' ? result.reason : null },
          'balance snapshot failed',
        );
        continue;
      }
      // The process that wrote the slot tells (two processes may take the same slot).
      if (!result.value.isNew) continue;
      written += 1;
      const { total, free, used } = result.value.balance;
      await deps.events
        .publish(
          'BalanceChanged',
          {
            accountId: account.id,
            userId: account.userId,
            total,
            free,
            used,
            atMs: takenAt.getTime(),
          },
          `balance:${account.id}:${takenAt.getTime()}`,
        )
        .catch((error: unknown) =>
          deps.log.warn({ accountId: account.id, err: error }, 'BalanceChanged not published'),
        );
    }
    return written;
  }
  return {
    name: 'balance-snapshots',
    nextSlotAfter: nextFullHour,
    run: async (slot) => {
      await snapshotAll(slot);
    },
    snapshotAll,
  };
}
