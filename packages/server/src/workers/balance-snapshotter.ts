import type { BalanceSnapshotsService } from '../modules/accounts/balance-snapshots.service.js';
import type { ExchangeAccountsRepository } from '../modules/exchange-accounts/exchange-accounts.repository.js';
import { nextFullHour, type ScheduledJob } from './scheduler.js';

export interface SnapshotterLogger {
  warn(details: object, message: string): void;
}

/**
 * Records every active account's equity each hour on the hour (the 16:00 UTC slot is the first
 * of the UTC+8 day, the base of daily P&L). An account that cannot be read misses that slot only.
 */
export function createBalanceSnapshotter(deps: {
  accounts: ExchangeAccountsRepository;
  snapshots: BalanceSnapshotsService;
  log: SnapshotterLogger;
}): ScheduledJob & { snapshotAll(takenAt: Date): Promise<number> } {
  async function snapshotAll(takenAt: Date): Promise<number> {
    const accounts = await deps.accounts.listActive();
    const results = await Promise.allSettled(
      accounts.map((a) => deps.snapshots.record(a, takenAt)),
    );
    let written = 0;
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') {
        if (result.value) written += 1;
      } else {
        deps.log.warn(
          { accountId: accounts[i]?.id, err: result.reason },
          'balance snapshot failed',
        );
      }
    });
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
