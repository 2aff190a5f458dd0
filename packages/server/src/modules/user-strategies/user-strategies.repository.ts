import { and, asc, count, eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  bots,
  type NewUserStrategyRow,
  type UserStrategyRow,
  userStrategies,
} from '../../db/schema/index.js';

export type UserStrategyChanges = Pick<
  NewUserStrategyRow,
  'name' | 'description' | 'rules' | 'stopLossPct' | 'takeProfitPct' | 'trailingStopPct'
>;

const ownedBy = (userId: number, id: number) =>
  and(eq(userStrategies.id, id), eq(userStrategies.userId, userId));

export function createUserStrategiesRepository(db: Database) {
  return {
    async insert(values: NewUserStrategyRow): Promise<UserStrategyRow> {
      const [row] = await db.insert(userStrategies).values(values).returning();
      if (!row) throw new Error('Inserting a user strategy returned no row');
      return row;
    },
    async listForUser(userId: number): Promise<UserStrategyRow[]> {
      return db
        .select()
        .from(userStrategies)
        .where(eq(userStrategies.userId, userId))
        .orderBy(asc(userStrategies.id));
    },
    async countForUser(userId: number): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(userStrategies)
        .where(eq(userStrategies.userId, userId));
      return row?.total ?? 0;
    },
    /** The strategy when `userId` owns it. */
    async findOwned(userId: number, id: number): Promise<UserStrategyRow | undefined> {
      const [row] = await db.select().from(userStrategies).where(ownedBy(userId, id));
      return row;
    },
    /** Any user's strategy (the bot engine runs a bot's strategy whoever asks). */
    async find(id: number): Promise<UserStrategyRow | undefined> {
      const [row] = await db.select().from(userStrategies).where(eq(userStrategies.id, id));
      return row;
    },
    /** Whether a bot (any status) names strategy `type`; read only, the bots module writes it. */
    async isUsedByBot(type: string): Promise<boolean> {
      const [row] = await db
        .select({ id: bots.id })
        .from(bots)
        .where(eq(bots.strategyType, type))
        .limit(1);
      return row !== undefined;
    },
    async update(
      userId: number,
      id: number,
      changes: UserStrategyChanges,
      now: Date,
    ): Promise<UserStrategyRow | undefined> {
      const [row] = await db
        .update(userStrategies)
        .set({ ...changes, updatedAt: now })
        .where(ownedBy(userId, id))
        .returning();
      return row;
    },
    async delete(userId: number, id: number): Promise<boolean> {
      const rows = await db
        .delete(userStrategies)
        .where(ownedBy(userId, id))
        .returning({ id: userStrategies.id });
      return rows.length > 0;
    },
  };
}

export type UserStrategiesRepository = ReturnType<typeof createUserStrategiesRepository>;
