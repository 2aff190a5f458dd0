import {
  type GenerateInvitationResponse,
  type InvitationStats,
  maskEmail,
  maskPhone,
  type ReferralsQuery,
  type ReferralsResponse,
  WALLET_MESSAGES,
} from '@quantsquare/contracts';
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';
import { newInvitationCode } from '../auth/user-accounts.service.js';
import { fixed8 } from './wallet.mappers.js';
import { walletQueries } from './wallet.repository.js';

/** Invitations: the inviter's counts and rewards, the referral list and a new code. */
export function createInvitationsService(deps: { db: Database; clock: Clock }) {
  const q = walletQueries(deps.db);

  return {
    async stats(userId: number): Promise<InvitationStats> {
      const [counts, sums] = await Promise.all([
        q.referralCounts(userId, deps.clock.now()),
        q.referralBonusSums(userId),
      ]);
      return {
        total_referrals: counts.total,
        total_rewards: fixed8(sums.credited),
        vip_count: counts.vip,
        pending_bonus: fixed8(sums.pending),
      };
    },

    /** Newest first; e-mails and phones masked. */
    async referrals(userId: number, query: ReferralsQuery): Promise<ReferralsResponse> {
      const now = deps.clock.now();
      const { rows, count } = await q.referrals(userId, {
        limit: query.page_size,
        offset: (query.page - 1) * query.page_size,
      });
      return {
        results: rows.map((r) => ({
          id: r.id,
          email: r.email ? maskEmail(r.email) : null,
          phone: r.phone ? maskPhone(r.phone) : null,
          created_at: r.dateJoined.toISOString(),
          is_vip: r.isVip && r.vipExpiresAt !== null && r.vipExpiresAt > now,
        })),
        count,
      };
    },

    /** Replaces the user's code; the old one stops working at once. */
    async generate(userId: number): Promise<GenerateInvitationResponse> {
      for (let attempt = 0; attempt < 5; attempt++) {
        const code = newInvitationCode();
        if (await q.setInvitationCode(userId, code)) {
          return { invitation_code: code, message: WALLET_MESSAGES.invitationCodeGenerated };
        }
      }
      throw new Error('Could not allocate a unique invitation code');
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
