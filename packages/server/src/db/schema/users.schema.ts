import {
  type AnyPgColumn,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** The sign-in name: the e-mail or the phone the account was registered with. */
    username: text('username').notNull().unique(),
    email: text('email').unique(),
    phone: text('phone').unique(),
    passwordHash: text('password_hash').notNull(),
    nickname: text('nickname').notNull().default(''),
    bio: text('bio').notNull().default(''),
    avatarUrl: text('avatar_url'),
    isVip: boolean('is_vip').notNull().default(false),
    vipExpiresAt: timestamp('vip_expires_at', { withTimezone: true }),
    invitationCode: text('invitation_code').notNull().unique(),
    invitedById: integer('invited_by').references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    isStaff: boolean('is_staff').notNull().default(false),
    /** google_auth_enabled and two_factor_enabled are one flag. */
    twoFactorEnabled: boolean('two_factor_enabled').notNull().default(false),
    /** TOTP seeds, encrypted with the secret box; never plaintext. */
    totpSecret: text('totp_secret'),
    totpPendingSecret: text('totp_pending_secret'),
    /** Last accepted TOTP time step: a step is accepted once. */
    totpLastStep: integer('totp_last_step'),
    dateJoined: timestamp('date_joined', { withTimezone: true }).notNull(),
  },
  (t) => [
    // The inviter's referral list and counts.
    index('users_invited_by_idx').on(t.invitedById),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
