import {
  COMMENT_RATE_PER_HOUR,
  COMMENT_RATE_PER_MINUTE,
  type CommentCreateRequest,
  type CommentList,
  type FollowResponse,
  type LikeResponse,
  type PublicProfile,
  type PublicProfileDetail,
  type SocialStats,
  SQUARE_ERROR_CODES,
  SQUARE_MESSAGES,
  type SquarePeriod,
  type StrategyComment,
  type StrategyReply,
} from '@quantsquare/contracts';
import Decimal from 'decimal.js';
import type { Clock } from '../../common/clock.js';
import type { CoinBalanceReader } from '../../common/coin-balances.js';
import { BadRequest, Forbidden, NotFound, RateLimited } from '../../common/errors.js';
import type { ListingService } from './listing.service.js';
import type { CommentRow, SocialRepository } from './social.repository.js';

/** What /my/settings shows (the profile module receives this from the square). */
export interface SocialStatsSource {
  statsFor(userId: number): Promise<SocialStats>;
}

export function createSocialStats(repo: SocialRepository): SocialStatsSource {
  return {
    async statsFor(userId) {
      const s = await repo.stats(userId);
      return {
        following_count: s.following,
        followers_count: s.followers,
        public_strategies_count: s.strategies,
        total_copiers: s.copiers,
      };
    },
  };
}

function replyOf(row: CommentRow, liked: ReadonlySet<number>): StrategyReply {
  return {
    id: row.id,
    content: row.content,
    parent_id: row.parentId,
    user_id: row.userId,
    user_nickname: row.nickname,
    user_avatar: row.avatarUrl,
    created_at: row.createdAt.toISOString(),
    likes_count: row.likesCount,
    is_liked: liked.has(row.id),
    replies: [],
  };
}

function commentOf(
  row: CommentRow,
  liked: ReadonlySet<number>,
  replies: readonly CommentRow[] = [],
): StrategyComment {
  return { ...replyOf(row, liked), replies: replies.map((r) => replyOf(r, liked)) };
}

/** What the social service works with. */
export interface SocialServiceDeps {
  repo: SocialRepository;
  listing: ListingService;
  clock: Clock;
  /** The wallet's coin balances: one's own profile shows it. */
  balances: CoinBalanceReader;
}

/** Follows and public profiles. */
function followFlows(deps: SocialServiceDeps) {
  const { repo } = deps;
  const socialStats = createSocialStats(repo);

  async function existingUser(userId: number) {
    const user = await repo.findUser(userId);
    if (!user) throw new NotFound(SQUARE_MESSAGES.userNotFound, SQUARE_ERROR_CODES.userNotFound);
    return user;
  }

  async function setFollow(
    viewerId: number,
    userId: number,
    isFollowing: boolean,
  ): Promise<FollowResponse> {
    if (viewerId === userId) {
      throw new BadRequest(SQUARE_ERROR_CODES.cannotFollowSelf, SQUARE_MESSAGES.cannotFollowSelf);
    }
    await existingUser(userId);
    if (isFollowing) await repo.follow(viewerId, userId, deps.clock.now());
    else await repo.unfollow(viewerId, userId);
    return { is_following: isFollowing, followers_count: await repo.followersCount(userId) };
  }

  async function profile(userId: number, viewerId: number | undefined): Promise<PublicProfile> {
    const user = await existingUser(userId);
    const isSelf = viewerId === userId;
    const [stats, isFollowing] = await Promise.all([
      socialStats.statsFor(userId),
      viewerId === undefined || isSelf ? false : repo.isFollowing(viewerId, userId),
    ]);
    return {
      user_id: user.id,
      nickname: user.nickname,
      bio: user.bio,
      avatar_url: user.avatarUrl,
      created_at: user.dateJoined.toISOString(),
      ...stats,
      is_following: isFollowing,
      is_self: isSelf,
      ...(isSelf
        ? { platform_balance: new Decimal(await deps.balances.balanceOf(userId)).toFixed(8) }
        : {}),
    };
  }

  return {
    follow: (viewerId: number, userId: number) => setFollow(viewerId, userId, true),
    unfollow: (viewerId: number, userId: number) => setFollow(viewerId, userId, false),
    isFollowing: (viewerId: number, userId: number) => repo.isFollowing(viewerId, userId),
    profile,
    async profileDetail(
      userId: number,
      viewerId: number | undefined,
      period: SquarePeriod,
    ): Promise<PublicProfileDetail> {
      const [base, strategies] = await Promise.all([
        profile(userId, viewerId),
        deps.listing.userStrategies(userId, period),
      ]);
      return { ...base, strategies };
    },
    async userStrategies(userId: number, period: SquarePeriod) {
      await existingUser(userId);
      const results = await deps.listing.userStrategies(userId, period);
      return { results, count: results.length };
    },
  };
}

