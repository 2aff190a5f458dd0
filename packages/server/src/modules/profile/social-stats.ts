import type { SocialCounts } from '@quantsquare/contracts';

/**
 * Where the profile's social counts come from: the strategy square (follows, sharing, copy
 * relations) provides it.
 */
export interface SocialStats {
  statsFor(userId: number): Promise<SocialCounts>;
}
