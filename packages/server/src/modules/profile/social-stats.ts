import type { SocialCounts } from '@quantsquare/contracts';

/**
 * Where the profile's social counts come from: the strategy square (follows, sharing, copy
 * relations) provides the real one; until it is wired in, every count is zero.
 */
export interface SocialStats {
  statsFor(userId: number): Promise<SocialCounts>;
}

export const zeroSocialStats: SocialStats = {
  statsFor: async () => ({
    following_count: 0,
    followers_count: 0,
    public_strategies_count: 0,
    total_copiers: 0,
  }),
};
