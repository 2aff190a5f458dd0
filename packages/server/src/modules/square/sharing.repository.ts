import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type ExchangeAccountRow,
  exchangeAccounts,
  type StrategyShareSettingsRow,
  strategyMetrics,
  strategyShareSettings,
} from '../../db/schema/index.js';

export type ShareSettingsValues = Pick<
  StrategyShareSettingsRow,
  | 'name'
  | 'isPublic'
  | 'acceptCopy'
  | 'showTrades'
  | 'showPositions'
  | 'allowComments'
  | 'showRules'
  | 'description'
>;

/** The share settings of the square's strategies (one row per shared exchange account). */
export function createSharingRepository(db: Database) {
  return {
    /** The account if `userId` owns it; another user's account reads as missing. */
    async findOwnedAccount(
      userId: number,
      accountId: number,
    ): Promise<ExchangeAccountRow | undefined> {
      const [row] = await db
        .select()
        .from(exchangeAccounts)
        .where(and(eq(exchangeAccounts.id, accountId), eq(exchangeAccounts.userId, userId)));
      return row;
    },
    async findSettings(accountId: number): Promise<StrategyShareSettingsRow | undefined> {
      const [row] = await db
        .select()
        .from(strategyShareSettings)
        .where(eq(strategyShareSettings.accountId, accountId));
      return row;
    },
    /**
     * Writes the settings (insert or update) and copies name and visibility onto the square's
     * metrics rows in the same transaction, so the square never lists what just went private.
     * `published_at` is set the first time the account becomes public.
     */
    async save(
      account: ExchangeAccountRow,
      values: ShareSettingsValues,
      now: Date,
    ): Promise<StrategyShareSettingsRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(strategyShareSettings)
          .values({
            accountId: account.id,
            userId: account.userId,
            ...values,
            publishedAt: values.isPublic ? now : null,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoUpdate({
            target: strategyShareSettings.accountId,
            set: {
              ...values,
              publishedAt: values.isPublic
                ? sql`coalesce(${strategyShareSettings.publishedAt}, ${now.toISOString()}::timestamptz)`
                : strategyShareSettings.publishedAt,
              updatedAt: now,
            },
          })
          .returning();
        if (!row) throw new Error('share settings were not written');
        await tx
          .update(strategyMetrics)
          .set({ isPublic: row.isPublic, name: row.name, publishedAt: row.publishedAt })
          .where(eq(strategyMetrics.accountId, account.id));
        return row;
      });
    },
    /**
     * Copy trading's counters (issue 12): copiers joining (+1) or leaving (−1) and fees earned.
     * One statement each, so concurrent relations never lose an update; never below zero.
     */
    async adjustCopyFigures(
      accountId: number,
      change: { copiersDelta: number; earnings: string },
      now: Date,
    ): Promise<StrategyShareSettingsRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(strategyShareSettings)
          .set({
            copiersCount: sql`greatest(0, ${strategyShareSettings.copiersCount} + ${change.copiersDelta})`,
            totalCopyEarnings: sql`${strategyShareSettings.totalCopyEarnings} + ${change.earnings}::numeric`,
            updatedAt: now,
          })
          .where(eq(strategyShareSettings.accountId, accountId))
          .returning();
        if (row) {
          await tx
            .update(strategyMetrics)
            .set({ copiersCount: row.copiersCount })
            .where(eq(strategyMetrics.accountId, accountId));
        }
        return row;
      });
    },
  };
}
export type SharingRepository = ReturnType<typeof createSharingRepository>;
