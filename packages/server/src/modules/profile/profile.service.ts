import {
  AUTH_MESSAGES,
  AVATAR_FORMATS,
  AVATAR_MAX_SIDE_PX,
  type AvatarDeleteResponse,
  type AvatarUploadResponse,
  ERROR_CODES,
  FIELD_ERROR_CODES,
  type OwnProfile,
  PROFILE_MESSAGES,
  type ProfileUpdateRequest,
  WALLET_ERROR_CODES,
} from '@quantsquare/contracts';
import Decimal from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import type { CoinBalanceReader } from '../../common/coin-balances.js';
import { NotFound, ValidationFailed } from '../../common/errors.js';
import type { Database } from '../../db/database.js';
import type { UserRow } from '../../db/schema/index.js';
import { type ImageStore, UnsupportedImage } from '../../uploads/image-store.js';
import { type AvatarChange, profileQueries } from './profile.repository.js';
import type { SocialStats } from './social-stats.js';

/**
 * Profile settings: nickname, bio and avatar, shared by PUT /auth/profile/ and
 * PUT /strategy-square/profile/. avatar_url is only ever an avatar this user uploaded: a PUT may
 * send the current one back or null (removes it); anything else is refused, so one user can
 * neither show nor delete another's file.
 */
export function createProfileService(deps: {
  db: Database;
  clock: Clock;
  images: ImageStore;
  socialStats: SocialStats;
  /** The wallet's coin balances, shown on the own profile. */
  balances: CoinBalanceReader;
}) {
  const { clock, images, socialStats, balances } = deps;
  const q = profileQueries(deps.db);

  async function removeReplaced(previous: string | null, now: string | null): Promise<void> {
    if (previous && previous !== now && images.isOwnUrl(previous, 'avatars')) {
      await images.remove(previous);
    }
  }

  async function change(
    userId: number,
    fields: { nickname?: string; bio?: string },
    avatar: AvatarChange,
  ): Promise<UserRow> {
    const result = await q.update(userId, fields, avatar);
    if (result.kind === 'missing')
      throw new NotFound(AUTH_MESSAGES.userNotFound, ERROR_CODES.userNotFound);
    if (result.kind === 'mismatch') {
      throw ValidationFailed.field(
        'avatar_url',
        PROFILE_MESSAGES.avatarNotOwn,
        WALLET_ERROR_CODES.avatarNotOwn,
      );
    }
    await removeReplaced(result.previousAvatar, result.user.avatarUrl);
    return result.user;
  }

  async function toOwnProfile(user: UserRow): Promise<OwnProfile> {
    const now = clock.now();
    return {
      user_id: user.id,
      nickname: user.nickname,
      bio: user.bio,
      avatar_url: user.avatarUrl,
      created_at: user.dateJoined.toISOString(),
      platform_balance: new Decimal(await balances.balanceOf(user.id)).toFixed(8),
      is_vip: user.isVip,
      is_vip_active: user.isVip && user.vipExpiresAt !== null && user.vipExpiresAt > now,
      vip_expires_at: user.vipExpiresAt?.toISOString() ?? null,
      ...(await socialStats.statsFor(user.id)),
    };
  }

  /** Applies a profile update (both PUT routes); answers the updated user. */
  async function applyUpdate(userId: number, request: ProfileUpdateRequest): Promise<UserRow> {
    const fields: { nickname?: string; bio?: string } = {};
    if (request.nickname !== undefined) fields.nickname = request.nickname;
    if (request.bio !== undefined) fields.bio = request.bio;
    const avatar: AvatarChange =
      request.avatar_url === undefined
        ? { kind: 'keep' }
        : request.avatar_url === null
          ? { kind: 'set', url: null }
          : { kind: 'expect', url: request.avatar_url };
    return change(userId, fields, avatar);
  }

  return {
    applyUpdate,

    async own(userId: number): Promise<OwnProfile> {
      const user = await q.findUser(userId);
      if (!user) throw new NotFound(AUTH_MESSAGES.userNotFound, ERROR_CODES.userNotFound);
      return toOwnProfile(user);
    },

    async update(userId: number, request: ProfileUpdateRequest): Promise<OwnProfile> {
      return toOwnProfile(await applyUpdate(userId, request));
    },

    /** Stores the image (type from its content, re-encoded) and makes it the avatar at once. */
    async uploadAvatar(userId: number, bytes: Buffer): Promise<AvatarUploadResponse> {
      let url: string;
      try {
        url = (
          await images.save(bytes, {
            folder: 'avatars',
            accept: AVATAR_FORMATS,
            maxSidePx: AVATAR_MAX_SIDE_PX,
          })
        ).url;
      } catch (error) {
        if (error instanceof UnsupportedImage) {
          throw ValidationFailed.field(
            'avatar',
            PROFILE_MESSAGES.unsupportedFormat,
            FIELD_ERROR_CODES.unsupportedFormat,
          );
        }
        throw error;
      }
      try {
        await change(userId, {}, { kind: 'set', url });
      } catch (error) {
        await images.remove(url);
        throw error;
      }
      return { avatar_url: url };
    },

    async deleteAvatar(userId: number): Promise<AvatarDeleteResponse> {
      await change(userId, {}, { kind: 'set', url: null });
      return { avatar_url: null, message: PROFILE_MESSAGES.avatarRemoved };
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
