import {
  EXPERIENCE_ACCOUNT_BALANCE,
  EXPERIENCE_ACCOUNT_NAME,
  LEVERAGE_MIN,
} from '@quantsquare/contracts';
import { Decimal } from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';
import type { UserRow } from '../../db/schema/index.js';
import type { NewUserHook } from '../auth/user-accounts.service.js';
import { createBalanceSnapshotsRepository } from './balance-snapshots.repository.js';
import { createExchangeAccountsRepository } from './exchange-accounts.repository.js';

/**
 * Every new user's paper "experience account" (the welcome pop-up's new-user bonus): virtual
 * USDT on the simulated fills of paper trading, flagged `is_experience`, created on the
 * transaction that creates the user, with its first balance snapshot (its day start).
 */
export function experienceAccountForNewUsers(clock: Clock): NewUserHook {
  return async (tx: Database, user: UserRow) => {
    const now = clock.now();
    const balance = new Decimal(EXPERIENCE_ACCOUNT_BALANCE).toString();
    const account = await createExchangeAccountsRepository(tx).insert({
      userId: user.id,
      name: EXPERIENCE_ACCOUNT_NAME,
      exchange: 'binance',
      accountType: 'classic',
      isTestnet: false,
      isPaper: true,
      isExperience: true,
      positionMode: 'hedge',
      defaultLeverage: LEVERAGE_MIN,
      isActive: true,
      paperBalance: balance,
      createdAt: now,
      updatedAt: now,
    });
    await createBalanceSnapshotsRepository(tx).insert({
      accountId: account.id,
      takenAt: now,
      equity: balance,
      dailyPnl: '0',
    });
  };
}
