import type { Database } from '../../db/database.js';
import { type AuthRepository, createAuthRepository } from './auth.repository.js';
import {
  createUserRecordsRepository,
  type UserRecordsRepository,
} from './user-records.repository.js';

// The auth module is the one writer of `users` (STYLE 15). Other modules change a user's
// profile, VIP, invitation code or stored secrets here; `db` may be their transaction (a VIP
// purchase and its ledger rows commit together, a profile change holds the user's row).

export type UserRecords = UserRecordsRepository;

/** The user writes bound to `db` (the database or a caller's transaction). */
export function userRecordsOn(db: Database): UserRecords {
  return createUserRecordsRepository(db);
}

/** The auth module's user accounts bound to `db` (the admin CLI's staff and VIP changes). */
export function userAccountsOn(db: Database): AuthRepository {
  return createAuthRepository(db);
}