/** Comments on public strategies, and likes. */
function commentFlows(deps: SocialServiceDeps) {
  const { repo } = deps;

  /** A public strategy whose comments are open; 404 when not public, 403 when closed. */
  async function commentable(accountId: number) {
    const { settings } = await deps.listing.publicStrategy(accountId);
    if (!settings.allowComments)
      throw new Forbidden(SQUARE_MESSAGES.commentsDisabled, SQUARE_ERROR_CODES.commentsDisabled);
  }

  async function comments(
    accountId: number,
    viewerId: number | undefined,
    page: number,
    pageSize: number,
  ): Promise<CommentList> {
    await commentable(accountId);
    const top = await repo.topLevel(accountId, pageSize, (page - 1) * pageSize);
    const replies = await repo.replies(top.rows.map((r) => r.id));
    const ids = [...top.rows, ...replies].map((r) => r.id);
    const liked = viewerId === undefined ? new Set<number>() : await repo.likedBy(viewerId, ids);
    const results = top.rows.map((row) =>
      commentOf(
        row,
        liked,
        replies.filter((r) => r.parentId === row.id),
      ),
    );
    return { results, count: top.top, total: top.all };
  }

  async function postComment(
    accountId: number,
    viewerId: number,
    body: CommentCreateRequest,
  ): Promise<StrategyComment> {
    await commentable(accountId);
    let parentId: number | null = null;
    if (body.parent_id !== undefined && body.parent_id !== null) {
      const parent = await repo.findComment(body.parent_id);
      if (!parent || parent.accountId !== accountId) {
        throw new BadRequest(SQUARE_ERROR_CODES.replyNotHere, SQUARE_MESSAGES.replyNotHere);
      }
      // One level of nesting: a reply to a reply joins the thread of its top-level comment.
      parentId = parent.parentId ?? parent.id;
    }
    const outcome = await repo.insertRateLimited(
      { accountId, userId: viewerId, parentId, content: body.content },
      deps.clock.now(),
      { perMinute: COMMENT_RATE_PER_MINUTE, perHour: COMMENT_RATE_PER_HOUR },
    );
    if ('retryAfterSeconds' in outcome) {
      throw new RateLimited(
        SQUARE_MESSAGES.commentTooFast,
        outcome.retryAfterSeconds,
        SQUARE_ERROR_CODES.commentTooFast,
      );
    }
    return commentOf(outcome.comment, new Set());
  }

  async function setLike(
    commentId: number,
    viewerId: number,
    isLiked: boolean,
  ): Promise<LikeResponse> {
    const comment = await repo.findComment(commentId);
    if (!comment)
      throw new NotFound(SQUARE_MESSAGES.commentNotFound, SQUARE_ERROR_CODES.commentNotFound);
    try {
      await commentable(comment.accountId);
    } catch (error) {
      // A comment of a strategy that is no longer public does not exist for the reader.
      if (error instanceof NotFound)
        throw new NotFound(SQUARE_MESSAGES.commentNotFound, SQUARE_ERROR_CODES.commentNotFound);
      throw error;
    }
    const likes = await repo.setLike(commentId, viewerId, isLiked, deps.clock.now());
    return { is_liked: isLiked, likes_count: likes };
  }

  return {
    comments,
    postComment,
    like: (commentId: number, viewerId: number) => setLike(commentId, viewerId, true),
    unlike: (commentId: number, viewerId: number) => setLike(commentId, viewerId, false),
  };
}

/** Follows, public profiles, comments and likes. Private strategies are never commented. */
export function createSocialService(deps: SocialServiceDeps) {
  const socialStats = createSocialStats(deps.repo);
  return {
    ...followFlows(deps),
    ...commentFlows(deps),
    statsFor: socialStats.statsFor,
  };
}
export type SocialService = ReturnType<typeof createSocialService>;
