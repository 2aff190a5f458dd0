import { z } from 'zod';

// Profile settings (document 2 §2 "Profile settings", §3 Public profile / Profile update, §5, §7
// /strategy-square/profile/). Nickname and bio limits are in limits.ts; the update request is
// auth.ts's profileUpdateRequest, shared by PUT /auth/profile/ and PUT /strategy-square/profile/.

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Accepted avatar formats, decided from the file's content (jpg is jpeg). */
export const AVATAR_FORMATS = ['jpeg', 'png', 'gif', 'webp'] as const;
export type AvatarFormat = (typeof AVATAR_FORMATS)[number];
/** The file picker's filter; the server decides by content, never by name. */
export const AVATAR_ACCEPT = 'image/jpeg,image/png,image/gif,image/webp';
/** Stored avatars are scaled down to fit this square. */
export const AVATAR_MAX_SIDE_PX = 512;

export const PROFILE_MESSAGES = {
  fileTooLarge: 'File too large, max 5MB',
  unsupportedFormat: 'Format not supported, choose JPG, PNG, GIF or WebP',
  fileRequired: 'Choose an image file to upload (multipart field "avatar")',
  uploadMalformed: 'The upload was cut off or malformed; try again',
  avatarNotOwn: 'avatar_url must be the avatar uploaded with upload-avatar, or null to remove it',
  avatarRemoved: 'Avatar removed',
} as const;

/** Following, followers, public strategies and copiers (zeros until the square provides them). */
export const socialCounts = z.object({
  following_count: z.number().int(),
  followers_count: z.number().int(),
  public_strategies_count: z.number().int(),
  total_copiers: z.number().int(),
});
export type SocialCounts = z.infer<typeof socialCounts>;

/** GET/PUT /strategy-square/profile/: the signed-in user's own profile with its stats. */
export const ownProfile = socialCounts.extend({
  user_id: z.number().int(),
  nickname: z.string(),
  bio: z.string(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
  platform_balance: z.string(),
  is_vip: z.boolean(),
  is_vip_active: z.boolean(),
  vip_expires_at: z.string().nullable(),
});
export type OwnProfile = z.infer<typeof ownProfile>;

/** POST /strategy-square/profile/upload-avatar/ (multipart field `avatar`). */
export const avatarUploadResponse = z.object({ avatar_url: z.string() });
export type AvatarUploadResponse = z.infer<typeof avatarUploadResponse>;

/** DELETE /strategy-square/profile/delete-avatar/. */
export const avatarDeleteResponse = z.object({
  avatar_url: z.null(),
  message: z.string(),
});
export type AvatarDeleteResponse = z.infer<typeof avatarDeleteResponse>;
