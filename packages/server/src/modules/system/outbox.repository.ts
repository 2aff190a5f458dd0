import { desc, eq } from 'drizzle-orm';
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';
import { type OutboxMessageRow, outboxMessages } from '../../db/schema/index.js';

export interface NewOutboxMessage {
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  body: string;
  code: string | null;
}

export function createOutboxRepository(db: Database, clock: Clock) {
  return {
    async insert(message: NewOutboxMessage): Promise<OutboxMessageRow> {
      const [row] = await db
        .insert(outboxMessages)
        .values({ ...message, createdAt: clock.now() })
        .returning();
      return row!;
    },
    async list(to: string | undefined, limit = 100): Promise<OutboxMessageRow[]> {
      const query = db.select().from(outboxMessages);
      // E-mail targets are stored lower-case (as the contracts normalise them).
      const target = to?.includes('@') ? to.toLowerCase() : to;
      const filtered = target ? query.where(eq(outboxMessages.to, target)) : query;
      return filtered.orderBy(desc(outboxMessages.createdAt), desc(outboxMessages.id)).limit(limit);
    },
  };
}
export type OutboxRepository = ReturnType<typeof createOutboxRepository>;
