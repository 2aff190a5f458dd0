import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import {
  type NewOptimisationRow,
  type OptimisationRow,
  optimisations,
} from '../../db/schema/index.js';

export type OptimisationProgress = Pick<
  NewOptimisationRow,
  'progress' | 'completedCount' | 'results' | 'updatedAt'
> &
  Partial<Pick<NewOptimisationRow, 'status' | 'finishedAt' | 'error'>>;

const LIST_LIMIT = 20;
const UNFINISHED = ['queued', 'running'] as const;

export function createOptimisationsRepository(db: Database) {
  return {
    async insert(values: NewOptimisationRow): Promise<OptimisationRow> {
      const [row] = await db.insert(optimisations).values(values).returning();
      if (!row) throw new Error('Inserting an optimisation returned no row');
      return row;
    },
    async findOwned(userId: number, id: number): Promise<OptimisationRow | undefined> {
      const [row] = await db
        .select()
        .from(optimisations)
        .where(and(eq(optimisations.id, id), eq(optimisations.userId, userId)));
      return row;
    },
    async listForUser(userId: number): Promise<OptimisationRow[]> {
      return db
        .select()
        .from(optimisations)
        .where(eq(optimisations.userId, userId))
        .orderBy(desc(optimisations.id))
        .limit(LIST_LIMIT);
    },
    /** Writes progress while the run is unfinished; false once it was cancelled (elsewhere too). */
    async saveProgress(id: number, changes: OptimisationProgress): Promise<boolean> {
      const rows = await db
        .update(optimisations)
        .set(changes)
        .where(and(eq(optimisations.id, id), inArray(optimisations.status, [...UNFINISHED])))
        .returning({ id: optimisations.id });
      return rows.length > 0;
    },
    /** Ends an unfinished run as failed (the process stopped while it ran). */
    async markFailed(id: number, error: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(optimisations)
        .set({ status: 'failed', error, finishedAt: now, updatedAt: now })
        .where(and(eq(optimisations.id, id), inArray(optimisations.status, [...UNFINISHED])))
        .returning({ id: optimisations.id });
      return rows.length > 0;
    },
    /** Cancels an unfinished run of `userId`; false when it was not unfinished. */
    async cancel(userId: number, id: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(optimisations)
        .set({ status: 'cancelled', finishedAt: now, updatedAt: now })
        .where(
          and(
            eq(optimisations.id, id),
            eq(optimisations.userId, userId),
            inArray(optimisations.status, [...UNFINISHED]),
          ),
        )
        .returning({ id: optimisations.id });
      return rows.length > 0;
    },
  };
}

export type OptimisationsRepository = ReturnType<typeof createOptimisationsRepository>;
