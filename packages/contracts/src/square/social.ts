import { z } from 'zod';
import {
  COMMENT_MAX_LENGTH,
  COMMENTS_PAGE_SIZE,
  SQUARE_DEFAULT_PERIOD,
  SQUARE_MESSAGES,
  SQUARE_PERIODS,
} from './constants.js';
import { strategyCard } from './listing.js';

// The square's social side: follows, likes, comments, public profiles.

// ---- social -----------------------------------------------------------------------------------

export const followResponse = z.object({
  is_following: z.boolean(),
  followers_count: z.number().int(),
});
export type FollowResponse = z.infer<typeof followResponse>;

/** The four counts on a profile (also /my/settings). */
export const socialStats = z.object({
  following_count: z.number().int(),
  followers_count: z.number().int(),
  public_strategies_count: z.number().int(),
  total_copiers: z.number().int(),
});
export type SocialStats = z.infer<typeof socialStats>;

/** GET /strategy-square/users/{id}/profile/: never an e-mail or phone. */
export const publicProfile = socialStats.extend({
  user_id: z.number().int(),
  nickname: z.string(),
  bio: z.string(),
  avatar_url: z.string().nullable(),
  /** When the user joined. */
  created_at: z.string(),
  is_following: z.boolean(),
  is_self: z.boolean(),
  /** Only on one's own profile. */
  platform_balance: z.string().optional(),
});
export type PublicProfile = z.infer<typeof publicProfile>;

/** GET /strategy-square/users/{id}/detail/: the profile and its public strategies. */
export const publicProfileDetail = publicProfile.extend({ strategies: z.array(strategyCard) });
export type PublicProfileDetail = z.infer<typeof publicProfileDetail>;

export const userStrategiesQuery = z.strictObject({
  period: z.enum(SQUARE_PERIODS).default(SQUARE_DEFAULT_PERIOD),
});
export const userStrategyList = z.object({
  results: z.array(strategyCard),
  count: z.number().int(),
});
export type UserStrategyList = z.infer<typeof userStrategyList>;

export const commentCreateRequest = z.strictObject({
  content: z
    .string()
    .max(COMMENT_MAX_LENGTH * 4)
    .transform((s) => s.trim())
    .pipe(
      z
        .string()
        .min(1, { message: SQUARE_MESSAGES.commentEmpty })
        .refine((s) => [...s].length <= COMMENT_MAX_LENGTH, {
          message: SQUARE_MESSAGES.commentTooLong,
          params: { code: 'too_long' },
        }),
    ),
  /** Reply to this comment; a reply to a reply joins its thread (one level of nesting). */
  parent_id: z.number().int().positive().nullable().optional(),
});
export type CommentCreateRequest = z.infer<typeof commentCreateRequest>;

export const commentListQuery = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(COMMENTS_PAGE_SIZE),
});

const commentFields = {
  id: z.number().int(),
  content: z.string(),
  parent_id: z.number().int().nullable(),
  user_id: z.number().int(),
  user_nickname: z.string(),
  user_avatar: z.string().nullable(),
  created_at: z.string(),
  likes_count: z.number().int(),
  is_liked: z.boolean(),
};
export const strategyReply = z.object({ ...commentFields, replies: z.array(z.never()) });
/**
 * Plain text as the user typed it (trimmed): clients render it as text, never as HTML.
 * `replies` (oldest first) are filled on top-level comments only.
 */
export const strategyComment = z.object({ ...commentFields, replies: z.array(strategyReply) });
export type StrategyComment = z.infer<typeof strategyComment>;
export type StrategyReply = z.infer<typeof strategyReply>;

/** Top-level comments newest first (paged), each with its replies; `total` counts replies too. */
export const commentList = z.object({
  results: z.array(strategyComment),
  count: z.number().int(),
  total: z.number().int(),
});
export type CommentList = z.infer<typeof commentList>;

export const likeResponse = z.object({ is_liked: z.boolean(), likes_count: z.number().int() });
export type LikeResponse = z.infer<typeof likeResponse>;
