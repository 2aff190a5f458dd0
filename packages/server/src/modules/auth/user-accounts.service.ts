import { randomInt } from 'node:crypto';
import { AUTH_MESSAGES, FIELD_ERROR_CODES } from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import { ValidationFailed } from '../../common/errors.js';
import type { Database } from '../../db/database.js';
import type { UserRow } from '../../db/schema/index.js';
import type { AuthRepository } from './auth.repository.js';
import { hashPassword } from './password.hasher.js';

// No 0/O, 1/I/L: invitation codes are read aloud and typed by hand.
const INVITATION_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const INVITATION_LENGTH = 8;

/** A fresh random invitation code (the wallet replaces codes with it). */
export const newInvitationCode = (): string =>
  Array.from(
    { length: INVITATION_LENGTH },
    () => INVITATION_ALPHABET[randomInt(INVITATION_ALPHABET.length)],
  ).join('');

/** What is created with a new user, on the transaction that inserts it. */
export type NewUserHook = (tx: Database, user: UserRow) => Promise<void>;

/**
 * Creates a user (registration, admin CLI): hashed password, a fresh unique invitation code;
 * `withUser` adds what every new user gets in the same transaction.
 */
export async function createUserAccount(
  repo: AuthRepository,
  clock: Clock,
  values: {
    email: string | null;
    phone: string | null;
    password: string;
    invitedById: number | null;
    isStaff?: boolean;
    withUser?: NewUserHook | undefined;
  },
): Promise<UserRow> {
  const passwordHash = await hashPassword(values.password);
  for (let attempt = 0; attempt < 5; attempt++) {
    const user = await repo.insertUser(
      {
        username: values.email ?? values.phone!,
        email: values.email,
        phone: values.phone,
        passwordHash,
        invitationCode: newInvitationCode(),
        invitedById: values.invitedById,
        isStaff: values.isStaff ?? false,
        dateJoined: clock.now(),
      },
      values.withUser,
    );
    if (user) return user;
    // Nothing inserted: either the e-mail/phone was taken meanwhile or the invitation code collided.
    if (values.email && (await repo.findUserByEmail(values.email))) {
      throw ValidationFailed.field(
        'email',
        AUTH_MESSAGES.emailAlreadyRegistered,
        FIELD_ERROR_CODES.emailTaken,
      );
    }
    if (values.phone && (await repo.findUserByPhone(values.phone))) {
      throw ValidationFailed.field(
        'phone',
        AUTH_MESSAGES.phoneAlreadyRegistered,
        FIELD_ERROR_CODES.phoneTaken,
      );
    }
  }
  throw new Error('Could not allocate a unique invitation code');
}
