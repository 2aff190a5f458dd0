import type { AccountSecurity, AuthUser, Profile } from '@quantsquare/contracts';
import Decimal from 'decimal.js';
import type { UserRow } from '../../db/schema/index.js';

/** The user's answer; `balance` is the wallet's (a decimal string). */
export function toAuthUser(user: UserRow, balance: string, now: Date): AuthUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    phone: user.phone,
    platform_balance: new Decimal(balance).toFixed(8),
    is_vip: user.isVip,
    is_vip_active: user.isVip && user.vipExpiresAt !== null && user.vipExpiresAt > now,
    vip_expires_at: user.vipExpiresAt?.toISOString() ?? null,
    invitation_code: user.invitationCode,
    google_auth_enabled: user.twoFactorEnabled,
    two_factor_enabled: user.twoFactorEnabled,
    is_staff: user.isStaff,
    date_joined: user.dateJoined.toISOString(),
  };
}

export function toProfile(user: UserRow, balance: string, now: Date): Profile {
  return {
    ...toAuthUser(user, balance, now),
    nickname: user.nickname,
    bio: user.bio,
    avatar_url: user.avatarUrl,
  };
}

export function toAccountSecurity(user: UserRow): AccountSecurity {
  return {
    email: user.email,
    phone: user.phone,
    google_auth_enabled: user.twoFactorEnabled,
    two_factor_enabled: user.twoFactorEnabled,
  };
}
